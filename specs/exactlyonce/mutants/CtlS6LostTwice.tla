---------------------------- MODULE CtlS6LostTwice ----------------------------
(* A history lost again (L254; ClientLoseH without `~HistoryLost`, the     *)
(* atomic spec's catch-up with ExactlyOnceS6Msg) at ci size: the faults    *)
(* are the client's moves and its losses of H, the client connects to A,   *)
(* then to B.  CtlS6LostTwice.cfg checks the safety invariants with three  *)
(* such faults (a loss, the move from A, a second loss that wipes H(A));   *)
(* CtlS6LostTwiceReached.cfg shows the bounds reach that second loss      *)
(* after a visit: TLC refutes NeverWipesAVisit, a loss while H is lost     *)
(* that wipes an entry written since (S6Client.loseHistory; the case the  *)
(* trace validation of GatherWorld found, seed 3).                        *)
EXTENDS MCExactlyOnceS6

MovesAndLosses == faults' > faults => lastAction'.name \in {"Disconnect", "ClientLoseH"}
ConnectAThenB ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"

\* A trap, as an action property: no loss while H is lost wipes an entry
\* written since the earlier loss (Open or a time).
NeverWipesAVisit ==
    [][lastAction'.name = "ClientLoseH" /\ HistoryLost => \A t \in Servers : H[t] = Unknown]_vars
=============================================================================
