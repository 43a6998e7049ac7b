-------------------------- MODULE MutFlushNoForward --------------------------
(* Mutant: the flush agrees on the events but nobody forwards them: a      *)
(* survivor that missed one learns of it only if a later message or a      *)
(* heartbeat reveals it, which the paper's recovery has none of, so it      *)
(* never delivers it and never installs the view.  Expected: FlushCompletes.*)
EXTENDS MCCausalMembership

MutNext ==
    \/ PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ MGcNext
    \/ \E i, x \in Node : Suspect(i, x)
    \/ \E i \in Node : FlushReport(i) \/ InstallView(i)
    \/ DecideView

(* MFairness without the forward it removes.                               *)
MutFairness ==
    /\ \A i \in Node :
         /\ WF_mpvars(\E m \in buf[i] : MDeliver(i, m))
         /\ WF_mpvars(\E r \in missing[i] : ExpireWait(i, r) /\ UNCHANGED memVars)
         /\ SF_mpvars(\E e \in net : e.to = i /\ MReceive(i, e))
         /\ WF_mpvars(SendHeartbeat(i) /\ UNCHANGED memVars)
         /\ SF_mpvars(\E e \in net : MReceiveHeartbeat(i, e))
         /\ WF_mpvars(MCollectGarbage(i))
    /\ WF_mpvars(\E i, x \in Node : ~up[x] /\ Suspect(i, x))
    /\ WF_mpvars(\E i \in Node : FlushReport(i) \/ InstallView(i))
    /\ WF_mpvars(DecideView)
    /\ \A i \in Node, d \in AllIds :
         /\ WF_mpvars(MRtoId(i, d))
         /\ \A j \in Node \ {i} : SF_mpvars(MServeId(j, i, d))

MutSpec == MInit /\ [][MutNext]_mvars /\ MutFairness
=============================================================================
