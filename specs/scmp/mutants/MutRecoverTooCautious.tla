------------------------ MODULE MutRecoverTooCautious -----------------------
(* Mutant: resilient recovery sets upper to the new latest instead of the *)
(* latest stored before the crash (Fig. 2-2, Crash Recovery).  That is    *)
(* safe, but refuses fresh messages sent after t_cr + beta that 2.4       *)
(* promises to accept ("even in the worst case we will accept all         *)
(* messages sent after t_cr + beta").                                      *)
(* Expected: PromiseAfterCrash is violated.                                *)
EXTENDS MCScmp

RecoverTooCautious ==
    /\ ~up
    /\ Mode = "resilient"
    /\ up' = TRUE
    /\ ct' = NoEntries
    /\ lastAction' = [name |-> "Recover"]
    /\ stableLatest' = Max(stableLatest, clock + Beta)
    /\ latest' = Max(stableLatest, clock + Beta)
    /\ upper' = [k \in Classes |-> Max(stableLatest, clock + Beta)]
    /\ recoveredUpper' = Max(stableLatest, clock + Beta)
    /\ UNCHANGED <<envVars, refuseUntil, recovering, accepted, sends,
                   crashClocks, jumps>>

MutNext ==
    \/ EnvNext
    \/ ReceiveNext
    \/ GcNext
    \/ WriteLatest
    \/ Crash
    \/ RecoverTooCautious
    \/ FinishRecovery

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
