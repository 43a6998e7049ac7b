------------------------- MODULE MutS3MsgDOutsideK -------------------------
(* Mutant: "D = D + Ds" (A.4 L557) takes the message's whole D, not only    *)
(* the notes still in our K ("P = Ks - K: we have purged these; the other  *)
(* server should too", L551, left out).  A note purged here comes back into *)
(* D without K.  Expected: DWithinK (L141-144, D is a subset of K).         *)
EXTENDS MCExactlyOnceS3Msg

\* The one change: no "\cap (K[s] \ gone)".
MutMerge(v, m) == MergeWith(v, m, PurgedThere(v, m), (v.d \ PurgedThere(v, m)) \cup m.d, m.d)

MutSync(s) == MsgSyncWith(s, MutMerge)

MutSpec == MsgInit /\ [][MsgNextWith(AuthorizeNext, MutSync)]_allVars
=============================================================================
