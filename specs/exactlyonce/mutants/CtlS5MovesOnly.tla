--------------------------- MODULE CtlS5MovesOnly ---------------------------
(* The model bound of the three-server Strategy 5 mutant MutS5PreviousOnly *)
(* (notes M5-e), as an ACTION_CONSTRAINT both its model and its control   *)
(* (the unmodified spec, CtlS5MovesOnly.cfg) use: the faults are the       *)
(* client's moves, the client leaves only while no server-to-server        *)
(* message is on its way (so no reply outlives its session), and no server *)
(* sends a periodic sync or purges.  With T_r = 0 every sync is stale, so  *)
(* a periodic sync would only merge D early, which a gather does anyway.   *)
(* Without the bound the mutant's counterexample lies beyond 845,555       *)
(* states (5 min 22 s wall at load ~20, 84 s CPU), and the control with    *)
(* syncs and purges left out but orphan replies allowed passed 224,000     *)
(* states at depth 18 still growing: far over the budget.                  *)
EXTENDS MCExactlyOnceS5

MovesOnly ==
    /\ faults' > faults => lastAction'.name \in {"Disconnect", "ClientCrash"}
    /\ lastAction'.name \notin {"PeriodicSync", "PurgeSync"}
    /\ lastAction'.name \in {"Disconnect", "ClientCrash"} => snet = {}

=============================================================================
