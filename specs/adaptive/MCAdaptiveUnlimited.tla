-------------------------- MODULE MCAdaptiveUnlimited -----------------------
(* Bounded models and traces of AdaptiveUnlimited (Fig. 2).  The cfgs set   *)
(* the bounds; Estimates (MCEstimates of MCAdaptive) only serves the        *)
(* StandardForm check and must hold every power of two the model reaches.   *)
(* SimSpec: random simulation collects right after every Tick and only     *)
(* then (a periodic collector with G = 1 tick, Section 3.2), and loses a    *)
(* message only from a fuller network.                                      *)
EXTENDS AdaptiveUnlimited, MCAdaptive

CONSTANT AuxBound

\* Receiving the same copy again is always enabled and appends to ltimes
\* (and may bump numrej), and a "decrease" that rounds to the same estimate
\* bumps p: the figure's auxiliary state is unbounded, so models bound it.
AuxConstraint == Len(ltimes) <= AuxBound /\ numrej <= AuxBound /\ p <= AuxBound

SimNext ==
    /\ UnlimitedNext
    /\ lastAction'.name = "Lose" => Cardinality(net) >= 3
    /\ lastAction'.name = "CollectGarbage" <=> lastAction.name = "Tick"
SimSpec == UnlimitedInit /\ [][SimNext]_allVars

\* Trace scenario for Fig. 2 read literally: p has grown, and the last
\* collection's maxltime rounds to the estimate it left unchanged (under
\* Reading "literal" the shortest way there is a bump without a decrease).
SameEstimateBump == p > 1 /\ maxltime > 0 /\ Pow2Ceil(maxltime) = ltimeEst
NotSameEstimateBump == ~SameEstimateBump
=============================================================================
