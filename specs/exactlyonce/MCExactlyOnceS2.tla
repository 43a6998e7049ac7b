------------------------- MODULE MCExactlyOnceS2 -------------------------
(* Bounded models of Strategy 2; the cfg files set the bounds. *)
EXTENDS ExactlyOnceS2
=============================================================================
