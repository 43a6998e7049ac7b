-------------------------- MODULE MutFlushNoRestart --------------------------
(* Mutant: no restart: a suspicion is taken only when no flush runs (as in *)
(* CausalMembership).  n1 is suspected, n2 coordinates its removal and     *)
(* crashes before it decides; nobody may suspect n2 while the flush runs,  *)
(* the flush waits for its decision for ever.  Expected: FlushCompletes.   *)
EXTENDS MCCausalMembershipRestart

SuspectOnlyWhenIdle(i, x) == flushing = {} /\ Suspect(i, x)

MutNext ==
    \/ PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ MGcNext
    \/ \E i, x \in Node : SuspectOnlyWhenIdle(i, x)
    \/ \E i \in Node : FlushReport(i) \/ InstallView(i)
    \/ DecideView
    \/ \E i, j \in Node : FlushForward(j, i)

(* MFairness with the mutant suspicion; the bounds have no events, so the *)
(* per-id conditions are over an empty set.                                *)
MutFairness ==
    /\ \A i \in Node :
         /\ WF_mpvars(\E m \in buf[i] : MDeliver(i, m))
         /\ WF_mpvars(\E r \in missing[i] : ExpireWait(i, r) /\ UNCHANGED memVars)
         /\ SF_mpvars(\E e \in net : e.to = i /\ MReceive(i, e))
         /\ WF_mpvars(SendHeartbeat(i) /\ UNCHANGED memVars)
         /\ SF_mpvars(\E e \in net : MReceiveHeartbeat(i, e))
         /\ WF_mpvars(MCollectGarbage(i))
    /\ WF_mpvars(\E i, x \in Node : ~up[x] /\ SuspectOnlyWhenIdle(i, x))
    /\ WF_mpvars(\E i \in Node : FlushReport(i) \/ InstallView(i))
    /\ WF_mpvars(DecideView)
    /\ SF_mpvars(\E i, j \in Node : FlushForward(j, i))
    /\ \A i \in Node, d \in AllIds :
         /\ WF_mpvars(MRtoId(i, d))
         /\ \A j \in Node \ {i} : SF_mpvars(MServeId(j, i, d))

MutSpec == MInit /\ [][MutNext]_mvars /\ MutFairness
=============================================================================
