------------------------ MODULE MutGcCountsRemovedRow ------------------------
(* Mutant: garbage collection keeps counting the removed node's row (the    *)
(* stable prefix over every node, as before the membership).  n2 crashed   *)
(* before it got n1's event and was removed; its row stays 0, so n1 never   *)
(* collects its event.  Expected: GcContinues.                              *)
EXTENDS MCCausalMembership

CollectCountingAll(i) ==
    /\ CollectGarbage(i)
    /\ UNCHANGED memVars

MutNext ==
    \/ PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ ViewNext
    \/ \E i \in Node : CollectCountingAll(i)

(* MFairness with the mutant collection in place of MCollectGarbage.       *)
MutFairness ==
    /\ \A i \in Node :
         /\ WF_mpvars(\E m \in buf[i] : MDeliver(i, m))
         /\ WF_mpvars(\E r \in missing[i] : ExpireWait(i, r) /\ UNCHANGED memVars)
         /\ SF_mpvars(\E e \in net : e.to = i /\ MReceive(i, e))
         /\ WF_mpvars(SendHeartbeat(i) /\ UNCHANGED memVars)
         /\ SF_mpvars(\E e \in net : MReceiveHeartbeat(i, e))
         /\ WF_mpvars(CollectCountingAll(i))
    /\ WF_mpvars(\E i, x \in Node : ~up[x] /\ Suspect(i, x))
    /\ WF_mpvars(\E i \in Node : FlushReport(i) \/ InstallView(i))
    /\ WF_mpvars(DecideView)
    /\ SF_mpvars(\E i, j \in Node : FlushForward(j, i))
    /\ \A i \in Node, d \in AllIds :
         /\ WF_mpvars(MRtoId(i, d))
         /\ \A j \in Node \ {i} : SF_mpvars(MServeId(j, i, d))

MutSpec == MInit /\ [][MutNext]_mvars /\ MutFairness
=============================================================================
