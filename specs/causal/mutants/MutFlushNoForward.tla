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
(* Less the conditions that are never enabled here, so that each holds     *)
(* vacuously (a WF or SF condition whose action is never enabled is true   *)
(* of every behaviour) and dropping them leaves the same fair behaviours:  *)
(* the heartbeat ones (the paper's recovery sends none), collection's      *)
(* (Collecting is FALSE), and the receive-side ones of n1, to which no     *)
(* other node broadcasts (it never buffers, misses, receives or asks for   *)
(* anything).  TLC checks the premise in the same run (invariant           *)
(* NonListenersIdle: a change that enables one of them fails there, not on *)
(* FlushCompletes).  Each SF condition doubles TLC's possible error        *)
(* models, hence the trimming.                                             *)
Listeners == {i \in Node : \E k \in Node \ {i} : MaxSeq[k] > 0}

MutFairness ==
    /\ \A i \in Listeners :
         /\ WF_mpvars(\E m \in buf[i] : MDeliver(i, m))
         /\ WF_mpvars(\E r \in missing[i] : ExpireWait(i, r) /\ UNCHANGED memVars)
         /\ SF_mpvars(\E e \in net : e.to = i /\ MReceive(i, e))
    /\ WF_mpvars(\E i, x \in Node : ~up[x] /\ Suspect(i, x))
    /\ WF_mpvars(\E i \in Node : FlushReport(i) \/ InstallView(i))
    /\ WF_mpvars(DecideView)
    /\ \A i \in Listeners, d \in AllIds :
         /\ WF_mpvars(MRtoId(i, d))
         /\ \A j \in Node \ {i} : SF_mpvars(MServeId(j, i, d))

NonListenersIdle ==
    /\ \A i \in Node :
        /\ ~ENABLED <<SendHeartbeat(i) /\ UNCHANGED memVars>>_mpvars
        /\ ~ENABLED <<\E e \in net : MReceiveHeartbeat(i, e)>>_mpvars
        /\ ~ENABLED <<MCollectGarbage(i)>>_mpvars
    /\ \A i \in Node \ Listeners :
        /\ ~ENABLED <<\E m \in buf[i] : MDeliver(i, m)>>_mpvars
        /\ ~ENABLED <<\E r \in missing[i] : (ExpireWait(i, r) \/ ExpireRto(i, r)) /\ UNCHANGED memVars>>_mpvars
        /\ ~ENABLED <<\E e \in net : e.to = i /\ MReceive(i, e)>>_mpvars
        /\ ~ENABLED <<\E e \in net : e.type = "req" /\ e.from = i /\ ServeRequest(e.to, e) /\ UNCHANGED memVars>>_mpvars

MutSpec == MInit /\ [][MutNext]_mvars /\ MutFairness
=============================================================================
