------------------------- MODULE MutReexecuteInReplying -------------------------
(* Mutant: a duplicate CALL arriving while REPLYING starts the computation  *)
(* again instead of retransmitting the stored reply (Fig. 3-1, 3: "if state *)
(* is REPLYING, retransmit stored reply"), as a zero-or-more RPC would.     *)
(* Expected: AtMostOnceExecution.                                           *)
EXTENDS MCRpc

Reexecuting(m) ==
    LET o == CallOutcome(m) IN
    IF o = "retransmitReply" /\ ~m.truncated THEN "execute" ELSE o

MutNext ==
    \/ \E c \in Conns : ClientNext(c) \/ ClientReceiveNext(c)
    \/ \E m \in net : ReceiveCallWith(m, Reexecuting(m))
    \/ ReplyAckNext
    \/ CompleteNext
    \/ GcNext
    \/ WriteLatest
    \/ Crash
    \/ Recover
    \/ EnvNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
