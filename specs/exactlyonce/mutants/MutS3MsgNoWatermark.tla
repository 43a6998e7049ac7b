------------------------ MODULE MutS3MsgNoWatermark ------------------------
(* Mutant, the stale-sync bug (issue 20 item 1; S3Server's watermark seam): *)
(* the merge reads every note missing from a message's K as purged by its   *)
(* sender, whatever the message's watermark (App. A.4 L545 "P = K - Ks" as *)
(* printed).  A request A built before n2 existed reaches B after B         *)
(* delivered n2; B drops n2 from K and D while the client still holds n2 in *)
(* R, and no server can ever authorize its purge: the slot is lost (L169). *)
(* Expected: ForgetAfterClient.                                             *)
EXTENDS MCExactlyOnceS3Msg

\* The one change: no "entered[s][i] <= m.seen".
NoWatermark(v, m) == {i \in v.d : i \notin m.k}

MutMerge(v, m) == MergeWith(v, m, NoWatermark(v, m), MergedD(v, m, NoWatermark(v, m)), m.d)

MutSync(s) == MsgSyncWith(s, MutMerge)

MutSpec == MsgInit /\ [][MsgNextWith(AuthorizeNext, MutSync)]_allVars
=============================================================================
