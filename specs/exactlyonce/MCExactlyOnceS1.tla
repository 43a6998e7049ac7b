------------------------- MODULE MCExactlyOnceS1 -------------------------
(* Bounded models of Strategy 1; the cfg files set the bounds. *)
EXTENDS ExactlyOnceS1
=============================================================================
