--------------------------- MODULE CtlS5CrashAway ---------------------------
(* The model bound of the Strategy 5 reboot mutant MutS5RebootForgetsEnd, *)
(* as ACTION_CONSTRAINTs both its model and its control (the unmodified   *)
(* spec, CtlS5CrashAway.cfg) use; the atomic twin of MCExactlyOnceS5Msg's *)
(* MovesAndCrashesAway narrowing.  The faults are the client's moves and  *)
(* its crashes while away (ClientCrashAway; a crash while away that       *)
(* forgets an end needs a move before it, so two faults); the client      *)
(* connects to A, then to B; A syncs only while the client is at A (the   *)
(* mutant's stale sync goes out in A's session, before the delivery); time *)
(* passes only while the client is away (it waits for its reconnect).  A  *)
(* pass under them says nothing of the behaviours they cut, which the     *)
(* safety models search.                                                   *)
EXTENDS MCExactlyOnceS5

MovesAndCrashesAway ==
    faults' > faults => \/ lastAction'.name = "Disconnect"
                        \/ lastAction'.name = "ClientCrash" /\ conn = None
ConnectAThenB ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"
SyncsFromAWhileThere == lastAction'.name = "PeriodicSync" => lastAction'.server = "A" /\ conn = "A"
TickWhileAway == lastAction'.name = "Tick" => conn = None
=============================================================================
