---------------------------- MODULE ExactlyOnceS5 ----------------------------
(***************************************************************************)
(* Strategy 5, Delay Reconnect (sec. 3.3.2, L217-240; App. A.7,            *)
(* L707-738): "Client does not reconnect within time T_r."                 *)
(*                                                                         *)
(* The client promises "to refrain from connecting to any server until     *)
(* time T_r has passed since its last connection to any server" (L221),    *)
(* measured "from the end of last connection ... to the initiation of the  *)
(* next connection" (footnote 3, L225): the environment keeps the promise  *)
(* (lastEnd, the end of the last connection; a crash ends it too).  Each   *)
(* server syncs periodically (PeriodicSync, every T_u; at any time here,   *)
(* Z22), carrying its D and send time (L229).  At a connection, the server *)
(* pulls D from every t whose latest sync is not within T_r (L223):        *)
(* TS[s][t] <= now - T_r (corrected, Z10; Boundary = "faithful" is A.7's   *)
(* `<`), or that never synced; on s's clock, with the window narrowed by  *)
(* the skew allowance and T_e as the cores narrow it (below, notes M5-d).  *)
(*                                                                         *)
(* Model bound: a connection may end only while now + T_r <= MaxTime, so   *)
(* the client can always keep its promise and reconnect within the bound   *)
(* (the liveness models need it).                                          *)
(***************************************************************************)
EXTENDS ExactlyOnceTimed

CONSTANT
    Tr   \* T_r, the reconnect delay (L221)

ASSUME TrIsNat == Tr \in Nat

\* The freshness window (GatherConfig.window(), rule R3): T_r less the
\* skew allowance and T_e (ExactlyOnceTimed).  T_r is the client's promise,
\* measured on its own clock (footnote 3), but s compares TS[s][t], t's
\* clock, with its own: if s's clock runs behind t's, a sync t sent before
\* the client's last delivery can look younger than T_r, which the
\* allowance (>= MaxSkew) covers (notes M5-d; MutS5ClockSkew drops it).
Window == Tr - SkewAllowance - Te
ASSUME WindowNotNegative == Window >= 0

VARIABLE
    lastEnd   \* environment: when the client's last connection ended (Never if none)

vars == <<baseVars, gatherVars, timedVars, lastEnd, lastAction>>

ActionNames == {"Init", "CreateNote", "Connect", "Disconnect", "StartSession", "ReqD", "ReplyD",
                "RecvD", "GatherFail", "EndGather", "ADeliverOK", "ADeliverErr", "PurgeSync",
                "ClientCrash", "ServerCrash", "Lose", "Tick", "PeriodicSync", "RecvSync"}

TypeOK == TimedTypeOK /\ lastEnd \in Stamp

Init == TimedInit /\ lastEnd = Never

\* L223 with Z10: the servers s must pull from before it may deliver, on
\* s's own clock widened by the skew allowance.
Stale5(s) ==
    {t \in Servers \ {s} : TS[s][t] = Never \/ NotFresh(TS[s][t], Clock(s) - Window)}

CreateNote == CreateNoteG /\ UNCHANGED <<timedVars, lastEnd>>

\* L221, footnote 3: T_r has passed since the end of the last connection.
Connect(s) ==
    /\ lastEnd = Never \/ now >= lastEnd + Tr
    /\ ConnectG(s)
    /\ UNCHANGED <<timedVars, lastEnd>>

\* The connection ends at `now` (footnote 3 counts from here).
EndConnection ==
    /\ conn # None
    /\ now + Tr <= MaxTime
    /\ lastEnd' = now
    /\ EndConnSession
    /\ UNCHANGED timedVars

Disconnect == DisconnectBase /\ EndConnection
ClientCrash == ClientCrashBase /\ EndConnection

\* A client crash while it is not connected (footnote 3; L221 "a timer that
\* starts ticking at the end of a connection"): the timer is volatile, so
\* the rebooted client does not know when its last connection ended and
\* waits T_r from the reboot (S5Client.rebooted; notes 2.6): lastEnd := now,
\* no earlier than the end it forgot.  ExactlyOnceS5Msg had it first (the
\* trace validation of GatherWorld found the core does it); a client that
\* forgot the end and did not wait breaks the promise (MutS5RebootForgetsEnd,
\* MutS5MsgRebootForgetsEnd).  The bound `now + Tr <= MaxTime` is
\* EndConnection's: the client can keep its promise within MaxTime.
ClientCrashAway ==
    /\ conn = None
    /\ now + Tr <= MaxTime
    /\ ClientCrashBase
    /\ lastEnd' = now
    /\ UNCHANGED <<gatherVars, timedVars>>

\* A.7: "foreach s in S, in parallel { if (TS[s] < GetCurrentTime() - Tr)".
StartSession(s) ==
    /\ StartSessionG(s, Stale5(s))
    /\ lastAction' = [name |-> "StartSession", server |-> s, sid |-> connId,
                      stale |-> Stale5(s), now |-> now]
    /\ UNCHANGED <<timedVars, lastEnd>>

ReqD(s, t) == ReqDG(s, t) /\ UNCHANGED <<timedVars, lastEnd>>
ReplyD(t, m) == ReplyDT(t, m) /\ UNCHANGED lastEnd
RecvD(s, m) == RecvDT(s, m) /\ UNCHANGED lastEnd
GatherFail(s) == GatherFailG(s) /\ UNCHANGED <<timedVars, lastEnd>>
\* A.7 has no purge in HandleClient.
EndGather(s) == EndGatherG(s, {}) /\ UNCHANGED <<timedVars, lastEnd>>
ADeliverOK(s, i) == ADeliverOKG(s, i) /\ UNCHANGED <<timedVars, lastEnd>>
ADeliverErr(s, i) == ADeliverErrG(s, i) /\ UNCHANGED <<timedVars, lastEnd>>
PurgeSync(s, t) == PurgeSyncG(s, t) /\ UNCHANGED <<timedVars, lastEnd>>
ServerCrash(s) == ServerCrashG(s) /\ UNCHANGED <<timedVars, lastEnd>>
LoseMsg(m) == LoseS(m) /\ UNCHANGED <<timedVars, lastEnd>>
Tick == TickT /\ UNCHANGED lastEnd
\* L229: "The servers periodically send these synchronization messages".
PeriodicSync(s) == SendSyncT(s, "PeriodicSync") /\ UNCHANGED lastEnd
RecvSync(t, m) == RecvSyncT(t, m) /\ UNCHANGED lastEnd

-----------------------------------------------------------------------------
ConnectNext == \E s \in Servers : Connect(s)
ReplyDNext(t) == \E m \in snet : ReplyD(t, m)
RecvDNext(s) == \E m \in snet : RecvD(s, m)
ADeliverNext(s) == \E i \in K[s] : ADeliverOK(s, i)
FaultNext ==
    \/ Disconnect \/ ClientCrash \/ ClientCrashAway \/ \E m \in snet : LoseMsg(m)
    \/ \E s \in Servers : ServerCrash(s) \/ \E i \in K[s] : ADeliverErr(s, i)

Next ==
    \/ CreateNote
    \/ ConnectNext
    \/ Tick
    \/ \E s \in Servers :
         \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ RecvDNext(s) \/ PeriodicSync(s)
         \/ \E m \in snet : RecvSync(s, m)
         \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
    \/ FaultNext

Spec == Init /\ [][Next]_vars

\* As Strategy 4's, plus time passing (the client waits T_r).
Fairness ==
    /\ WF_vars(ConnectNext) /\ WF_vars(Tick)
    /\ \A s \in Servers :
         /\ WF_vars(StartSession(s)) /\ WF_vars(GatherFail(s)) /\ WF_vars(EndGather(s))
         /\ WF_vars(ADeliverNext(s)) /\ WF_vars(ReplyDNext(s)) /\ WF_vars(RecvDNext(s))
         /\ \A t \in Servers : WF_vars(ReqD(s, t))

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
EventualDelivery == \A i \in NoteUniverse : (i \in created) ~> Processed(i)

\* L221: connections are T_r apart (the environment keeps the promise).
ReconnectDelayKept ==
    [][lastAction'.name = "Connect" /\ lastEnd # Never => now >= lastEnd + Tr]_vars
=============================================================================
