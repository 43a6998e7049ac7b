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

\* MFairness with WF in place of SF (SF_v(A) implies WF_v(A), so a pass is the
\* stronger result), for the liveness model whose network loses nothing
\* (MCCausalMembershipWeakFair.tla says why WF is enough there and cheaper).
MWeakFairness ==
    /\ \A i \in Node :
         /\ WF_mpvars(\E m \in buf[i] : MDeliver(i, m))
         /\ WF_mpvars(\E r \in missing[i] : ExpireWait(i, r) /\ UNCHANGED memVars)
         /\ WF_mpvars(\E e \in net : e.to = i /\ MReceive(i, e))
         /\ WF_mpvars(SendHeartbeat(i) /\ UNCHANGED memVars)
         /\ WF_mpvars(\E e \in net : MReceiveHeartbeat(i, e))
         /\ WF_mpvars(MCollectGarbage(i))
    /\ WF_mpvars(\E i, x \in Node : ~up[x] /\ Suspect(i, x))
    /\ WF_mpvars(\E i \in Node : FlushReport(i) \/ InstallView(i))
    /\ WF_mpvars(DecideView)
    /\ WF_mpvars(\E i, j \in Node : FlushForward(j, i))
    /\ \A i \in Node, d \in AllIds :
         /\ WF_mpvars(MRtoId(i, d))
         /\ \A j \in Node \ {i} : WF_mpvars(MServeId(j, i, d))
MWeakFairSpec == MSpec /\ MWeakFairness

\* Reachability (a model must violate it, so that the restart is known to be
\* taken): n2, the coordinator of n1's removal, is suspected after it
\* decided, before every survivor installed, and the flush restarts.
CoordinatorSuspectedAfterDecision ==
    /\ lastAction.name = "Suspect" /\ lastAction.restart /\ lastAction.target = "n2"
    /\ "n1" \in flushing \ members
NoCoordinatorSuspectedAfterDecision == ~CoordinatorSuspectedAfterDecision
=============================================================================
