------------------------ MODULE MutS5RebootForgetsEnd ------------------------
(* Mutant of ClientCrashAway (ExactlyOnceS5), the atomic twin of          *)
(* MutS5MsgRebootForgetsEnd: a client that crashes while not connected     *)
(* comes back without the end of its last connection and, instead of      *)
(* waiting T_r from the reboot (S5Client.rebooted), acts as if it had      *)
(* never connected (lastEnd := Never).  A's sync sent at 0, before n1      *)
(* existed, reaches B; A delivers n1, the client leaves at 0, crashes, and *)
(* connects to B at once: A's stamp 0 is within T_r = 1 of B's clock, B    *)
(* pulls nothing and delivers n1 again.  The unmodified spec passes the    *)
(* same bounds (exactlyonce-control-s5-crash-away).                        *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS CtlS5CrashAway

\* The one change: the reboot forgets the promise.
CrashAwayForgets ==
    /\ conn = None
    /\ now + Tr <= MaxTime
    /\ ClientCrashBase
    /\ lastEnd' = Never
    /\ UNCHANGED <<gatherVars, timedVars>>

\* Next with its ClientCrashAway (the only ClientCrash step while the client
\* is not connected) replaced.
MutNext ==
    \/ Next /\ ~(lastAction'.name = "ClientCrash" /\ conn = None)
    \/ CrashAwayForgets

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
