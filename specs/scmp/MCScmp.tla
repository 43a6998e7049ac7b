------------------------------- MODULE MCScmp -------------------------------
(* Bounded models of SCMP.  The cfg files set the bounds; this module only *)
(* builds the functions a cfg cannot write: which class a connection is in *)
(* (c1 in k1, every other connection in k2 when there is a class k2) and   *)
(* the rho of each class.                                                  *)
EXTENDS SCMP

CONSTANTS RhoK1, RhoK2

MCClassOf == [c \in Conns |-> IF "k2" \in Classes /\ c # "c1" THEN "k2" ELSE "k1"]
MCRho     == [k \in Classes |-> IF k = "k1" THEN RhoK1 ELSE RhoK2]
\* The fingerprint TLC keeps: every variable but lastAction.  Two states that
\* differ only in the step that led to them are merged, so a Receive that
\* only reports a verdict is a self-loop.  Sound because no state invariant
\* reads lastAction: the promises, which do, are checked as action
\* properties on every transition (PROPERTY in the cfg), seen or not.
StateView == <<envVars, serverVars, histVars>>

\* The promises of SCMP.tla as action properties: checked in the state
\* after every step TLC takes, including steps into states already seen.
PromiseNoCrashStep    == [][PromiseNoCrash']_vars
PromiseAfterCrashStep == [][PromiseAfterCrash']_vars
=============================================================================
