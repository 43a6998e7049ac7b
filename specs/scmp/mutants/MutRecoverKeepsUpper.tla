------------------------ MODULE MutRecoverKeepsUpper ------------------------
(* Mutant: resilient recovery does not initialize upper from latest on    *)
(* stable storage (Fig. 2-2, Crash Recovery, first line); upper keeps the *)
(* stale pre-crash value, which covered only the collected entries.  A    *)
(* copy of a message accepted before the crash is accepted again.         *)
(* Expected: NoDuplicateAccepted is violated.                              *)
EXTENDS MCScmp

RecoverKeepsUpper ==
    /\ ~up
    /\ Mode = "resilient"
    /\ up' = TRUE
    /\ ct' = NoEntries
    /\ lastAction' = [name |-> "Recover"]
    /\ stableLatest' = Max(stableLatest, clock + Beta)
    /\ latest' = Max(stableLatest, clock + Beta)
    /\ UNCHANGED <<envVars, upper, refuseUntil, recovering, histVars>>

MutNext ==
    \/ EnvNext
    \/ ReceiveNext
    \/ GcNext
    \/ WriteLatest
    \/ Crash
    \/ RecoverKeepsUpper
    \/ FinishRecovery

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
