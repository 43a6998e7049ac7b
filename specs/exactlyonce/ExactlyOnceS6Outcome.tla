------------------------ MODULE ExactlyOnceS6Outcome ------------------------
(***************************************************************************)
(* Strategy 6 (ExactlyOnceS6) with aDeliver's outcome as steps of its own  *)
(* (ExactlyOnceOutcome): while an outcome is unknown the server defers its *)
(* D replies, its push syncs (S6Server.pushSync: "deferred") and           *)
(* EndGather.  Every other action is ExactlyOnceS6's.                      *)
(***************************************************************************)
EXTENDS ExactlyOnceS6, ExactlyOnceOutcome

oVars == <<vars, att>>

OActionNames == (ActionNames \ {}) \cup {"ADeliverCall", "DeferReplyD", "DeferEndGather", "DeferSync", "DeferPurgeSync"}

OTypeOK == TypeOK /\ OutcomeTypeOK

OInit == Init /\ OutcomeInit

ADeliverCall(s, i, ok) == ADeliverCallG(s, i, ok) /\ UNCHANGED <<timedVars, H>>
OADeliverOK(s) == ADeliverOKO(s) /\ UNCHANGED <<timedVars, H>>
OADeliverErr(s) == ADeliverErrO(s) /\ UNCHANGED <<timedVars, H>>

OReplyD(t, m) == ReplyMayGo(t) /\ ReplyD(t, m) /\ UNCHANGED att
OEndGather(s) == EndGatherMayGo(s) /\ EndGather(s) /\ UNCHANGED att
OPurgeSync(s, t) == PurgeMayGo(s) /\ PurgeMayGo(t) /\ PurgeSync(s, t) /\ UNCHANGED att
OPushSync(s) == SyncMayGo(s) /\ PushSync(s) /\ UNCHANGED att
DeferReplyD(t, m) == DeferReplyDG(t, m) /\ UNCHANGED <<timedVars, H>>
DeferEndGather(s) == DeferEndGatherG(s) /\ UNCHANGED <<timedVars, H>>
DeferPurgeSync(s, t) == DeferPurgeSyncG(s, t) /\ UNCHANGED <<timedVars, H>>
\* A push may go out while the client is not connected to s (L246, L887);
\* while an outcome is unknown it is deferred.  Under the model bound of ExactlyOnceTimed (one sync of s on
\* its way) a deferral shows only where a sync could go.
DeferSync(s) == conn # s /\ ~SyncInFlight(s) /\ DeferSyncG(s) /\ UNCHANGED <<timedVars, H>>

OServerCrash(s) == ServerCrash(s) /\ CrashAtt(s)

ONext ==
    \/ /\ \/ CreateNote
          \/ ConnectNext
          \/ Tick
          \/ \E s \in Servers :
               \/ StartSession(s) \/ GatherFail(s) \/ RecvDNext(s)
               \/ \E m \in snet : RecvSync(s, m)
               \/ \E t \in Servers : ReqD(s, t)
          \/ Disconnect \/ ClientCrash \/ ClientLoseH \/ \E m \in snet : LoseMsg(m)
       /\ UNCHANGED att
    \/ \E s \in Servers :
         \/ OEndGather(s) \/ DeferEndGather(s)
         \/ \E m \in snet : OReplyD(s, m) \/ DeferReplyD(s, m)
         \/ OPushSync(s) \/ DeferSync(s)
         \/ \E t \in Servers : OPurgeSync(s, t) \/ DeferPurgeSync(s, t)
         \/ \E i \in K[s], ok \in BOOLEAN : ADeliverCall(s, i, ok)
         \/ OADeliverOK(s) \/ OADeliverErr(s)
         \/ OServerCrash(s)

OSpec == OInit /\ [][ONext]_oVars
=============================================================================
