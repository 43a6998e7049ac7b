------------------------- MODULE MutS3MsgZ7ForkOnly -------------------------
(* Control of MCExactlyOnceS3MsgZ7 (notes Z7: the periodic syncs of L146    *)
(* are needed): the same model, fairness and bounds, but a round starts     *)
(* only as A.4's fork after a successful Deliver ("D = D + {i}; fork        *)
(* ServerSynch"), in the same step as the ack, never periodically.  One     *)
(* lost sync request or reply then leaves the server without the peer's     *)
(* report that the note is in its D, no purge is ever authorized, the       *)
(* client's one slot stays full and the second note is refused for ever.    *)
(* Expected: EventualDelivery.  (MutS3MsgSyncOnDeliveryOnly is the same     *)
(* change on MCExactlyOnceS3MsgLive's per-message fairness.)                *)
EXTENDS MCExactlyOnceS3MsgZ7

\* A.4: the successful Deliver, D = D + {i}, and the fork of ServerSynch: a
\* request to every other server with the D that now holds i.
ReceiveAckFork(m) ==
    /\ ReceiveAck(m)
    /\ snet' = snet \cup {SyncMsg("syncReq", m.to, t, K[m.to], D'[m.to], seen[m.to]) : t \in Servers \ {m.to}}
    /\ UNCHANGED <<seen, entered>>

ReceiveAckForkNext == \E m \in net : ReceiveAckFork(m)

\* AfterCreation with the forking ack and no StartRound.
ForkAfterCreation ==
    \/ Same(ConnectHome) \/ Same(ReceiveNoteNext) \/ ReceiveAckForkNext
    \/ PurgeTakeNext
    \/ \E s \in Servers :
         \/ Same(StartSession(s)) \/ Same(SendNext(s)) \/ Same(FailedTimeout(s))
         \/ SyncTakeNext(s)
         \/ (s = Home \/ PeerActive) /\ Same(AuthorizeNext(s))
    \/ \E m \in snet : LoseSync(m)

ForkNext ==
    \/ CreateNoteM
    \/ created = NoteUniverse /\ ForkAfterCreation

\* Z7Fairness with the forking ack for the ack and no StartRound.
ForkFairness ==
    /\ SessionFairnessButAck /\ WF_allVars(ReceiveAckForkNext)
    /\ WF_allVars(\E s \in Servers : SyncTakeNext(s))

ForkSpec == MsgInit /\ [][ForkNext]_allVars /\ ForkFairness
=============================================================================
