----------------------- MODULE MCExactlyOnceS4Trace -----------------------
(* Models that make traces of Strategy 4 for replay on the Java cores        *)
(* (specs/CONVENTIONS.md).  The Sim cfg is a random simulation; the other    *)
(* cfgs are targeted: their only invariant is a trap NotX == ~X, and TLC's   *)
(* shortest (BFS) counterexample is a trace of scenario X.                   *)
EXTENDS MCExactlyOnceS4

\* Example 4 (L215): A delivered m, so D_A holds it; B, about to deliver,
\* gathers D_A and merges it, so m is in D_B and is not delivered again.
Example4 ==
    /\ lastAction.name = "RecvD"
    /\ lastAction.server = "B" /\ lastAction.peer = "A"
    /\ \E i \in lastAction.d : Processed(i)
NotExample4 == ~Example4

\* A.6 `{abort;}` (L703): a request or reply is lost and the gather aborts.
GatherFailed == lastAction.name = "GatherFail"
NotGatherFailed == ~GatherFailed

\* L193: aDeliver returns error; the session aborts and the note stays
\* undelivered (rho = 0) for a later session.
ADeliverFailed == lastAction.name = "ADeliverErr"
NotADeliverFailed == ~ADeliverFailed

\* A reply to "Request for list D" is lost; the gather is then stuck and
\* may give up for free (GatherFail).
LostReply == lastAction.name = "Lose" /\ lastAction.type = "replyD"
NotLostReply == ~LostReply

\* L213 and A.6: a delivered note known to every server is purged.
Purged == lastAction.name \in {"PurgeSync", "EndGather"} /\ lastAction.purged # {}
NotPurged == ~Purged
=============================================================================
