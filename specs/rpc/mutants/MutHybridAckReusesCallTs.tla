---------------------- MODULE MutHybridAckReusesCallTs ----------------------
(* Mutant of Hybrid.tla that breaks 3.2's proviso ("the timestamps in call  *)
(* messages for an RPC are always less than those of acks for that RPC"):   *)
(* the client stamps its ACK with the timestamp of the call copy the REPLY  *)
(* answers, as if the call's timestamp were its id, instead of its current  *)
(* time.  A retransmission sent after that copy has a larger timestamp;     *)
(* once the entry is collected upper is only the ack's, and the late        *)
(* retransmission is executed again.  Expected: AtMostOnceExecution.        *)
EXTENDS MCHybrid

MutNext ==
    \/ \E c \in Conns : ClientNext(c) \/ (\E m \in net : m.conn = c /\ ReceiveReplyWith(m, m.ts))
    \/ ReceiveCallNext
    \/ AckNext
    \/ GcNext
    \/ Crash
    \/ Recover
    \/ EnvNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
