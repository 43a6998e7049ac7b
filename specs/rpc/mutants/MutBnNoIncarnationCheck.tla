----------------------- MODULE MutBnNoIncarnationCheck -----------------------
(* Mutant of BN.tla: rule 1 of 3.2 dropped (the call's incarnation number is *)
(* not checked).  A crash empties the connection table, so a copy of a call *)
(* executed before the crash, still in the network and not late, is taken   *)
(* by rule 3 and executed again: the incarnation check is what makes "crashes *)
(* will not lead to duplicate messages being accepted".                     *)
(* Expected: AtMostOnceExecution.                                           *)
EXTENDS MCBN

NoRule1Outcome(m) ==
    IF m.conn \in DOMAIN table
    THEN IF m.seq > table[m.conn].seq THEN "execute"
         ELSE IF m.seq = table[m.conn].seq /\ table[m.conn].state = "REPLYING"
              THEN "retransmitReply" ELSE "duplicate"
    ELSE "execute"

MutNext ==
    \/ \E c \in Conns : ClientNext(c)
    \/ ReplyNext
    \/ \E m \in net : ReceiveCallWith(m, NoRule1Outcome(m))
    \/ AckNext
    \/ DiscardNext
    \/ Crash
    \/ Recover
    \/ Tick

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
