---------------------- MODULE MCCausalMembershipRestart ----------------------
(* Bounded models of CausalMembershipRestart: MCCausal's event menu, and   *)
(* four nodes where agreement must hold among two survivors after two      *)
(* removals (with three, one survivor is left and agreement is trivial).   *)
EXTENDS CausalMembershipRestart, MCCausal

\* The suspectable nodes, a set: {"n1", "n2"} in every model, n1 the node
\* whose event the survivors must agree on, n2 the first survivor, so the
\* coordinator of n1's removal.
CONSTANT SuspectWho
MCSuspectable == SuspectWho
MCRNodes == IF NodeCount = 4 THEN <<"n1", "n2", "n3", "n4">> ELSE MCNodes
\* Bounds = "none": nobody broadcasts, so a model is the view change alone
\* (the ci-sized liveness of the restart); else MCCausal's menu.
MCRMaxSeq == IF Bounds = "none" THEN [n \in Node |-> 0] ELSE MCMaxSeq

\* Reachability (a model must violate it, so that the restart is known to be
\* taken): n2, the coordinator of n1's removal, is suspected after it
\* decided, before every survivor installed, and the flush restarts.
CoordinatorSuspectedAfterDecision ==
    /\ lastAction.name = "Suspect" /\ lastAction.restart /\ lastAction.target = "n2"
    /\ "n1" \in flushing \ members
NoCoordinatorSuspectedAfterDecision == ~CoordinatorSuspectedAfterDecision
=============================================================================
