----------------------- MODULE MutS3MsgKnownFromMerge -----------------------
(* Mutant: a server records as the peer's D its own D after merging the     *)
(* peer's message, as the atomic Sync may (both sides hold that D once it   *)
(* is over), instead of the D the peer sent (S3Server.merge:                *)
(* known.put(from, theirD)).  B, having merged A's request, "knows" A has   *)
(* the note B delivered, authorizes its purge (A.4 L620-633), and A, which  *)
(* never heard of the delivery (its reply lost or late), sends the note    *)
(* again after the client forgot it.  Expected: NoDuplicateDelivery.       *)
EXTENDS MCExactlyOnceS3Msg

\* The one change: known[s][from] is the merged D, not m.d.
MutMerge(v, m) ==
    MergeWith(v, m, PurgedThere(v, m), MergedD(v, m, PurgedThere(v, m)), MergedD(v, m, PurgedThere(v, m)))

MutSync(s) == MsgSyncWith(s, MutMerge)

MutSpec == MsgInit /\ [][MsgNextWith(AuthorizeNext, MutSync)]_allVars
=============================================================================
