---------------------------- MODULE MutS3DVolatile ----------------------------
(* Control for KnownSound (what a sync reply said stays true): a server    *)
(* crash loses D, i.e. D is not durable (notes Z13 keep K and D on stable *)
(* storage; A.4 leaves it unsaid).  B reported n1 in its D to A in a sync, *)
(* then crashes and forgets it while n1 is still in its K: A's knowledge  *)
(* is false, and A may authorize a purge that B's D no longer backs.       *)
(* Expected: KnownSound.                                                   *)
EXTENDS MCExactlyOnceS3

\* The one change (ExactlyOnceS3's ServerCrash leaves D unchanged).
MutServerCrash(s) ==
    /\ sess[s] # Idle \/ known[s] # NoneKnown \/ D[s] # {}
    /\ ServerCrashBase(s)
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ known' = [known EXCEPT ![s] = NoneKnown]
    /\ D' = [D EXCEPT ![s] = {}]
    /\ UNCHANGED <<K, R>>

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ MutServerCrash(s)
         \/ SyncNext(s) \/ AuthorizeNext(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ PurgeNext
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
