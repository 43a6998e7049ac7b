-------------------------------- MODULE MCRpc --------------------------------
(* Bounded models of RPC.  The cfg files set the bounds; this module only   *)
(* builds what a cfg cannot write: every connection in the one rho class    *)
(* "default" (the class name of the Java core's single-class config) with   *)
(* rho RhoDefault.                                                          *)
EXTENDS RPC

CONSTANT RhoDefault

MCClassOf == [c \in Conns |-> "default"]
MCRho     == [k \in Classes |-> RhoDefault]
=============================================================================
