---------------------------- MODULE ExactlyOnceS6 ----------------------------
(***************************************************************************)
(* Strategy 6, Connect History (sec. 3.3.2, L242-254; App. A.8,            *)
(* L740-773): "Client remembers complete connection history (when and to   *)
(* which server it has connected before)."                                 *)
(*                                                                         *)
(* The client keeps H, "H(A) is the time when the last connection to      *)
(* server A ended" (L248), and uploads it with its request (A.8            *)
(* "Receive(H); {abort;}": folded into StartSession, whose lastAction      *)
(* carries it; a lost upload is a request that never arrives).  The        *)
(* server "must ensure that it has received synchronization messages from  *)
(* each other server that are fresher than the client's last connect      *)
(* time" (L248): it pulls D from every t with TS[s][t] <= H(t) (corrected, *)
(* Z10; Boundary = "faithful" is A.8's `<`).  Servers sync "only when      *)
(* there is new information" (L246): PushSync, while the client is not    *)
(* connected to s (App. B L887: at the end of a connection).              *)
(*                                                                         *)
(* Readings (README; S456 vocabulary):                                     *)
(* - H[s] is written durably when a connection to s starts (Open) and when *)
(*   it ends (the time): a client that crashes in mid-connection leaves    *)
(*   Open, which means "must pull from s" (Z17; without it a stale H(s)    *)
(*   lets a later server trust an old sync);                               *)
(* - a lost history is detectable (ClientLoseH: every entry Unknown) and   *)
(*   forces a full pull, as in S4 (L254: "the servers can always perform a *)
(*   full synchronization"); a fresh device in the model has H = Never     *)
(*   everywhere (it has connected nowhere).                                *)
(* Values of H[t]: Unknown (-3), Open (-2), Never (-1), or a time.         *)
(***************************************************************************)
EXTENDS ExactlyOnceTimed

VARIABLE
    H   \* client, stable: the connection history (L248)

vars == <<baseVars, gatherVars, timedVars, H, lastAction>>

ActionNames == {"Init", "CreateNote", "Connect", "Disconnect", "StartSession", "ReqD", "ReplyD",
                "RecvD", "GatherFail", "EndGather", "ADeliverOK", "ADeliverErr", "PurgeSync",
                "ClientCrash", "ServerCrash", "Lose", "Tick", "PushSync", "RecvSync",
                "ClientLoseH"}

Unknown == -3
Open == -2

TypeOK == TimedTypeOK /\ H \in [Servers -> {Unknown, Open} \cup Stamp]

Init == TimedInit /\ H = [t \in Servers |-> Never]

\* L248 with Z10 and Z17: the servers s must pull from.
HistoryLost == \E t \in Servers : H[t] = Unknown
\* The margin a sync must clear beyond the connection's end
\* (GatherConfig.historyMargin()): the skew allowance, since H is the
\* client's clock and TS the peer's (Z18, notes M6-e), and T_e (Z10).
HistoryMargin == SkewAllowance + Te
MustPull(s, t) == H[t] = Open \/ (H[t] >= 0 /\ NotFresh(TS[s][t], H[t] + HistoryMargin))
Stale6(s) ==
    IF HistoryLost THEN Servers \ {s}
    ELSE {t \in Servers \ {s} : MustPull(s, t)}

CreateNote == CreateNoteG /\ UNCHANGED <<timedVars, H>>

\* The connection starts: H(s) := Open, durably, before anything is
\* processed (Z17).
Connect(s) ==
    /\ ConnectG(s)
    /\ H' = [H EXCEPT ![s] = Open]
    /\ UNCHANGED timedVars

\* The connection ends: H(s) := the time (L248).
Disconnect ==
    /\ DisconnectBase
    /\ EndConnSession
    /\ H' = [H EXCEPT ![conn] = now]
    /\ UNCHANGED timedVars

\* A crash ends the connection without writing its end: H(s) stays Open.
ClientCrash == ClientCrashBase /\ EndConnSession /\ UNCHANGED <<timedVars, H>>

\* The device loses its history, or is replaced (L254, Z17): detectably,
\* whenever it happens, also again before the client has connected to every
\* server since an earlier loss, which wipes the entries written since
\* (S6Client.loseHistory).  Until ExactlyOnceS6Msg's ClientLoseHM showed it
\* (the trace validation of GatherWorld, seed 3), this step had a
\* `~HistoryLost` guard, a model bound.  Losing entries only makes servers
\* pull more: with any entry Unknown, Stale6 is every other server.
ClientLoseH ==
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ H' = [t \in Servers |-> Unknown]
    /\ lastAction' = [name |-> "ClientLoseH"]
    /\ UNCHANGED <<net, conn, created, delivered, gatherVars, timedVars>>

\* A.8: "Receive(H); foreach s in S, in parallel { if (TS[s] < H(s)) ...".
StartSession(s) ==
    /\ StartSessionG(s, Stale6(s))
    /\ lastAction' = [name |-> "StartSession", server |-> s, sid |-> connId,
                      stale |-> Stale6(s), h |-> H]
    /\ UNCHANGED <<timedVars, H>>

ReqD(s, t) == ReqDG(s, t) /\ UNCHANGED <<timedVars, H>>
ReplyD(t, m) == ReplyDT(t, m) /\ UNCHANGED H
RecvD(s, m) == RecvDT(s, m) /\ UNCHANGED H
GatherFail(s) == GatherFailG(s) /\ UNCHANGED <<timedVars, H>>
\* A.8 has no purge in HandleClient.
EndGather(s) == EndGatherG(s, {}) /\ UNCHANGED <<timedVars, H>>
ADeliverOK(s, i) == ADeliverOKG(s, i) /\ UNCHANGED <<timedVars, H>>
ADeliverErr(s, i) == ADeliverErrG(s, i) /\ UNCHANGED <<timedVars, H>>
PurgeSync(s, t) == PurgeSyncG(s, t) /\ UNCHANGED <<timedVars, H>>
ServerCrash(s) == ServerCrashG(s) /\ UNCHANGED <<timedVars, H>>
LoseMsg(m) == LoseS(m) /\ UNCHANGED <<timedVars, H>>
Tick == TickT /\ UNCHANGED H
\* L246 "only when there is new information"; App. B (L887) has one push "at
\* the end of each client connection": a push goes out while the client is
\* not connected to s (any number of times: when is a matter of cost).
PushSync(s) == conn # s /\ SendSyncT(s, "PushSync") /\ UNCHANGED H
RecvSync(t, m) == RecvSyncT(t, m) /\ UNCHANGED H

-----------------------------------------------------------------------------
ConnectNext == \E s \in Servers : Connect(s)
ReplyDNext(t) == \E m \in snet : ReplyD(t, m)
RecvDNext(s) == \E m \in snet : RecvD(s, m)
ADeliverNext(s) == \E i \in K[s] : ADeliverOK(s, i)
FaultNext ==
    \/ Disconnect \/ ClientCrash \/ ClientLoseH \/ \E m \in snet : LoseMsg(m)
    \/ \E s \in Servers : ServerCrash(s) \/ \E i \in K[s] : ADeliverErr(s, i)

Next ==
    \/ CreateNote
    \/ ConnectNext
    \/ Tick
    \/ \E s \in Servers :
         \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ RecvDNext(s) \/ PushSync(s)
         \/ \E m \in snet : RecvSync(s, m)
         \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
    \/ FaultNext

Spec == Init /\ [][Next]_vars

\* As Strategy 4's; syncs need no fairness (a pull does the work).
Fairness ==
    /\ WF_vars(ConnectNext)
    /\ \A s \in Servers :
         /\ WF_vars(StartSession(s)) /\ WF_vars(GatherFail(s)) /\ WF_vars(EndGather(s))
         /\ WF_vars(ADeliverNext(s)) /\ WF_vars(ReplyDNext(s)) /\ WF_vars(RecvDNext(s))
         /\ \A t \in Servers : WF_vars(ReqD(s, t))

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
EventualDelivery == \A i \in NoteUniverse : (i \in created) ~> Processed(i)

\* H only says what happened: an entry holding a time is the end of a
\* connection to that server that has finished.
HistoryTruthful == \A t \in Servers : H[t] >= 0 => H[t] <= now
=============================================================================
