--------------------- MODULE MCExactlyOnceS6Outcome ---------------------
(* Bounded models of Strategy 6 with aDeliver's outcome as its own steps; *)
(* the cfg files set the bounds.  A cfg cannot write a sequence, so the   *)
(* note ids are here.                                                     *)
EXTENDS ExactlyOnceS6Outcome

MCNoteIds == <<"n1", "n2", "n3">>

\* A mutant's deferral: the step goes ahead while the outcome is unknown.
AtOnce(s) == TRUE

\* The cores' margins, as MCExactlyOnceS6's: T_e = 1, 2*skew = 2, A's clock
\* two ticks ahead.
MCTe == 1
MCMarginSkew == 2
MCMarginMaxSkew == 2
MCMarginOffset == [s \in Servers |-> IF s = "A" THEN 2 ELSE 0]
=============================================================================
