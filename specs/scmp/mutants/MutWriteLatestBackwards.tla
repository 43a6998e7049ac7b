----------------------- MODULE MutWriteLatestBackwards ----------------------
(* Mutant: WriteLatest writes G.time + beta even when that is below the   *)
(* value on stable storage (2.3: "The server merely ensures that the      *)
(* value of G.latest on stable storage is monotonic").  After the server  *)
(* clock jumps back, a write lowers the stored latest below a timestamp   *)
(* already accepted; a crash sets upper from it and a copy is accepted    *)
(* again.                                                                  *)
(* Expected: NoDuplicateAccepted is violated (needs AllowClockJump).      *)
EXTENDS MCScmp

WriteLatestAnyway ==
    /\ up
    /\ Mode = "resilient"
    /\ clock + Beta # stableLatest
    /\ stableLatest' = clock + Beta
    /\ latest' = clock + Beta
    /\ lastAction' = [name |-> "WriteLatest"]
    /\ UNCHANGED <<envVars, ct, upper, up, refuseUntil, recovering, histVars>>

MutNext ==
    \/ EnvNext
    \/ ReceiveNext
    \/ GcNext
    \/ WriteLatestAnyway
    \/ Crash
    \/ Recover
    \/ FinishRecovery

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
