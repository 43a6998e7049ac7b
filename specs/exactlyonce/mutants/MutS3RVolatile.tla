---------------------------- MODULE MutS3RVolatile ----------------------------
(* Mutant: the client keeps R in volatile memory, so a crash empties it     *)
(* (L125: "The client keeps in stable storage an explicit id list R").     *)
(* A note whose Deliver timed out is sent again and, no longer in R,       *)
(* processed twice.  Expected: NoDuplicateDelivery.                        *)
EXTENDS MCExactlyOnceS3

VolatileCrash == ClientCrashBase /\ R' = {} /\ UNCHANGED <<K, D, known, sess>>

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ SyncNext(s) \/ AuthorizeNext(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ PurgeNext
    \/ Disconnect \/ VolatileCrash \/ \E m \in net : LoseMsg(m)

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
