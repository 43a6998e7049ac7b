----------------------- MODULE MCExactlyOnceS2Trace -----------------------
(* Models that make traces of Strategy 2 for replay on the Java cores               *)
(* (specs/CONVENTIONS.md).  The Sim cfg is a random simulation; the other    *)
(* cfgs are targeted: their only invariant is a trap NotX == ~X, and TLC's   *)
(* shortest (BFS) counterexample is a trace of scenario X.                   *)
EXTENDS MCExactlyOnceS2

\* Example 2's situation under Condition 1 (L99-113): seq 0 of stream A is
\* reused only after B's sync confirmed the old A.1 gone from its K (and A's
\* own K and the network have no copy), and the client processes the new A.0.
ReuseUnderCondition1 ==
    \E i \in created : i.inc = 1 /\ i.seq = 0 /\ Processed(i)
NotReuseUnderCondition1 == ~ReuseUnderCondition1

\* 3.1, the Deliver outcome "timeout, message lost": the note is lost and the
\* server's Deliver times out; the note is still in every K for later.
LostThenTimeout ==
    lastAction.name = "Timeout" /\ ~Processed(lastAction.note) /\ NoCopy(lastAction.note)
NotLostThenTimeout == ~LostThenTimeout
=============================================================================
