--------------------------- MODULE MCAdaptiveLimited ------------------------
(* Bounded models and traces of AdaptiveLimited (Fig. 3).  SimSpec: random  *)
(* simulation loses a message only from a fuller network.                   *)
EXTENDS AdaptiveLimited, MCAdaptive

CONSTANT AuxBound

\* Receiving the same summary-rejected copy again bumps numrej without
\* bound; models bound it (ltimes is bounded by S already).
AuxConstraint == numrej <= AuxBound

SimNext ==
    /\ LimitedNext
    /\ lastAction'.name = "Lose" => Cardinality(net) >= 3
SimSpec == LimitedInit /\ [][SimNext]_allVars
=============================================================================
