---------------------- MODULE MCCausalMembershipWeakFair ----------------------
(***************************************************************************)
(* The passing liveness model of CausalMembership whose network loses      *)
(* nothing (causal-live-membership-gc) under a weaker fairness than        *)
(* MFairness: WF instead of SF everywhere (SF_v(A) implies WF_v(A)), so a  *)
(* pass is a stronger result (MCCausalWeakFair.tla says why WF is enough   *)
(* without loss and why it is cheaper for TLC: 9.8 s of TLC user CPU under *)
(* MFairSpec against 7.0 s, same 560 states, load 30).  Unlike there, the  *)
(* faulty node keeps its conditions: n2 may stay up, suspected falsely, and*)
(* then its heartbeats are what lets n1 collect (without them TLC finds    *)
(* GcContinues violated).  MInit and MNext are CausalMembership's.         *)
(***************************************************************************)
EXTENDS MCCausalMembership

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
=============================================================================
