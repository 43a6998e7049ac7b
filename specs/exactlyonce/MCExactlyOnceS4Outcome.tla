--------------------- MODULE MCExactlyOnceS4Outcome ---------------------
(* Bounded models of Strategy 4 with aDeliver's outcome as its own steps; *)
(* the cfg files set the bounds.  A cfg cannot write a sequence, so the   *)
(* note ids are here.                                                     *)
EXTENDS ExactlyOnceS4Outcome

MCNoteIds == <<"n1", "n2", "n3">>

\* A mutant's deferral: the step goes ahead while the outcome is unknown.
AtOnce(s) == TRUE
=============================================================================
