---------------------------- MODULE ExactlyOnceS6Msg ----------------------------
(***************************************************************************)
(* Strategy 6 with its push syncs as the messages S6Server sends and        *)
(* receives (issue 20 item 1; ExactlyOnceTimedMsg says what changes): a    *)
(* PushSync is a DSync with K, D, `seen` and the send time to every other   *)
(* server, while the client is not connected to the sender, and its        *)
(* receipt is GatherServer.recvPeerSync, one step: TS raised, then the     *)
(* purge.  The atomic RecvSync and PurgeSync are gone; every other action  *)
(* is ExactlyOnceS6's, with the numbering and the reports kept where the   *)
(* core keeps them, plus what the trace validation of GatherWorld found    *)
(* the core does and ExactlyOnceS6 has no step for: a DSync round while an *)
(* earlier one is on the way (ExactlyOnceTimedMsg's SendPeerSyncT); the   *)
(* history lost again (ClientLoseHM) it added first is ExactlyOnceS6's.    *)
(***************************************************************************)
EXTENDS ExactlyOnceS6, ExactlyOnceTimedMsg

allVars == <<vars, msgVars>>

MsgActionNames == (ActionNames \ {"PurgeSync", "RecvSync"}) \cup {"RecvPeerSync"}

MsgTypeOK == TypeOK /\ TimedMsgTypeOK

MsgInit == Init /\ TimedMsgInit

Same(A) == A /\ UNCHANGED msgVars

CreateNoteM == CreateNote /\ NumberNote
RecvDM(s, m) == RecvD(s, m) /\ RememberReply(s, m)
ServerCrashM(s) == ServerCrash(s) /\ LoseReports(s)
IdleCrashM(s) == IdleCrashT(s) /\ UNCHANGED vars
\* A history lost again before every server was visited: ExactlyOnceS6's
\* ClientLoseH, whose `~HistoryLost` guard this module's step dropped first
\* (the name is kept for TraceExactlyOnceS6).
ClientLoseHM == ClientLoseH

\* L246 "only when there is new information": while the client is not at s.
PushSyncM(s) == conn # s /\ SendPeerSyncT(s, "PushSync") /\ UNCHANGED H
RecvPeerSyncWith6(r, m, purged(_, _, _)) == RecvPeerSyncWith(r, m, purged) /\ UNCHANGED H
LosePeerSync(m) == LosePeerSyncT(m) /\ UNCHANGED H

\* ExactlyOnceS6's Next with the syncs and the purge as messages; `recv` is
\* the receipt of a DSync (a mutant passes its own).
MsgNextWith(recv(_, _)) ==
    \/ CreateNoteM
    \/ Same(ConnectNext)
    \/ Same(Tick)
    \/ \E s \in Servers :
         \/ Same(StartSession(s)) \/ Same(GatherFail(s)) \/ Same(EndGather(s))
         \/ Same(ADeliverNext(s)) \/ Same(ReplyDNext(s)) \/ \E m \in snet : RecvDM(s, m)
         \/ PushSyncM(s)
         \/ \E m \in pnet : recv(s, m)
         \/ \E t \in Servers : Same(ReqD(s, t))
    \/ Same(Disconnect \/ ClientCrash \/ ClientLoseHM \/ \E m \in snet : LoseMsg(m))
    \/ \E s \in Servers : ServerCrashM(s) \/ IdleCrashM(s) \/ Same(\E i \in K[s] : ADeliverErr(s, i))
    \/ \E m \in pnet : LosePeerSync(m)

RecvPeerSync(r, m) == RecvPeerSyncWith6(r, m, G!Purged)

MsgNext == MsgNextWith(RecvPeerSync)

MsgSpec == MsgInit /\ [][MsgNext]_allVars
=============================================================================
