------------------------- MODULE MutLatestNotStored -------------------------
(* Mutant: WriteLatest raises latest without writing the value to stable  *)
(* storage first (Fig. 2-2: "G writes G.time + beta to stable storage and *)
(* then sets G.latest to this value").  Messages up to the new latest are *)
(* accepted while a crash would recover upper from the older stored one.  *)
(* Expected: LatestBelowStable is violated (and, later in the same run    *)
(* without it, NoDuplicateAccepted).                                       *)
EXTENDS MCScmp

WriteLatestVolatileOnly ==
    /\ up
    /\ Mode = "resilient"
    /\ clock + Beta > latest
    /\ latest' = clock + Beta
    /\ lastAction' = [name |-> "WriteLatest"]
    /\ UNCHANGED <<envVars, ct, upper, stableLatest, up, refuseUntil, recovering, histVars>>

MutNext ==
    \/ EnvNext
    \/ ReceiveNext
    \/ GcNext
    \/ WriteLatestVolatileOnly
    \/ Crash
    \/ Recover
    \/ FinishRecovery

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
