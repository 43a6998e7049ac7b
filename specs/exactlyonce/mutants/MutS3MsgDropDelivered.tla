------------------------ MODULE MutS3MsgDropDelivered ------------------------
(* Mutant: the merge drops every delivered note the message could have      *)
(* known, without asking whether the message's K still holds it (App. A.4   *)
(* L545's "K - Ks" with the difference left out).  A server forgets a note  *)
(* the client still holds in R.  Expected: ForgetAfterClient.              *)
EXTENDS MCExactlyOnceS3Msg

\* The one change: no "i \notin m.k".
Numbered(v, m) == {i \in v.d : v.ent[i] <= m.seen}

MutMerge(v, m) == MergeWith(v, m, Numbered(v, m), MergedD(v, m, Numbered(v, m)), m.d)

MutSync(s) == MsgSyncWith(s, MutMerge)

MutSpec == MsgInit /\ [][MsgNextWith(AuthorizeNext, MutSync)]_allVars
=============================================================================
