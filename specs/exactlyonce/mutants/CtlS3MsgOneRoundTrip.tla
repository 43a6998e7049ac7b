---------------------- MODULE CtlS3MsgOneRoundTrip ----------------------
(* Control for the refinement check (MCExactlyOnceS3MsgImmediate): a sync  *)
(* as one round trip, S3Server's own round (s's request, t's reply), not   *)
(* the two the atomic Sync abstracts.  K and D end as the atomic Sync's,   *)
(* but t has recorded the D s sent before the merge, where Sync(s, t) has  *)
(* both record the merged D (ExactlyOnceS3 L"known' = ... Dn").  So the    *)
(* refinement fails, which shows the property can.  Expected:              *)
(* RefinesAtomicS3.                                                         *)
EXTENDS MCExactlyOnceS3Msg

OneRoundTrip(s, t) ==
    LET vt1 == Merge(View(t), SyncMsg("syncReq", s, t, K[s], D[s], seen[s]))
        vs1 == Merge(View(s), SyncMsg("syncReply", t, s, vt1.k, vt1.d, seen[t]))
    IN /\ s # t
       /\ SetViews((s :> vs1) @@ (t :> vt1))
       /\ \/ vs1 # View(s) \/ vt1 # View(t)
       /\ lastAction' = [name |-> "Sync", server |-> s, peer |-> t]
       /\ UNCHANGED <<baseVars, sess, R, snet, seen>>

OneRoundTripNext(s) == \E t \in Servers : OneRoundTrip(s, t)

CtlSpec == MsgInit /\ [][MsgNextWith(AuthorizeNext, OneRoundTripNext)]_allVars
=============================================================================
