------------------- MODULE MCExactlyOnceS4OutcomeTrace -------------------
(* Models that make traces of Strategy 4 with aDeliver's outcome as its own *)
(* steps, for replay on the Java cores (specs/CONVENTIONS.md).  The Sim cfg *)
(* is a random simulation; the other cfgs are targeted: their only         *)
(* invariant is a trap NotX == ~X, and TLC's shortest (BFS) counterexample *)
(* is a trace of scenario X.                                               *)
EXTENDS MCExactlyOnceS4Outcome

\* A delayed outcome with a deferred reply: a server asked for its D while
\* its aDeliver outcome is unknown does not answer (GatherServer.replyD).
DeferredReply == lastAction.name = "DeferReplyD"
NotDeferredReply == ~DeferredReply

\* A gather done while the server's own outcome is unknown does not start
\* delivering (GatherServer.endGather: "unresolved").
DeferredEndGather == lastAction.name = "DeferEndGather"
NotDeferredEndGather == ~DeferredEndGather

\* s's half of a PurgeSync asked while s's own outcome is unknown: the sync
\* to that one peer is deferred (GatherServer.sync(t): "deferred").
DeferredPurgeSync == lastAction.name = "DeferPurgeSync"
NotDeferredPurgeSync == ~DeferredPurgeSync

\* After a crash, the outcome is settled from the primitive's log (the
\* calling session is gone: sid 0).
Settled == lastAction.name \in {"ADeliverOK", "ADeliverErr"} /\ lastAction.sid = 0
NotSettled == ~Settled

\* Coverage of the fault steps the replayer must map: an aDeliver call that
\* fails, its error outcome then reaching the server (L193); a gather that
\* gives up (A.6 {abort;}).
ErrOutcome == lastAction.name = "ADeliverErr"
NotErrOutcome == ~ErrOutcome
GatherFailed == lastAction.name = "GatherFail"
NotGatherFailed == ~GatherFailed
LostMessage == lastAction.name = "Lose"
NotLostMessage == ~LostMessage
=============================================================================
