---------------------- MODULE MCExactlyOnceS3MsgLive ----------------------
(* Liveness of Strategy 3 with ServerSynch as messages that can fail       *)
(* (notes Z7).  ExactlyOnceS3's FairSpec has atomic syncs, which never     *)
(* fail; here a sync request or reply can be lost (LoseSync, one fault),   *)
(* so a purge authorization can wait for a sync that never completes.      *)
(* Z7Next is MsgNext with the failing syncs as the only faults besides a   *)
(* late Deliver timeout: no disconnect, crash or loss of a client-side     *)
(* message (the ExactlyOnceS3 liveness models have those; with all of them *)
(* the model passed 61,763 states in 39 minutes under load ~20, its queue  *)
(* still growing, and was stopped).  The client connects once and stays.   *)
(* The paper's answer is L146's "Periodically or immediately": StartSync stays *)
(* enabled at any time and is weakly fair, so a failed round is followed   *)
(* by another.  MutS3MsgSyncOnDeliveryOnly starts a round only as the fork *)
(* after a delivery (A.4) and fails EventualDelivery on one lost message:  *)
(* the control that shows the periodic syncs are needed.                   *)
(*                                                                         *)
(* Fairness is ExactlyOnceS3's, step for step on the message-level steps  *)
(* (each client and session step leaves snet, seen and entered alone), plus *)
(* the network's: every sync message a server can take is eventually      *)
(* taken (weak fairness on "some message to t", enough here: a message    *)
(* taken leaves snet, as AllowDup is FALSE in these models).               *)
EXTENDS MCExactlyOnceS3Msg

\* The network eventually delivers each client-side message it holds.
MsgMessageFairness(s, i) ==
    /\ WF_allVars(Same(ReceiveNote(NoteMsg(s, i))))
    /\ WF_allVars(Same(ReceiveAck(AckMsg(s, i))))
    /\ WF_allVars(Same(ReceivePurge(Msg("purge", s, Client, i))))
    /\ WF_allVars(ReceivePurgeAckM(Msg("purgeAck", Client, s, i)))

\* The server-to-server network delivers, and each server handles, what it holds.
SyncMessageFairness(s) ==
    /\ WF_allVars(\E m \in snet : HandleSync(s, m))
    /\ WF_allVars(\E m \in snet : ReceiveSyncReply(s, m))

\* The session, authorization and connection fairness of ExactlyOnceS3.
ClientSideFairness ==
    /\ WF_allVars(Same(ConnectNext))
    /\ \A s \in Servers : /\ WF_allVars(Same(StartSession(s))) /\ WF_allVars(Same(Timeout(s)))
                          /\ WF_allVars(Same(AuthorizeNext(s)))
                          /\ \A i \in NoteUniverse : SF_allVars(Same(SendNote(s, i)))
    /\ \A s \in Servers, i \in NoteUniverse : MsgMessageFairness(s, i)

\* Periodic syncs (L146, Z7): a round can always start, and eventually does.
MsgFairness ==
    /\ ClientSideFairness
    /\ \A s \in Servers : WF_allVars(StartSync(s)) /\ SyncMessageFairness(s)

\* MsgNext (ExactlyOnceS3Msg) without the client's faults and server crashes.
Z7Next ==
    \/ CreateNoteM
    \/ Same(ConnectNext) \/ Same(ReceiveNoteNext) \/ Same(ReceiveAckNext)
    \/ \E m \in net : Same(ReceivePurge(m)) \/ ReceivePurgeAckM(m)
    \/ \E s \in Servers :
         \/ Same(StartSession(s)) \/ Same(SendNext(s)) \/ Same(Timeout(s))
         \/ MsgSyncNext(s) \/ Same(AuthorizeNext(s))
    \/ \E m \in snet : LoseSync(m)

MsgFairSpec == MsgInit /\ [][Z7Next]_allVars /\ MsgFairness
=============================================================================
