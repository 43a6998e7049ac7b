----------------------- MODULE MCExactlyOnceS0Trace -----------------------
(* Models that make traces of Strategy 0 for replay on the Java cores               *)
(* (specs/CONVENTIONS.md).  The Sim cfg is a random simulation; the other    *)
(* cfgs are targeted: their only invariant is a trap NotX == ~X, and TLC's   *)
(* shortest (BFS) counterexample is a trace of scenario X.                   *)
EXTENDS MCExactlyOnceS0

\* The expected duplicate of Strategy 0 as a trace: the client processes a
\* note a second time.
Duplicate == ~NoDuplicateDelivery
NotDuplicate == ~Duplicate

\* Z13: a server crash loses the session and its pending Deliver; K survives.
ServerCrashPending == lastAction.name = "ServerCrash"
NotServerCrashPending == ~ServerCrashPending
=============================================================================
