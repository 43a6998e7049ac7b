----------------------- MODULE MutS5TsAtReceipt -----------------------
(* Mutant (notes M5-b, Z11): TS[t][s] is set to the time t receives a sync *)
(* from s, not the time s sent it (A.7 "TS[s] = m.timestamp"; L476:        *)
(* "m.timestamp will contain the local timestamp when m was sent"; App. B  *)
(* L850 "was sent out at most T_r ago").  A sends a periodic sync at 0     *)
(* whose D lacks n1, then delivers n1; the connection ends at 0; the old   *)
(* sync reaches B at 1 and is stamped 1, within T_r of B's now: when the   *)
(* client, having kept its promise, connects to B at 1, B does not pull    *)
(* from A and delivers n1 again.  Example 5 case (i) trusts a sync "sent   *)
(* within T_r time", not one received within it.  (MutS6TsAtReceipt       *)
(* breaks the same rule in Strategy 6.)  Expected: NoDuplicateDelivery.   *)
EXTENDS MCExactlyOnceS5

\* The one change (ExactlyOnceTimed's RecvSyncT: Max(@, m.ts)).
MutRecvSync(t, m) ==
    /\ m \in snet
    /\ m.type = "sync"
    /\ m.to = t
    /\ snet' = ConsumeS(m)
    /\ D' = [D EXCEPT ![t] = @ \cup (m.d \cap K[t])]
    /\ TS' = [TS EXCEPT ![t][m.from] = Max(@, now)]
    /\ lastAction' = [name |-> "RecvSync", server |-> t, peer |-> m.from, d |-> m.d, ts |-> m.ts]
    /\ UNCHANGED <<baseVars, K, sess, connId, now, lastEnd>>

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ Tick
    \/ \E s \in Servers :
         \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ RecvDNext(s) \/ PeriodicSync(s)
         \/ \E m \in snet : MutRecvSync(s, m)
         \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
    \/ FaultNext

MutSpec == Init /\ [][MutNext]_vars

\* The search narrowed to the one fault the scenario needs, the client's
\* disconnect (an ACTION_CONSTRAINT): a violation in the narrowed model is a
\* behaviour of the full one, found in a fraction of its states.
OnlyDisconnect == faults' > faults => lastAction'.name = "Disconnect"

\* Narrowed further for issue 18's budget (an ACTION_CONSTRAINT beside the
\* fault's): the client's first connection is to A, its second to B, and
\* there is no third, which is the scenario above; the servers' symmetric
\* half and any later connection are left out.
ConnectAThenB ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"
=============================================================================
