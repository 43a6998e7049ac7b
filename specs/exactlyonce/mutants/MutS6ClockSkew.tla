------------------------ MODULE MutS6ClockSkew ------------------------
(* Mutant (notes M6-e, Z18; L219 "a bounded maximum clock drift, which, if *)
(* not zero, can be added to the appropriate parameters"): H is written    *)
(* with the client's clock, which runs Skew ticks behind the servers', and *)
(* the check TS[s][t] <= H(t) does not add the skew.  A pushes a sync (D_A *)
(* without n1) at time 1, then delivers n1 in the same tick; the client    *)
(* disconnects at 1 and writes H(A) = 0.  At B, A's sync (sent at 1) looks *)
(* fresher than the connection's end (0): no pull, and B delivers n1       *)
(* again.  With the skew added (pull iff TS <= H + Skew) the comparison is *)
(* ExactlyOnceS6's, on true time.  Expected: NoDuplicateDelivery.          *)
EXTENDS MCExactlyOnceS6

Skew == 1   \* the client's clock lags the servers' by this much

\* The one change (ExactlyOnceS6: H' = [H EXCEPT ![conn] = now]).
MutDisconnect ==
    /\ DisconnectBase
    /\ EndConnSession
    /\ H' = [H EXCEPT ![conn] = Max(now - Skew, 0)]
    /\ UNCHANGED timedVars

MutFaultNext ==
    \/ MutDisconnect \/ ClientCrash \/ ClientLoseH \/ \E m \in snet : LoseMsg(m)
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
