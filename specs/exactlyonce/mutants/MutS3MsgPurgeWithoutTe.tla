----------------------- MODULE MutS3MsgPurgeWithoutTe -----------------------
(* Mutant: with syncs as messages, the purge is authorized once the note is *)
(* in every D as reported, without waiting until no copy of it can linger  *)
(* (L131; the T_e wait, notes Z4, which A.4 omits).  A duplicated copy of   *)
(* the note reaches the client after the purge.  Expected:                 *)
(* NoDuplicateDelivery.                                                     *)
EXTENDS MCExactlyOnceS3Msg

\* The one change: no NoCopy(i).
NoWaitAuthorizeNext(s) == \E i \in K[s] : InEveryD(s, i) /\ AuthorizeWith(s, i)

MutSpec == MsgInit /\ [][MsgNextWith(NoWaitAuthorizeNext, MsgSyncNext)]_allVars
=============================================================================
