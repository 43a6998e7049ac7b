------------------------- MODULE MutMonotonicNoWait -------------------------
(* Mutant: the monotonic-clock server restarts without refusing messages  *)
(* for epsilon (2.2: "When restarting after a crash, the server refuses   *)
(* all messages for a period of epsilon, then sets G.upper to G.time");   *)
(* it sets upper to the clock at once.  A message accepted just before    *)
(* the crash with a timestamp up to epsilon ahead is accepted again.      *)
(* Expected: NoDuplicateAccepted is violated.                              *)
EXTENDS MCScmp

RecoverWithoutWait ==
    /\ ~up
    /\ Mode = "monotonic"
    /\ up' = TRUE
    /\ ct' = NoEntries
    /\ upper' = [k \in Classes |-> clock]
    /\ recoveredUpper' = clock
    /\ refuseUntil' = clock
    /\ lastAction' = [name |-> "Recover"]
    /\ UNCHANGED <<envVars, latest, stableLatest, recovering, accepted, sends,
                   crashClocks, jumps>>

MutNext ==
    \/ EnvNext
    \/ ReceiveNext
    \/ GcNext
    \/ WriteLatest
    \/ Crash
    \/ RecoverWithoutWait
    \/ FinishRecovery

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
