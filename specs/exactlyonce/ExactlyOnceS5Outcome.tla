------------------------ MODULE ExactlyOnceS5Outcome ------------------------
(***************************************************************************)
(* Strategy 5 (ExactlyOnceS5) with aDeliver's outcome as steps of its own  *)
(* (ExactlyOnceOutcome): while an outcome is unknown the server defers its *)
(* D replies, its periodic syncs (S5Server.periodicSync: "deferred") and   *)
(* EndGather.  Every other action is ExactlyOnceS5's.                      *)
(***************************************************************************)
EXTENDS ExactlyOnceS5, ExactlyOnceOutcome

oVars == <<vars, att>>

OActionNames == (ActionNames \ {}) \cup {"ADeliverCall", "DeferReplyD", "DeferEndGather", "DeferSync", "DeferPurgeSync"}

OTypeOK == TypeOK /\ OutcomeTypeOK

OInit == Init /\ OutcomeInit

ADeliverCall(s, i, ok) == ADeliverCallG(s, i, ok) /\ UNCHANGED <<timedVars, lastEnd>>
OADeliverOK(s) == ADeliverOKO(s) /\ UNCHANGED <<timedVars, lastEnd>>
OADeliverErr(s) == ADeliverErrO(s) /\ UNCHANGED <<timedVars, lastEnd>>

OReplyD(t, m) == ReplyMayGo(t) /\ ReplyD(t, m) /\ UNCHANGED att
OEndGather(s) == EndGatherMayGo(s) /\ EndGather(s) /\ UNCHANGED att
OPurgeSync(s, t) == PurgeMayGo(s) /\ PurgeMayGo(t) /\ PurgeSync(s, t) /\ UNCHANGED att
OPeriodicSync(s) == SyncMayGo(s) /\ PeriodicSync(s) /\ UNCHANGED att
DeferReplyD(t, m) == DeferReplyDG(t, m) /\ UNCHANGED <<timedVars, lastEnd>>
DeferEndGather(s) == DeferEndGatherG(s) /\ UNCHANGED <<timedVars, lastEnd>>
DeferPurgeSync(s, t) == DeferPurgeSyncG(s, t) /\ UNCHANGED <<timedVars, lastEnd>>
\* A periodic sync is due at any time (Z22); while an outcome is unknown it
\* is deferred.  Under the model bound of ExactlyOnceTimed (one sync of s on
\* its way) a deferral shows only where a sync could go.
DeferSync(s) == ~SyncInFlight(s) /\ DeferSyncG(s) /\ UNCHANGED <<timedVars, lastEnd>>

OServerCrash(s) == ServerCrash(s) /\ CrashAtt(s)

ONext ==
    \/ /\ \/ CreateNote
          \/ ConnectNext
          \/ Tick
          \/ \E s \in Servers :
               \/ StartSession(s) \/ GatherFail(s) \/ RecvDNext(s)
               \/ \E m \in snet : RecvSync(s, m)
               \/ \E t \in Servers : ReqD(s, t)
          \/ Disconnect \/ ClientCrash \/ ClientCrashAway \/ \E m \in snet : LoseMsg(m)
       /\ UNCHANGED att
    \/ \E s \in Servers :
         \/ OEndGather(s) \/ DeferEndGather(s)
         \/ \E m \in snet : OReplyD(s, m) \/ DeferReplyD(s, m)
         \/ OPeriodicSync(s) \/ DeferSync(s)
         \/ \E t \in Servers : OPurgeSync(s, t) \/ DeferPurgeSync(s, t)
         \/ \E i \in K[s], ok \in BOOLEAN : ADeliverCall(s, i, ok)
         \/ OADeliverOK(s) \/ OADeliverErr(s)
         \/ OServerCrash(s)

OSpec == OInit /\ [][ONext]_oVars
=============================================================================
