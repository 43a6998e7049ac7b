---------------------------- MODULE ExactlyOnceS5Msg ----------------------------
(***************************************************************************)
(* Strategy 5 with its periodic syncs as the messages S5Server sends and    *)
(* receives (issue 20 item 1; ExactlyOnceTimedMsg says what changes): a    *)
(* PeriodicSync is a DSync with K, D, `seen` and the send time to every     *)
(* other server, and its receipt is GatherServer.recvPeerSync, one step:   *)
(* TS raised, then the purge.  The atomic RecvSync and PurgeSync are gone; *)
(* every other action is ExactlyOnceS5's, with the numbering and the       *)
(* reports kept where the core keeps them, plus what the trace validation  *)
(* of GatherWorld found the core does and ExactlyOnceS5 has no step for: a  *)
(* DSync round while an earlier one is on the way (ExactlyOnceTimedMsg's   *)
(* SendPeerSyncT); the client crash while not connected (ClientCrashAway)  *)
(* that it added first is now ExactlyOnceS5's.                              *)
(***************************************************************************)
EXTENDS ExactlyOnceS5, ExactlyOnceTimedMsg

allVars == <<vars, msgVars>>

MsgActionNames == (ActionNames \ {"PurgeSync", "RecvSync"}) \cup {"RecvPeerSync"}

MsgTypeOK == TypeOK /\ TimedMsgTypeOK

MsgInit == Init /\ TimedMsgInit

Same(A) == A /\ UNCHANGED msgVars

CreateNoteM == CreateNote /\ NumberNote
RecvDM(s, m) == RecvD(s, m) /\ RememberReply(s, m)
ServerCrashM(s) == ServerCrash(s) /\ LoseReports(s)
IdleCrashM(s) == IdleCrashT(s) /\ UNCHANGED vars
\* ClientCrashAway, a client crash while it is not connected, is
\* ExactlyOnceS5's (it was this module's until the atomic spec caught up).
ClientCrashM == ClientCrash \/ ClientCrashAway

\* L229 "The servers periodically send these synchronization messages".
PeriodicSyncM(s) == SendPeerSyncT(s, "PeriodicSync") /\ UNCHANGED lastEnd
RecvPeerSyncWith5(r, m, purged(_, _, _)) == RecvPeerSyncWith(r, m, purged) /\ UNCHANGED lastEnd
LosePeerSync(m) == LosePeerSyncT(m) /\ UNCHANGED lastEnd

\* ExactlyOnceS5's Next with the syncs and the purge as messages; `recv` is
\* the receipt of a DSync (a mutant passes its own).
MsgNextWith(recv(_, _)) ==
    \/ CreateNoteM
    \/ Same(ConnectNext)
    \/ Same(Tick)
    \/ \E s \in Servers :
         \/ Same(StartSession(s)) \/ Same(GatherFail(s)) \/ Same(EndGather(s))
         \/ Same(ADeliverNext(s)) \/ Same(ReplyDNext(s)) \/ \E m \in snet : RecvDM(s, m)
         \/ PeriodicSyncM(s)
         \/ \E m \in pnet : recv(s, m)
         \/ \E t \in Servers : Same(ReqD(s, t))
    \/ Same(Disconnect \/ ClientCrashM \/ \E m \in snet : LoseMsg(m))
    \/ \E s \in Servers : ServerCrashM(s) \/ IdleCrashM(s) \/ Same(\E i \in K[s] : ADeliverErr(s, i))
    \/ \E m \in pnet : LosePeerSync(m)

RecvPeerSync(r, m) == RecvPeerSyncWith5(r, m, G!Purged)

MsgNext == MsgNextWith(RecvPeerSync)

MsgSpec == MsgInit /\ [][MsgNext]_allVars
=============================================================================
