------------------------- MODULE MutS3PurgeWithoutTe -------------------------
(* Mutant: the purge is authorized once the note is in every D, without     *)
(* waiting until no copy can linger in the network (L131: "and only when    *)
(* it is sure that m is not lingering in the network itself"; App. A.4      *)
(* omits it).  A duplicated copy of the note reaches the client after the   *)
(* purge and is processed again.  Expected: NoDuplicateDelivery.            *)
EXTENDS MCExactlyOnceS3

NoWaitAuthorizeNext(s) == \E i \in K[s] : InEveryD(s, i) /\ AuthorizeWith(s, i)

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ SyncNext(s) \/ NoWaitAuthorizeNext(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ PurgeNext
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
