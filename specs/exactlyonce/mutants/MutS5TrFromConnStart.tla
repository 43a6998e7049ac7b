--------------------- MODULE MutS5TrFromConnStart ---------------------
(* Mutant (footnote 3, L225; notes M5-f): T_r is measured from the start   *)
(* of the last connection, not "from the end of last connection (when the *)
(* client sent out the last message) to the initiation of the next".  A    *)
(* connection to A that lasts T_r lets the client connect to B the moment  *)
(* it ends: A's periodic sync, sent in the last tick of the connection     *)
(* before A delivered n1, is within T_r at B, so B does not pull and       *)
(* delivers n1 again.  Expected: NoDuplicateDelivery.                      *)
EXTENDS MCExactlyOnceS5

\* The one change: lastEnd is stamped when a connection starts
\* (ExactlyOnceS5: when it ends, EndConnection's lastEnd' = now).
MutConnect(s) ==
    /\ lastEnd = Never \/ now >= lastEnd + Tr
    /\ ConnectG(s)
    /\ lastEnd' = now
    /\ UNCHANGED timedVars

MutEndConnection ==
    /\ conn # None
    /\ now + Tr <= MaxTime
    /\ EndConnSession
    /\ UNCHANGED <<timedVars, lastEnd>>

MutFaultNext ==
    \/ DisconnectBase /\ MutEndConnection
    \/ ClientCrashBase /\ MutEndConnection
    \/ \E m \in snet : LoseMsg(m)
    \/ \E s \in Servers : ServerCrash(s) \/ \E i \in K[s] : ADeliverErr(s, i)

MutNext ==
    \/ CreateNote
    \/ \E s \in Servers : MutConnect(s)
    \/ Tick
    \/ \E s \in Servers :
         \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ RecvDNext(s) \/ PeriodicSync(s)
         \/ \E m \in snet : RecvSync(s, m)
         \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
    \/ MutFaultNext

MutSpec == Init /\ [][MutNext]_vars

\* Model bound (cfg CONSTRAINT): states after time 1 are not explored.
\* MaxTime = 2 only lets a connection end at 1 (EndConnection wants
\* now + T_r <= MaxTime); without the cut, 562,957 states and 150 s loaded.
TimeCut == now <= 1

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
