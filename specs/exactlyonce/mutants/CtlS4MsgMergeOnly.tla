------------------------- MODULE CtlS4MsgMergeOnly -------------------------
(* Control for exactlyonce-s4msg-live (DeliveredLeaveEveryK): a DSync is   *)
(* received as the runtimes did before issue 19, by GatherServer.recvSync:  *)
(* its D joins ours within our K and its report is remembered, nothing is   *)
(* purged.  Only Strategy 4's EndGather then purges, at the server the      *)
(* client visits; the other keeps the note for ever (the bench's K = 65,600 *)
(* at B).  Expected: DeliveredLeaveEveryK.                                  *)
EXTENDS MCExactlyOnceS4MsgLive

MergeOnlyView(v, m) ==
    [v EXCEPT !.d = @ \cup (m.d \cap v.k),
              !.known = [@ EXCEPT ![m.from] = m.d],
              !.knownK = [@ EXCEPT ![m.from] = m.k],
              !.knownSeen = [@ EXCEPT ![m.from] = m.seen]]

RecvMergeOnly(r, m) ==
    /\ m \in pnet
    /\ m.to = r
    /\ Link(m.from, r)
    /\ SetViews(r :> MergeOnlyView(View(r), m))
    /\ pnet' = ConsumeP(m)
    /\ lastAction' = [name |-> "RecvPurgeSync", server |-> r, peer |-> m.from, k |-> m.k, d |-> m.d,
                      seen |-> m.seen]
    /\ UNCHANGED <<baseVars, sess, snet, connId, seen>>

CtlNext == MsgNextWith(LAMBDA s : \/ \E t \in Servers : SendNext(s, t)
                                  \/ \E m \in pnet : RecvMergeOnly(s, m))

CtlSpec ==
    /\ MsgInit /\ [][CtlNext]_allVars
    /\ \A s \in Servers :
         /\ \A t \in Servers \ {s} : WF_allVars(SendNext(s, t))
         /\ WF_allVars(\E m \in pnet : RecvMergeOnly(s, m))
=============================================================================
