------------------------- MODULE CtlS5TimeCut -------------------------
(* Control: unmutated Strategy 5 at the bounds of MutS5TrFromConnStart    *)
(* (MaxTime = 2 with the states after time 1 cut); it must pass, so that  *)
(* mutant's counterexample comes from the mutation, not from the bounds.  *)
EXTENDS MCExactlyOnceS5

TimeCut == now <= 1
=============================================================================
