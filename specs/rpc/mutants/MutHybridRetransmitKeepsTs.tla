--------------------- MODULE MutHybridRetransmitKeepsTs ---------------------
(* Mutant of Hybrid.tla: a retransmission carries the call's first          *)
(* timestamp (as 3.1's CALL does) instead of the client's current time.    *)
(* While one client's call is held up, another client's entry is collected *)
(* and upper passes the held call's timestamp; every retry of it is then   *)
(* below upper, and the client can no longer "retry calls indefinitely     *)
(* until a server responds".  Expected: SentAboveUpper.                    *)
EXTENDS MCHybrid

\* the first timestamp of c's outstanding call, read from the network
FirstTs(c) ==
    LET copies == {m \in net : m.type = "CALL" /\ m.conn = c /\ m.seq = client[c].seq} IN
    IF copies = {} THEN client[c].ts
    ELSE CHOOSE t \in {m.ts : m \in copies} : \A m \in copies : t <= m.ts

MutNext ==
    \/ \E c \in Conns : Bind(c) \/ Call(c) \/ RetransmitWith(c, FirstTs(c)) \/ Timeout(c) \/ ReplyNext(c)
    \/ ReceiveCallNext
    \/ AckNext
    \/ GcNext
    \/ Crash
    \/ Recover
    \/ EnvNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
