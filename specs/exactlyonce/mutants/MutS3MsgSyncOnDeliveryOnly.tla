------------------- MODULE MutS3MsgSyncOnDeliveryOnly -------------------
(* Control for notes Z7 (the periodic syncs of L146 are needed): a sync    *)
(* round starts only as A.4's fork after a successful Deliver ("D = D +    *)
(* {i}; fork ServerSynch"), in the same step as the ack, and never         *)
(* periodically.  One lost sync request or reply then leaves the server    *)
(* without the peer's report that the note is in its D, so no purge is     *)
(* ever authorized, the client's one slot stays full, and the second note  *)
(* is refused for ever.  Everything else, fairness included, is            *)
(* MCExactlyOnceS3MsgLive's.  Expected: EventualDelivery.                  *)
EXTENDS MCExactlyOnceS3MsgLive

\* A.4: the successful Deliver, D = D + {i}, and the fork of ServerSynch:
\* a request to every other server with the D that now holds i.
ReceiveAckFork(m) ==
    /\ ReceiveAck(m)
    /\ snet' = snet \cup {SyncMsg("syncReq", m.to, t, K[m.to], D'[m.to], seen[m.to]) : t \in Servers \ {m.to}}
    /\ UNCHANGED <<seen, entered>>

\* MCExactlyOnceS3MsgLive's Z7Next with the forking ack and no StartSync.
MutNext ==
    \/ CreateNoteM
    \/ Same(ConnectNext) \/ Same(ReceiveNoteNext)
    \/ \E m \in net : ReceiveAckFork(m)
    \/ \E m \in net : Same(ReceivePurge(m)) \/ ReceivePurgeAckM(m)
    \/ \E s \in Servers :
         \/ Same(StartSession(s)) \/ Same(SendNext(s)) \/ Same(Timeout(s))
         \/ \E m \in snet : HandleSync(s, m) \/ ReceiveSyncReply(s, m)
         \/ Same(AuthorizeNext(s))
    \/ \E m \in snet : LoseSync(m)

\* MCExactlyOnceS3MsgLive's fairness with the forking ack for the ack and no
\* StartSync.
MutFairness ==
    /\ WF_allVars(Same(ConnectNext))
    /\ \A s \in Servers : /\ WF_allVars(Same(StartSession(s))) /\ WF_allVars(Same(Timeout(s)))
                          /\ WF_allVars(Same(AuthorizeNext(s)))
                          /\ \A i \in NoteUniverse : SF_allVars(Same(SendNote(s, i)))
                          /\ SyncMessageFairness(s)
    /\ \A s \in Servers, i \in NoteUniverse :
         /\ WF_allVars(Same(ReceiveNote(NoteMsg(s, i))))
         /\ WF_allVars(ReceiveAckFork(AckMsg(s, i)))
         /\ WF_allVars(Same(ReceivePurge(Msg("purge", s, Client, i))))
         /\ WF_allVars(ReceivePurgeAckM(Msg("purgeAck", Client, s, i)))

MutSpec == MsgInit /\ [][MutNext]_allVars /\ MutFairness

\* The search narrowed to behaviours in which B never delivers (a CONSTRAINT;
\* a state past it is not expanded).  The counterexample needs only A:
\* A delivers n2, its one sync request to B is lost, and n1 is refused for
\* ever; its lasso lies inside the constraint, so it is a behaviour of the
\* unconstrained mutant.  Unconstrained, the mutant has 519,177 states, and
\* TLC found the violation only at its periodic liveness check a minute in
\* (66.5 s in ci); narrowed, the whole graph is 247 states and the final
\* check finds it.
OnlyADelivers == D["B"] = {}
=============================================================================
