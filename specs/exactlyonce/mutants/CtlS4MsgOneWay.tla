------------------------- MODULE CtlS4MsgOneWay -------------------------
(* Control for the refinement check (MCExactlyOnceS4MsgImmediate): a purge  *)
(* sync as one DSync, s's to t, without t's to s.  t ends as the atomic     *)
(* PurgeSync(s, t) leaves it, s does not, and no atomic step changes one    *)
(* side alone, so the refinement fails, which shows the property can.      *)
(* Expected: RefinesAtomicS4.                                               *)
EXTENDS MCExactlyOnceS4Msg

OneWay(s, t) ==
    LET vt == RecvPurgeSyncView(View(t), t, DSync(s, t, K[s], D[s], seen[s]), Purged)
    IN /\ s # t
       /\ Link(s, t)
       /\ SetViews(t :> vt)
       /\ \/ vt.k # K[t] \/ vt.d # D[t]
       /\ lastAction' = [name |-> "PurgeSync", server |-> s, peer |-> t, purged |-> K[t] \ vt.k]
       /\ UNCHANGED <<baseVars, sess, snet, connId, pnet, seen>>

CtlSpec == MsgInit /\ [][MsgNextWith(LAMBDA s : \E t \in Servers : OneWay(s, t))]_allVars
=============================================================================
