---------------------------- MODULE MutCompleteSilent ----------------------------
(* Mutant: on completion the server stores the reply but does not transmit *)
(* it (Fig. 3-1: "Transmit REPLY message to client" dropped), counting on    *)
(* the client's retransmissions to fetch it.  If every retransmission       *)
(* arrives while the call is still COMPUTING, each gets an ACK, the client  *)
(* stops retransmitting, and the reply is never delivered, even with fair   *)
(* delivery and no loss.  Expected: EventualCompletion.                     *)
EXTENDS MCRpc

CompleteSilently(x) ==
    /\ Complete(x)
    /\ net' = net

MutCompleteNext == \E x \in computing : CompleteSilently(x)

MutNext ==
    \/ \E c \in Conns : ClientNext(c) \/ ClientReceiveNext(c)
    \/ ReceiveCallNext
    \/ ReplyAckNext
    \/ MutCompleteNext
    \/ GcNext
    \/ WriteLatest
    \/ Crash
    \/ Recover
    \/ EnvNext

MutFairness ==
    /\ WF_vars(ReceiveCallNext)
    /\ WF_vars(ReplyAckNext)
    /\ WF_vars(MutCompleteNext)
    /\ WF_vars(WriteLatest)
    /\ \A c \in Conns : WF_vars(ClientReceiveNext(c)) /\ WF_vars(Retransmit(c))

MutSpec == Init /\ [][MutNext]_vars /\ MutFairness
=============================================================================
