-------------------------- MODULE MutS3AuthorizeOwnD --------------------------
(* Mutant, the counterfactual of Example 3 (L148-167): a server authorizes  *)
(* the purge of a note as soon as its own D has it, before every server D   *)
(* does.  The client forgets m1; B, which has not heard of the delivery,    *)
(* sends m1 and the client processes it again.  Expected:                   *)
(* NoDuplicateDelivery.                                                     *)
EXTENDS MCExactlyOnceS3

\* L165: "a server can only authorize the purging after m has been put in D
\* of *all* servers" -- dropped: only s's own D is asked.
OwnDAuthorizeNext(s) == \E i \in K[s] : i \in D[s] /\ NoCopy(i) /\ AuthorizeWith(s, i)

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ SyncNext(s) \/ OwnDAuthorizeNext(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ PurgeNext
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
