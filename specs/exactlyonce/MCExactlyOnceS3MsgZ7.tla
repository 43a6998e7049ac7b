------------------------- MODULE MCExactlyOnceS3MsgZ7 -------------------------
(* Strategy 3's liveness with two servers, two notes, one slot and syncs    *)
(* that fail (notes Z7; issue 20 item 4): EventualDelivery, L47 "a note     *)
(* should eventually be delivered to its target once", with L87's premise    *)
(* that the client eventually asks and a server has the note.  The second   *)
(* note is refused (R full, L169) until the first is purged, and the purge  *)
(* needs a sync that reports the first in the peer's D; the one fault is a  *)
(* lost sync request or reply.  StartRound is weakly fair: a round can      *)
(* start at any time (L146 "Periodically"), so a lost message is followed   *)
(* by another round.  The control, mutants/MutS3MsgZ7ForkOnly, starts a     *)
(* round only as A.4's fork after a delivery and fails EventualDelivery.    *)
(*                                                                           *)
(* The steps are MCExactlyOnceS3MsgLive's Z7Next (ExactlyOnceS3Msg's, with  *)
(* no disconnect, crash or client-side loss), cut to what ci can check (the *)
(* figures are in the README, "S3 liveness with failing syncs at ci size"): *)
(* - the client connects to one server, Home: the servers are alike (no     *)
(*   constant names one), so a behaviour with the other is one of these     *)
(*   with the names swapped;                                                 *)
(* - both notes exist before anything else happens (creation order is not  *)
(*   what Z7 is about);                                                      *)
(* - a server starts a round only once its last one is over (RoundOver, a   *)
(*   model bound: the cores start rounds on a timer, and a network holding  *)
(*   any set of stale snapshots is beyond a liveness check here);           *)
(* - a Deliver times out only when it did fail (FailedTimeout: the one      *)
(*   fault is left to the syncs; the atomic models have late timeouts);     *)
(* - only Home starts rounds and authorizes purges, unless PeerActive (the  *)
(*   deep cfg): the other server has no session, Home learns its D from the *)
(*   replies to Home's own rounds, and the client takes a purge only from   *)
(*   the server it is connected to (notes Z6: "the client talks only to its *)
(*   current server"); the other server still answers every request.        *)
(* Fairness is weaker than MsgFairness (one condition per message, 32 in    *)
(* all, about 14,000 states a minute), so a pass here is a pass there:      *)
(* one weak condition per group of steps, and none where a step is not     *)
(* needed (the other server's sessions, which never start, and its          *)
(* authorizations).  Groups suffice because no client-side message is       *)
(* lost or duplicated and each receipt consumes it, one Deliver is          *)
(* outstanding at a time, and at most one round of each server is on its   *)
(* way.  One weaker form was refuted by TLC and is not used: weak fairness *)
(* on any note message while late timeouts were in the model (a stale copy *)
(* of n2 is passed over for ever while resends of n1 are refused, and the  *)
(* purge of n2 waits for the copy to go, NoCopy, L131).  With late timeouts *)
(* SendNote would also need ExactlyOnceS3's strong fairness per note;       *)
(* without them a processed note is always in D, so weak fairness on        *)
(* SendNext is enough.                                                       *)
EXTENDS MCExactlyOnceS3MsgLive

CONSTANT PeerActive   \* BOOLEAN: does the other server start rounds and authorize too?

\* The server the client connects to (any one: they are alike).
Home == CHOOSE s \in Servers : TRUE

ConnectHome == Connect(Home)

\* Model bound: a server starts a round once its last one is over, i.e. no
\* request of its own and no reply to it is on its way (the reply was taken
\* or lost).  A lost message still ends a round, and the next round is what
\* Z7 asks for.
RoundOver(s) ==
    \A m \in snet : ~((m.type = "syncReq" /\ m.from = s) \/ (m.type = "syncReply" /\ m.to = s))

StartRound(s) == RoundOver(s) /\ StartSync(s)

\* The sync messages s takes: requests it answers and replies it merges.
SyncTakeNext(s) == \E m \in snet : HandleSync(s, m) \/ ReceiveSyncReply(s, m)

\* The client's receipts of purges and the servers' of purge acks.
PurgeTakeNext == \E m \in net : Same(ReceivePurge(m)) \/ ReceivePurgeAckM(m)

\* A Deliver that did fail (its note and ack gone: TimeoutCost 0); the one
\* fault is left to the syncs.
FailedTimeout(s) == Timeout(s) /\ faults' = faults

\* Z7Next (MCExactlyOnceS3MsgLive) with the connection to Home, once every
\* note exists.
AfterCreation ==
    \/ Same(ConnectHome) \/ Same(ReceiveNoteNext) \/ Same(ReceiveAckNext)
    \/ PurgeTakeNext
    \/ \E s \in Servers :
         \/ Same(StartSession(s)) \/ Same(SendNext(s)) \/ Same(FailedTimeout(s))
         \/ (s = Home \/ PeerActive) /\ StartRound(s)
         \/ SyncTakeNext(s)
         \/ (s = Home \/ PeerActive) /\ Same(AuthorizeNext(s))
    \/ \E m \in snet : LoseSync(m)

HomeNext ==
    \/ CreateNoteM
    \/ created = NoteUniverse /\ AfterCreation

\* The sessions' fairness (ExactlyOnceS3's) and the client-side network's,
\* but for the step that takes an ack (a control has its own).  Only
\* Home's: the other server never has a session (the same as ExactlyOnceS3's
\* conditions for it, which never bind) and its authorizations are not
\* needed (Home authorizes; leaving them unfair makes the pass stronger).
SessionFairnessButAck ==
    /\ WF_allVars(Same(ConnectHome))
    /\ WF_allVars(Same(StartSession(Home))) /\ WF_allVars(Same(FailedTimeout(Home)))
    /\ WF_allVars(Same(AuthorizeNext(Home)))
    /\ WF_allVars(Same(SendNext(Home)))
    /\ WF_allVars(Same(ReceiveNoteNext))
    /\ WF_allVars(PurgeTakeNext)

SessionFairness == SessionFairnessButAck /\ WF_allVars(Same(ReceiveAckNext))

\* Periodic syncs at Home (L146, Z7) and a network that hands each server
\* its sync messages.
Z7Fairness ==
    /\ SessionFairness
    /\ WF_allVars(StartRound(Home))
    /\ WF_allVars(\E s \in Servers : SyncTakeNext(s))

\* Every variable but lastAction, which no step reads (a cfg's VIEW).
StateView == <<baseVars, stratVars, msgVars>>

Z7Spec == MsgInit /\ [][HomeNext]_allVars /\ Z7Fairness

\* A CONSTRAINT that loses no violation of EventualDelivery: a behaviour
\* that violates it leaves some created note unprocessed in every state,
\* so it never enters a state where every note is processed, and
\* processing is never undone.  The states past that point (the last purges)
\* are not expanded.
SomeUnprocessed == \E i \in NoteUniverse : ~Processed(i)
=============================================================================
