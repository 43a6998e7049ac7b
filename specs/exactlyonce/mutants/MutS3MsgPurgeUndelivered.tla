---------------------- MODULE MutS3MsgPurgeUndelivered ----------------------
(* Mutant, expected benign under atomic replication (a negative control):  *)
(* the merge drops a note missing from the message's K even when it is not *)
(* in our D (the guard "only if i is in D" of S3Server.merge removed; App.  *)
(* A.4 L545 applies "P = K - Ks" to every note).  With the watermark and    *)
(* atomic replication a numbered note missing from a sender's K was purged  *)
(* there, which needs it in every server's D first (PurgeSafe), so the      *)
(* guard never binds; it is there for asynchronous replication (notes Z1,   *)
(* M3-f), where a note missing from a K may only be late.  Expected: pass. *)
EXTENDS MCExactlyOnceS3Msg

\* The one change: K[s] in place of D[s].
AnyMissing(v, m) == {i \in v.k : i \notin m.k /\ v.ent[i] <= m.seen}

MutMerge(v, m) == MergeWith(v, m, AnyMissing(v, m), MergedD(v, m, AnyMissing(v, m)), m.d)

MutSync(s) == MsgSyncWith(s, MutMerge)

MutSpec == MsgInit /\ [][MsgNextWith(AuthorizeNext, MutSync)]_allVars
=============================================================================
