---------------------------- MODULE ExactlyOnceS4 ----------------------------
(***************************************************************************)
(* Strategy 4, Server Synchronization (sec. 3.3.2, L203-215; App. A.6,     *)
(* L665-705): "Client has no state."  "Before a server can start           *)
(* delivering notes, it first gathers the list D from all of the other     *)
(* servers to merge into its own" (L211), then delivers with aDeliver      *)
(* (3.3.1).  Space is reclaimed by PurgeSync, and by A.6's purge of the    *)
(* notes every reply's D holds, at the end of the gather.                  *)
(*                                                                         *)
(* The machinery is ExactlyOnceGather's; this module fixes the stale set   *)
(* (every other server) and the purge, and states fairness and liveness.  *)
(* The client keeps nothing: a ClientCrash loses only the connection.      *)
(***************************************************************************)
EXTENDS ExactlyOnceGather

vars == <<baseVars, gatherVars, lastAction>>

ActionNames == {"Init", "CreateNote", "Connect", "Disconnect", "StartSession", "ReqD", "ReplyD",
                "RecvD", "GatherFail", "EndGather", "ADeliverOK", "ADeliverErr", "PurgeSync",
                "ClientCrash", "ServerCrash", "Lose"}

TypeOK == GatherTypeOK /\ NoClientNet

Init == GatherInit

\* L211: S4 gathers from every other server, every time.
Stale4(s) == Servers \ {s}

CreateNote == CreateNoteG
Connect(s) == ConnectG(s)
Disconnect == DisconnectG
ClientCrash == ClientCrashG

StartSession(s) ==
    /\ StartSessionG(s, Stale4(s))
    /\ lastAction' = [name |-> "StartSession", server |-> s, sid |-> connId, stale |-> Stale4(s)]

ReqD(s, t) == ReqDG(s, t)
ReplyD(t, m) == ReplyDG(t, m, 0)
RecvD(s, m) == RecvDG(s, m)
GatherFail(s) == GatherFailG(s)

\* A.6: "P = D[1] intersect ... intersect D[N]; D = D - P; K = K - P",
\* then "Can start delivery now".
EndGather(s) == EndGatherG(s, GatherPurge(s))

ADeliverOK(s, i) == ADeliverOKG(s, i)
ADeliverErr(s, i) == ADeliverErrG(s, i)
PurgeSync(s, t) == PurgeSyncG(s, t)
ServerCrash(s) == ServerCrashG(s)
LoseMsg(m) == LoseS(m)

-----------------------------------------------------------------------------
ConnectNext == \E s \in Servers : Connect(s)
ReplyDNext(t) == \E m \in snet : ReplyD(t, m)
RecvDNext(s) == \E m \in snet : RecvD(s, m)
ADeliverNext(s) == \E i \in K[s] : ADeliverOK(s, i)
FaultNext ==
    \/ Disconnect \/ ClientCrash \/ \E m \in snet : LoseMsg(m)
    \/ \E s \in Servers : ServerCrash(s) \/ \E i \in K[s] : ADeliverErr(s, i)

Next ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ RecvDNext(s)
         \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
    \/ FaultNext

Spec == Init /\ [][Next]_vars

\* Once the faults are spent: the client connects somewhere (and, faults
\* spent, stays), its request starts a session, the network delivers each
\* request and reply, a stuck gather gives up, a finished one starts the
\* delivery, and the delivery loop goes on.
Fairness ==
    /\ WF_vars(ConnectNext)
    /\ \A s \in Servers :
         /\ WF_vars(StartSession(s)) /\ WF_vars(GatherFail(s)) /\ WF_vars(EndGather(s))
         /\ WF_vars(ADeliverNext(s)) /\ WF_vars(ReplyDNext(s)) /\ WF_vars(RecvDNext(s))
         /\ \A t \in Servers : WF_vars(ReqD(s, t))

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
EventualDelivery == \A i \in NoteUniverse : (i \in created) ~> Processed(i)
=============================================================================
