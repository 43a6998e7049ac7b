-------------------- MODULE MCExactlyOnceS3PrintedTrace --------------------
(* Models that make traces of App. A.4 as printed for replay on the Java cores               *)
(* (specs/CONVENTIONS.md).  The Sim cfg is a random simulation; the other    *)
(* cfgs are targeted: their only invariant is a trap NotX == ~X, and TLC's   *)
(* shortest (BFS) counterexample is a trace of scenario X.                   *)
EXTENDS MCExactlyOnceS3Printed

\* Race R3 as a trace: the stale snapshot U sends a note the client has been
\* told to purge, and the client processes it a second time.
R3Duplicate == ~NoDuplicateDelivery
NotR3Duplicate == ~R3Duplicate

\* The printed purge and the printed timeout, for coverage of every action:
\* a note purged from R, K and D; a lost note whose Deliver times out.
PurgeDone == lastAction.name = "ReceivePurgeAck"
NotPurgeDone == ~PurgeDone
LostThenTimeout ==
    lastAction.name = "Timeout" /\ ~Processed(lastAction.note) /\ NoCopy(lastAction.note)
NotLostThenTimeout == ~LostThenTimeout
=============================================================================
