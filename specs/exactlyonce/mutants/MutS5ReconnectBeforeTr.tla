-------------------- MODULE MutS5ReconnectBeforeTr --------------------
(* Mutant, Example 5's counterfactual (L221, L231-236): the client does    *)
(* not keep its promise and reconnects before T_r has passed since its    *)
(* last connection ended.  A's periodic sync (D_A without n1) reaches B;   *)
(* A delivers n1 in the same tick; the client leaves A and at once         *)
(* connects to B, whose sync from A is within T_r and so is trusted: no    *)
(* pull, and B delivers n1 again.  Example 5 case (i) needs "the           *)
(* synchronization was sent within T_r" to imply it was "generated at      *)
(* server A when D_A contained m1", which only the T_r gap between         *)
(* connections makes true.  Expected: NoDuplicateDelivery.                *)
EXTENDS MCExactlyOnceS5

\* The one change (ExactlyOnceS5's Connect also requires
\* lastEnd = Never \/ now >= lastEnd + Tr).
MutConnect(s) == ConnectG(s) /\ UNCHANGED <<timedVars, lastEnd>>

MutNext ==
    \/ CreateNote
    \/ \E s \in Servers : MutConnect(s)
    \/ Tick
    \/ \E s \in Servers :
         \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ RecvDNext(s) \/ PeriodicSync(s)
         \/ \E m \in snet : RecvSync(s, m)
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
