------------------------- MODULE MutS6HAtConnStart -------------------------
(* Mutant (notes M6-c): the client records in H(A) when its last           *)
(* connection to A started, not when it ended (L248: "H(A) is the time     *)
(* when the last connection to server A ended").  A sync A sent during the *)
(* connection, before its delivery of n1, is then "fresher than" H(A):     *)
(* the client connects to A at 0, A pushes D_A = {} at 1, A delivers n1 at *)
(* 1, the client leaves (H(A) := 0), and B, whose sync from A is from 1,   *)
(* does not pull from A and delivers n1 again.  H(A) := Open at connect is *)
(* kept (that is M6-b, MutS6HAtCleanDisconnect).  The push in mid-         *)
(* connection needs CtlS6PushAnyTime's environment (ExactlyOnceS6 pushes   *)
(* only while the client is not connected to the pusher, and with that     *)
(* bound this mutant passes: 34,249 states under MoveOnly); the unmodified *)
(* spec passes the widened one (CtlS6PushAnyTime.cfg).  HistoryTruthful   *)
(* holds here too (a start time is not in the future): it cannot see this  *)
(* defect.                                                                 *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS CtlS6PushAnyTime

VARIABLE
    started   \* client, stable: when the current or last connection started

mutVars == <<vars, started>>

MutInit == Init /\ started = 0

MutConnect(s) == Connect(s) /\ started' = now

\* The one change (ExactlyOnceS6's Disconnect writes H' = [H EXCEPT ![conn] = now]).
MutDisconnect ==
    /\ DisconnectBase
    /\ EndConnSession
    /\ H' = [H EXCEPT ![conn] = started]
    /\ UNCHANGED <<timedVars, started>>

MutNext ==
    \/ \E s \in Servers : MutConnect(s)
    \/ MutDisconnect
    \/ OtherSteps /\ UNCHANGED started

MutSpec == MutInit /\ [][MutNext]_mutVars

\* Narrowed further for issue 18's budget (an ACTION_CONSTRAINT beside the
\* fault's): the client's first connection is to A, its second to B, and
\* there is no third, which is the scenario above; the servers' symmetric
\* half and any later connection are left out.
ConnectAThenB ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"
=============================================================================
