---------------------- MODULE MCCausalMembershipRestart ----------------------
(* Bounded models of CausalMembershipRestart: MCCausal's event menu, and   *)
(* four nodes where agreement must hold among two survivors after two      *)
(* removals (with three, one survivor is left and agreement is trivial).   *)
EXTENDS CausalMembershipRestart, MCCausal

\* The suspectable nodes, a set: {"n1", "n2"} in the restart models, n1 the
\* node whose event the survivors must agree on, n2 the first survivor, so
\* the coordinator of n1's removal; {"n1", "n3"} in the takeover models, n1
\* the coordinator of n3's removal, n2 the survivor that takes over.
CONSTANT SuspectWho
MCSuspectable == SuspectWho
MCRNodes == IF NodeCount = 4 THEN <<"n1", "n2", "n3", "n4">> ELSE MCNodes
\* Bounds = "none": nobody broadcasts, so a model is the view change alone
\* (the ci-sized liveness of the restart); else MCCausal's menu.
\* Bounds = "c1": n3 alone broadcasts one event, n3 the target whose flush
\* request the taker-over n2 missed (the takeover models: n1 coordinates, so
\* a forgotten target after n2 in ring order can only be n3).
MCRMaxSeq == CASE Bounds = "none" -> [n \in Node |-> 0]
               [] Bounds = "c1"   -> [n \in Node |-> IF n = "n3" THEN 1 ELSE 0]
               [] OTHER           -> MCMaxSeq

\* Reachability (a model must violate it, so that the restart is known to be
\* taken): n2, the coordinator of n1's removal, is suspected after it
\* decided, before every survivor installed, and the flush restarts.
CoordinatorSuspectedAfterDecision ==
    /\ lastAction.name = "Suspect" /\ lastAction.restart /\ lastAction.target = "n2"
    /\ "n1" \in flushing \ members
NoCoordinatorSuspectedAfterDecision == ~CoordinatorSuspectedAfterDecision

\* Reachability of the takeover that forgets (TakeOver): n1 coordinated
\* n3's removal and reported on n3, n2 had not, and n2 took over from n1
\* with a round on n1 alone.
TakeOverForgot ==
    /\ lastAction.name = "Suspect" /\ lastAction.node = "n2" /\ lastAction.target = "n1"
    /\ flushing = {"n1"} /\ "n3" \in frozen["n1"]
NoTakeOverForgot == ~TakeOverForgot
=============================================================================
