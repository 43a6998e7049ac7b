------------------------ MODULE MutS5ClockSkew ------------------------
(* Mutant (notes M5-d; L219 "a bounded maximum clock drift, which, if not *)
(* zero, can be added to the appropriate parameters"; footnote 3, Z10):   *)
(* the servers' clocks differ by up to MaxSkew, but the freshness test    *)
(* TS[s][t] <= Clock(s) - T_r does not add the skew allowance.  A's clock *)
(* runs one tick ahead of B's.  A sends a periodic sync at true time 0    *)
(* (stamped 1 on its clock, D_A without n1), then delivers n1 in the same *)
(* tick; the connection ends at 0.  At 1 the client, having kept its      *)
(* promise, connects to B, whose clock reads 1: the sync stamped 1 is not *)
(* older than 1 - T_r = 0, so B does not pull from A and delivers n1      *)
(* again.  ExactlyOnceS5 pulls when TS <= Clock(s) - T_r + SkewAllowance  *)
(* and passes these bounds (exactlyonce-control-s5-skew).                *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS5

\* The one change (ExactlyOnceS5's Stale5: ... + SkewAllowance).
MutStale5(s) ==
    {t \in Servers \ {s} : TS[s][t] = Never \/ NotFresh(TS[s][t], Clock(s) - Tr)}

MutStartSession(s) ==
    /\ StartSessionG(s, MutStale5(s))
    /\ lastAction' = [name |-> "StartSession", server |-> s, sid |-> connId,
                      stale |-> MutStale5(s), now |-> now]
    /\ UNCHANGED <<timedVars, lastEnd>>

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ Tick
    \/ \E s \in Servers :
         \/ MutStartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
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
