--------------------------- MODULE MutS1CounterLost ---------------------------
(* Mutant: the server's sequence counter is volatile and a crash resets it  *)
(* (Z13 keeps it durable), so the next note gets an id already issued: a    *)
(* new A.1 that the client, with R[A] >= 1, will discard forever.           *)
(* Expected: IdsNeverReissued (L75, "globally unique id").                  *)
EXTENDS MCExactlyOnceS1

CounterLostCrash(s) ==
    /\ ServerCrashBase(s)
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ ctr' = [ctr EXCEPT ![s] = 0]
    /\ UNCHANGED <<K, R>>

MutNext ==
    \/ CreateNext
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ CounterLostCrash(s)
         \/ \E t \in Servers : Sync(s, t)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
