------------------------ MODULE MutFinishTooCautious ------------------------
(* Mutant: the monotonic-clock server finishes its restart with upper set *)
(* to G.time + epsilon instead of G.time (2.2: "then sets G.upper to      *)
(* G.time").  That is safe, but refuses fresh messages stamped above the  *)
(* clock at which recovery finished, which PromiseAfterCrash promises to  *)
(* accept.                                                                 *)
(* Expected: PromiseAfterCrash is violated.                                *)
EXTENDS MCScmp

FinishRecoveryTooCautious ==
    /\ up
    /\ recovering
    /\ clock >= refuseUntil
    /\ upper' = [k \in Classes |-> clock + Epsilon]
    /\ recoveredUpper' = clock
    /\ recovering' = FALSE
    /\ lastAction' = [name |-> "FinishRecovery"]
    /\ UNCHANGED <<envVars, ct, latest, stableLatest, up, refuseUntil, accepted,
                   sends, crashClocks, jumps>>

MutNext ==
    \/ EnvNext
    \/ ReceiveNext
    \/ GcNext
    \/ WriteLatest
    \/ Crash
    \/ Recover
    \/ FinishRecoveryTooCautious

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
