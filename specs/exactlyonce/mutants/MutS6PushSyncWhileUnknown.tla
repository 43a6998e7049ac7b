---------------------- MODULE MutS6PushSyncWhileUnknown ----------------------
(* Mutant (issue 20 item 2; L185, L193, L246; the Lincheck control         *)
(* PushSyncAtOnceLincheckTest): a server pushes its sync while one of its  *)
(* aDeliver outcomes is unknown.  A calls aDeliver(n1) at time 0 and the   *)
(* client processes n1; the client disconnects at 0 and writes H(A) = 0.  *)
(* At 1, before the outcome reaches A, A pushes D_A without n1, stamped 1. *)
(* The client connects to B: A's sync is fresher than H(A) = 0, so B does  *)
(* not pull from A and delivers n1 again.  The one change is the cfg's     *)
(* SyncMayGo <- AtOnce.  Expected: NoDuplicateDelivery.                    *)
EXTENDS MCExactlyOnceS6Outcome
\* The model is narrowed to the fault the scenario needs, a disconnect (and
\* without the deferral steps, which change only lastAction): a violation in
\* the narrowed model is one of the full model, at about half the states.
OnlyDisconnect ==
    lastAction'.name \notin {"ServerCrash", "ClientCrash", "Lose", "GatherFail", "ADeliverErr",
                              "DeferReplyD", "DeferSync", "DeferEndGather"}

\* Narrowed further for issue 18's budget (an ACTION_CONSTRAINT beside the
\* fault's): the client's first connection is to A, its second to B, and
\* there is no third, which is the scenario above; the servers' symmetric
\* half and any later connection are left out.
ConnectAThenB ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"
=============================================================================
