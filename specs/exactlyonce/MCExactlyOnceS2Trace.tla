----------------------- MODULE MCExactlyOnceS2Trace -----------------------
(* Models that make traces of Strategy 2 for replay (CONVENTIONS.md).       *)
(* MCExactlyOnceS2TraceSim.cfg: random simulation.  The other cfgs are      *)
(* targeted: their only invariant is a trap NotX == ~X, and TLC's shortest  *)
(* counterexample is a trace of scenario X.                                 *)
EXTENDS MCExactlyOnceS2

\* Example 2's situation under Condition 1 (L99-113): seq 0 of stream A is
\* reused after B confirmed A.1 gone, and the client processes the new A.0
\* while the old one is long delivered.
ReuseUnderCondition1 ==
    \E i \in created : i.inc = 1 /\ i.seq = 0 /\ Processed(i)
NotReuseUnderCondition1 == ~ReuseUnderCondition1
=============================================================================
