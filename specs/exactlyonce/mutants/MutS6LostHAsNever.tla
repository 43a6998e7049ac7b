---------------------- MODULE MutS6LostHAsNever ----------------------
(* Mutant (notes M6-d, Z17): a lost history is read as "never connected"   *)
(* (every entry Never) instead of Unknown.  A delivers n1, the connection  *)
(* ends (H(A) = its end), the device loses H (or is replaced), and on the  *)
(* next connection B sees a client that has been nowhere: no pull, and B   *)
(* delivers n1 again.  L254: "In the event that the client loses its       *)
(* information, the servers can always perform a full synchronization"    *)
(* -- only if the loss is visible; ExactlyOnceS6 makes it Unknown, which   *)
(* forces the full pull of Strategy 4.  Expected: NoDuplicateDelivery.     *)
EXTENDS MCExactlyOnceS6

NeverAnywhere == [t \in Servers |-> Never]

\* The one change (ExactlyOnceS6: H' = [t \in Servers |-> Unknown]).
MutClientLoseH ==
    /\ H # NeverAnywhere
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ H' = NeverAnywhere
    /\ lastAction' = [name |-> "ClientLoseH"]
    /\ UNCHANGED <<net, conn, created, delivered, gatherVars, timedVars>>

MutFaultNext ==
    \/ Disconnect \/ ClientCrash \/ MutClientLoseH \/ \E m \in snet : LoseMsg(m)
    \/ \E s \in Servers : ServerCrash(s) \/ \E i \in K[s] : ADeliverErr(s, i)

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ Tick
    \/ \E s \in Servers :
         \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ RecvDNext(s) \/ PushSync(s)
         \/ \E m \in snet : RecvSync(s, m)
         \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
    \/ MutFaultNext

MutSpec == Init /\ [][MutNext]_vars
\* The search narrowed for issue 18's budget (ACTION_CONSTRAINTs) to the
\* counterexample's faults and connection order; a violation found narrowed
\* is a behaviour of the unnarrowed spec.
DisconnectOrLoseH == faults' > faults => lastAction'.name \in {"Disconnect", "ClientLoseH"}

ConnectAThenB ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"
=============================================================================
