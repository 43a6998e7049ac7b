------------------------ MODULE ExactlyOnceS4Outcome ------------------------
(***************************************************************************)
(* Strategy 4 (ExactlyOnceS4) with aDeliver's outcome as steps of its own  *)
(* (ExactlyOnceOutcome): the call logs the attempt, the outcome comes      *)
(* later, and while it is unknown the server defers its D replies, its    *)
(* purge syncs and EndGather.  Every other action is ExactlyOnceS4's;     *)
(* ExactlyOnceS4's atomic ADeliverOK is the abstract level (README,        *)
(* "aDeliver's outcome as steps").                                         *)
(***************************************************************************)
EXTENDS ExactlyOnceS4, ExactlyOnceOutcome

oVars == <<vars, att>>

OActionNames == (ActionNames \ {}) \cup {"ADeliverCall", "DeferReplyD", "DeferEndGather", "DeferPurgeSync"}

OTypeOK == TypeOK /\ OutcomeTypeOK

OInit == Init /\ OutcomeInit

ADeliverCall(s, i, ok) == ADeliverCallG(s, i, ok)
OADeliverOK(s) == ADeliverOKO(s)
OADeliverErr(s) == ADeliverErrO(s)

\* The deferred steps (GatherServer.replyD, sync, endGather).
OReplyD(t, m) == ReplyMayGo(t) /\ ReplyD(t, m) /\ UNCHANGED att
OEndGather(s) == EndGatherMayGo(s) /\ EndGather(s) /\ UNCHANGED att
\* The replayed PurgeSync builds a sync at both servers (GatherCores).
OPurgeSync(s, t) == PurgeMayGo(s) /\ PurgeMayGo(t) /\ PurgeSync(s, t) /\ UNCHANGED att
DeferReplyD(t, m) == DeferReplyDG(t, m)
DeferEndGather(s) == DeferEndGatherG(s)
DeferPurgeSync(s, t) == DeferPurgeSyncG(s, t)

OServerCrash(s) == ServerCrash(s) /\ CrashAtt(s)

ONext ==
    \/ /\ \/ CreateNote
          \/ ConnectNext
          \/ \E s \in Servers :
               \/ StartSession(s) \/ GatherFail(s) \/ RecvDNext(s)
               \/ \E t \in Servers : ReqD(s, t)
          \/ Disconnect \/ ClientCrash \/ \E m \in snet : LoseMsg(m)
       /\ UNCHANGED att
    \/ \E s \in Servers :
         \/ OEndGather(s) \/ DeferEndGather(s)
         \/ \E m \in snet : OReplyD(s, m) \/ DeferReplyD(s, m)
         \/ \E t \in Servers : OPurgeSync(s, t) \/ DeferPurgeSync(s, t)
         \/ \E i \in K[s], ok \in BOOLEAN : ADeliverCall(s, i, ok)
         \/ OADeliverOK(s) \/ OADeliverErr(s)
         \/ OServerCrash(s)

OSpec == OInit /\ [][ONext]_oVars
=============================================================================
