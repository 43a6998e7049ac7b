----------------------------- MODULE MCAdaptive -----------------------------
(* Bounded models of Adaptive.  The cfg files set the bounds; this module  *)
(* only builds what a cfg cannot write: the estimate ranges.               *)
EXTENDS Adaptive

CONSTANTS MinEst, MaxEst

\* Estimates MinEst..MaxEst.  With MCEveryThreshold below as the range,
\* clock - e takes every value from below the smallest timestamp the model
\* can produce to its largest, so each garbage collection can remove any
\* "at or below a threshold" subset of ct that some integer estimate could:
\* the model then covers every estimator (Fig. 1 "any function"), not only
\* the powers of two of Figs. 2 and 3.
MCEstimates == MinEst..MaxEst

TsLo     == -MaxSkew                                  \* smallest timestamp
TsHi     == MaxTime + MaxSkew + MaxSends              \* largest timestamp
ClockLo  == -(MaxJumps * MaxJumpBack)
MCEveryThreshold == (ClockLo - TsHi) .. (MaxTime - TsLo + 1)
=============================================================================
