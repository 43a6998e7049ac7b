------------------------ MODULE ExactlyOnceOutcome ------------------------
(***************************************************************************)
(* aDeliver's outcome as steps of its own (issue 20 item 2), for           *)
(* Strategies 4-6: what GatherServer does, where ExactlyOnceGather has one *)
(* atomic ADeliverOK.                                                       *)
(*                                                                         *)
(* L191-193: "the return value of aDeliver(T, m) is always logged in        *)
(* permanent storage".  The core logs the attempt before the call (the     *)
(* commit point of NoReattempt), calls the primitive, and records the      *)
(* outcome when the call returns; after a crash it settles the outcome     *)
(* from the primitive's own log.  Three steps here:                        *)
(*   ADeliverCall(s, i, ok): the attempt is logged in att[s] (durable) and *)
(*     the primitive runs: the client processes i (ok) or not (an error,  *)
(*     a fault).  The primitive is atomic (3.3.1), so its effect may sit   *)
(*     at the call: nothing the server does before the outcome can tell    *)
(*     the two apart.  A crash between the log write and the call is the   *)
(*     error case;                                                         *)
(*   ADeliverOK(s) / ADeliverErr(s): the outcome reaches the server: OK    *)
(*     puts i in D[s] (L193), Err drops the attempt and, when the calling  *)
(*     session is still s's session, aborts it (A.6 {abort;}).  After a    *)
(*     ServerCrash the same steps settle the outcome from the primitive's  *)
(*     log (att[s].sid = 0: the calling session is gone).                  *)
(* While s's outcome is unknown (`Unknown(s)`), s reveals no D: it defers  *)
(* its D replies (ReplyD), its syncs (S4's PurgeSync, S5's PeriodicSync,   *)
(* S6's PushSync) and EndGather, as GatherServer's replyD, sync, syncAll   *)
(* and endGather do ("deferred", "unresolved").  A D revealed then would   *)
(* lack a note the client may have processed, and a server that trusts it *)
(* delivers the note again: MutS4ReplyWhileUnknown,                       *)
(* MutS5PeriodicSyncWhileUnknown, MutS6PushSyncWhileUnknown.  The         *)
(* deferrals are named definitions (ReplyMayGo, SyncMayGo, PurgeMayGo,    *)
(* EndGatherMayGo) so that each mutant's cfg replaces one of them.        *)
(*                                                                         *)
(* The deferral is also a step a trace shows (DeferReplyD, DeferSync,      *)
(* DeferPurgeSync, DeferEndGather: only lastAction changes), so that       *)
(* replay asks the core for the step and sees it refuse.                   *)
(***************************************************************************)
EXTENDS ExactlyOnceGather

VARIABLE
    att   \* server, durable: the logged aDeliver attempt whose outcome is unknown, or NoCall

NoCall == [note |-> None, sid |-> 0, ok |-> FALSE]

\* s logged an attempt whose outcome it does not know yet.
Unknown(s) == att[s].note # None

OutcomeTypeOK ==
    att \in [Servers -> [note : NoteUniverse \cup {None}, sid : Nat, ok : BOOLEAN]]

OutcomeInit == att = [s \in Servers |-> NoCall]

\* The deferrals (GatherServer: "deferred" / "unresolved" while any attempt
\* is unresolved).  A mutant's cfg replaces one with an operator that is
\* always TRUE.
ReplyMayGo(t) == ~Unknown(t)
SyncMayGo(s) == ~Unknown(s)       \* S5's PeriodicSync, S6's PushSync
PurgeMayGo(s) == ~Unknown(s)      \* either side of a PurgeSync
EndGatherMayGo(s) == ~Unknown(s)

\* aDeliver(c, "Here is note i") is called: the attempt is logged first
\* (GatherServer.aDeliver: one call at a time, i in K - D, nothing logged for
\* it), and the primitive processes i (ok) or fails (a fault, as
\* ExactlyOnceGather's ADeliverErr).
ADeliverCallG(s, i, ok) ==
    /\ sess[s].phase = "deliver"
    /\ Live(s)
    /\ ~Unknown(s)
    /\ i \in Deliverable(s)
    /\ IF ok THEN /\ MayReceive
                  /\ delivered' = Append(delivered, i)
                  /\ UNCHANGED faults
             ELSE /\ faults < MaxFaults
                  /\ faults' = faults + 1
                  /\ UNCHANGED delivered
    /\ att' = [att EXCEPT ![s] = [note |-> i, sid |-> sess[s].sid, ok |-> ok]]
    /\ lastAction' = [name |-> "ADeliverCall", server |-> s, note |-> i, sid |-> sess[s].sid, ok |-> ok]
    /\ UNCHANGED <<net, conn, created, K, D, sess, snet, connId>>

\* The call returned success (or, after a crash, the primitive's log says
\* so): logged in D (L193).  The session, if it is still the caller's, goes
\* on delivering.
ADeliverOKO(s) ==
    /\ Unknown(s)
    /\ att[s].ok
    /\ D' = [D EXCEPT ![s] = @ \cup {att[s].note}]
    /\ att' = [att EXCEPT ![s] = NoCall]
    /\ lastAction' = [name |-> "ADeliverOK", server |-> s, note |-> att[s].note, sid |-> att[s].sid]
    /\ UNCHANGED <<baseVars, K, sess, snet, connId>>

\* The call returned error (rho = 0, L193): the attempt leaves the log; the
\* calling session, if it is still s's, aborts.
ADeliverErrO(s) ==
    /\ Unknown(s)
    /\ ~att[s].ok
    /\ att' = [att EXCEPT ![s] = NoCall]
    /\ sess' = IF att[s].sid # 0 /\ sess[s].sid = att[s].sid
                  THEN [sess EXCEPT ![s] = Idle] ELSE sess
    /\ lastAction' = [name |-> "ADeliverErr", server |-> s, note |-> att[s].note, sid |-> att[s].sid]
    /\ UNCHANGED <<baseVars, K, D, snet, connId>>

\* A crash keeps the log (durable) and loses the calling session.
CrashAtt(s) == att' = IF Unknown(s) THEN [att EXCEPT ![s].sid = 0] ELSE att

\* The steps that show a deferral: the core is asked and refuses.
DeferReplyDG(t, m) ==
    /\ m \in snet
    /\ m.type = "reqD"
    /\ m.to = t
    /\ Link(m.from, t)
    /\ ~ReplyMayGo(t)
    /\ lastAction' = [name |-> "DeferReplyD", server |-> t, peer |-> m.from, sid |-> m.sid]
    /\ UNCHANGED <<baseVars, gatherVars, att>>

DeferEndGatherG(s) ==
    /\ sess[s].phase = "gather"
    /\ GatherDone(s)
    /\ ~EndGatherMayGo(s)
    /\ lastAction' = [name |-> "DeferEndGather", server |-> s, sid |-> sess[s].sid]
    /\ UNCHANGED <<baseVars, gatherVars, att>>

DeferSyncG(s) ==
    /\ ~SyncMayGo(s)
    /\ lastAction' = [name |-> "DeferSync", server |-> s]
    /\ UNCHANGED <<baseVars, gatherVars, att>>

\* s's half of a PurgeSync(s, t): GatherServer.sync(t), the sync to the one
\* peer t, is deferred ("deferred", nothing sent) while s's own outcome is
\* unknown, whatever t's, as the core asks only its own log.  PurgeSync
\* needs both halves, so it waits for both outcomes (OPurgeSync).  Shown
\* only where the two can exchange (Link), as DeferReplyD.
\*
\* No mutant TLC refutes PurgeMayGo here: PurgeSync reads D directly and
\* purges only what every D holds, and an unresolved note is in no D, so
\* a PurgeSync during an unknown outcome loses nothing
\* (exactlyonce-control-s4-purge-sync-at-once: the safety properties hold
\* with PurgeMayGo <- AtOnce, though such a PurgeSync is reached).  The core
\* defers sync(t) because a runtime sends its periodic (S5) and push (S6)
\* syncs as one sync(t) per peer, which a peer takes into TS: PeriodicSync's
\* and PushSync's deferral, whose mutants TLC refutes (NoDuplicateDelivery).
DeferPurgeSyncG(s, t) ==
    /\ s # t
    /\ Link(s, t)
    /\ ~PurgeMayGo(s)
    /\ lastAction' = [name |-> "DeferPurgeSync", server |-> s, peer |-> t]
    /\ UNCHANGED <<baseVars, gatherVars, att>>

-----------------------------------------------------------------------------
(* What the deferral keeps true.                                          *)

\* NoReattempt (L185, L193) for the call: a call that processes its note
\* is the note's only processing; a failed one comes before any.
NoReattemptCall ==
    lastAction.name = "ADeliverCall" =>
        Count(lastAction.note) = IF att[lastAction.server].ok THEN 1 ELSE 0

\* ExactlyOnceGather's GatherSound (L211), except for the session's own call
\* in progress: its note is processed before its outcome reaches D.
GatherSoundO ==
    \A s \in Servers :
        (sess[s].phase = "deliver" /\ Live(s)) =>
            \A i \in K[s] : Processed(i) => i \in D[s] \/ (Unknown(s) /\ att[s].note = i)

\* A note the client processed is in some server's D (or purged, which
\* needs it in every D first), or the server that called aDeliver has not
\* learnt the outcome yet, and then reveals nothing.
ProcessedIsLoggedOrUnknown ==
    \A i \in created :
        Processed(i) => \/ \E s \in Servers : i \in D[s] \/ i \notin K[s]
                        \/ \E s \in Servers : Unknown(s) /\ att[s].note = i
=============================================================================
