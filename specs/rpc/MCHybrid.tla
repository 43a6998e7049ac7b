------------------------------- MODULE MCHybrid -------------------------------
(* Bounded models of Hybrid.tla.  The cfg files set the bounds; this module *)
(* is what the mutants and the trace models extend.                        *)
EXTENDS Hybrid
=============================================================================
