---------------------- MODULE MCExactlyOnceS2Timed ----------------------
(* Bounded models of Strategy 2 with Condition 1's T_e wait as a clock    *)
(* wait (ExactlyOnceS2Timed); the cfg files set the bounds.               *)
EXTENDS ExactlyOnceS2Timed

\* Reachability (expected to fail): with the wait in place a note is still
\* created under Condition 1 (the safety model is not safe by never
\* numbering past the first W - 1 notes).  The first such note is x.(W-1):
\* its successor x.0 was used before (ExactlyOnceS2's SuccessorUsed).
GatedCreate == \E i \in created : Ord(i) >= W - 1
NeverGated == ~GatedCreate
=============================================================================
