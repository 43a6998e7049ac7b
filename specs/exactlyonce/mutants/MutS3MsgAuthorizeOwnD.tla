----------------------- MODULE MutS3MsgAuthorizeOwnD -----------------------
(* Mutant, Example 3's counterfactual (L148-167, L165) with syncs as        *)
(* messages: a server authorizes the purge once its own D has the note,    *)
(* without a report from every other server ("P = D[1] intersect ...       *)
(* intersect D[N]" of A.4 L620-626 cut to its own D).  Expected:           *)
(* NoDuplicateDelivery.                                                     *)
EXTENDS MCExactlyOnceS3Msg

\* The one change: InEveryD(s, i) becomes i \in D[s].
OwnDAuthorizeNext(s) == \E i \in K[s] : i \in D[s] /\ NoCopy(i) /\ AuthorizeWith(s, i)

MutSpec == MsgInit /\ [][MsgNextWith(OwnDAuthorizeNext, MsgSyncNext)]_allVars
=============================================================================
