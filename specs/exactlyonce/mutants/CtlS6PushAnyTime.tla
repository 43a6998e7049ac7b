-------------------------- MODULE CtlS6PushAnyTime --------------------------
(* Strategy 6 with pushes at any time, also while the client is connected  *)
(* to the pusher: L246 sends a sync "only when there is new information",  *)
(* which a delivery in mid-connection is; ExactlyOnceS6 bounds its pushes  *)
(* to the times the client is not connected to s (App. B, L887: one push   *)
(* at the end of a connection) for state space.  This widens the           *)
(* environment only.  CtlS6PushAnyTime.cfg (the unmodified spec, pushes at *)
(* any time) must PASS: the control for MutS6HAtConnStart, whose duplicate *)
(* needs a push between the start of a connection and a delivery in it.    *)
EXTENDS MCExactlyOnceS6

PushAnyTime(s) == SendSyncT(s, "PushSync") /\ UNCHANGED H

\* ExactlyOnceS6's Next with PushAnyTime for PushSync; the rest as it is.
OtherSteps ==
    \/ CreateNote
    \/ Tick
    \/ \E s \in Servers :
         \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ RecvDNext(s) \/ PushAnyTime(s)
         \/ \E m \in snet : RecvSync(s, m)
         \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
    \/ ClientCrash \/ ClientLoseH \/ \E m \in snet : LoseMsg(m)
    \/ \E s \in Servers : ServerCrash(s) \/ \E i \in K[s] : ADeliverErr(s, i)

CtlNext == OtherSteps \/ ConnectNext \/ Disconnect

CtlSpec == Init /\ [][CtlNext]_vars

\* Model bound (an ACTION_CONSTRAINT of the mutant's model and of its
\* control): the fault is the client's move (a disconnect), and no server
\* purges (with one note a purge follows every server's knowing it was
\* delivered, after which no server can deliver it anyway).  Without it the
\* mutant's counterexample lies beyond 134,548 states (81 s wall at load
\* ~20, 18 s CPU).
MoveOnly ==
    /\ faults' > faults => lastAction'.name = "Disconnect"
    /\ lastAction'.name # "PurgeSync"
=============================================================================
