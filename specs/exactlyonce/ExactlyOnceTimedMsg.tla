------------------------- MODULE ExactlyOnceTimedMsg -------------------------
(***************************************************************************)
(* What Strategies 5 and 6 add to ExactlyOnceTimed when their syncs are    *)
(* the messages GatherServer sends (issue 20 item 1): the shared part of   *)
(* ExactlyOnceS5Msg and ExactlyOnceS6Msg, which each EXTEND their atomic   *)
(* strategy and this module.                                               *)
(*                                                                         *)
(* In the atomic specs a periodic (S5) or push (S6) sync is a "sync" in    *)
(* snet carrying D and the send time, received by RecvSync (D merged, TS   *)
(* raised), and the purge is a separate atomic PurgeSync(s, t) that reads *)
(* both servers' K and D.  The core has one message and one receipt for    *)
(* both: GatherServer.syncAll sends every other server a DSync with its K, *)
(* D, watermark `seen` and its clock (syncTo), and GatherServer.receive    *)
(* hands a DSync to recvPeerSync, which in ONE step raises TS (mergeTs)    *)
(* and then runs recvPurgeSync (K-difference under the watermark, D        *)
(* merged within K, the report remembered, KnownToOthers purge).  So here  *)
(* the sync is a DSync on `pnet` (lost, late, reordered, duplicated when   *)
(* AllowDup), and RecvPeerSync is that one step.  There is no other purge  *)
(* (S5/S6's EndGather purges nothing) and no other sync.                   *)
(*                                                                         *)
(* The receipt's purge is ExactlyOnceS4Msg's RecvPurgeSyncView, used       *)
(* through an INSTANCE (G below) rather than copied: the purge reads no    *)
(* TS, and the TS merge reads nothing the purge writes.                    *)
(*                                                                         *)
(* Why the TS merge's place in the step does not matter (brief item 3):    *)
(* within one step the TS merge is a function of (TS, m) and the purge a   *)
(* function of (K, D, entered, reports, m); neither reads what the other   *)
(* writes, so "merge then purge" and "purge then merge" are one and the    *)
(* same transition (in TLA+ the same conjunction).  What does matter is    *)
(* that they are ONE step: TS raised in a step of its own before the D     *)
(* merge lets a session trust a peer whose D it has not merged            *)
(* (MutS5MsgTsFirst, refuted); TS raised in a later step only lags, which  *)
(* makes a peer look older than it is (MCExactlyOnceS5MsgTsLate passes).  *)
(*                                                                         *)
(* aDeliver is atomic here (ExactlyOnceGather), so recvPurgeSync's        *)
(* `!unresolvedFor(i)` guard never binds; ExactlyOnceS5Outcome and        *)
(* ExactlyOnceS6Outcome model the unknown outcome.  Numbers as in          *)
(* ExactlyOnceS4Msg: `entered` and `seen`, alike at every server under the *)
(* base's atomic replication (Z1).                                         *)
(***************************************************************************)
EXTENDS ExactlyOnceTimed, TLC

VARIABLES
    pnet,       \* DSyncs on the way (the periodic / push syncs)
    seen,       \* server, durable: how many notes have entered its K
    entered,    \* server, durable: note -> its number here, 0 if not in K
    known,      \* server, volatile: known[s][t] = the D t last reported (DSync or D reply)
    knownK,     \* server, volatile: knownK[s][t] = the K t last reported in a DSync
    knownSeen   \* server, volatile: knownSeen[s][t] = that report's watermark

\* ExactlyOnceS4Msg's purge-sync machinery (View, SetViews, PurgedPerReport,
\* KnownToOthers, RecvPurgeSyncView, Purged), on these same variables.
G == INSTANCE ExactlyOnceS4Msg

reportVars == <<known, knownK, knownSeen>>
msgVars == <<pnet, seen, entered, reportVars>>

\* EoMessage.DSync: sender, receiver, K, D, watermark and the send time.
PeerSync(from, to, k, d, sn, ts) ==
    [type |-> "dsync", from |-> from, to |-> to, k |-> k, d |-> d, seen |-> sn, ts |-> ts]

PeerSyncs(s) ==
    {PeerSync(s, t, K[s], D[s], seen[s], Clock(s)) : t \in {u \in Servers \ {s} : Link(s, u)}}

TimedMsgTypeOK ==
    /\ \A m \in pnet : m.type = "dsync" /\ {m.from, m.to} \subseteq Servers /\ m.from # m.to
                       /\ m.k \subseteq NoteUniverse /\ m.d \subseteq m.k /\ m.seen \in 0..MaxNotes
                       /\ m.ts \in Stamp
    /\ seen \in [Servers -> 0..MaxNotes]
    /\ entered \in [Servers -> [NoteUniverse -> 0..MaxNotes]]
    /\ \A s \in Servers : \A i \in NoteUniverse : (entered[s][i] # 0) <=> i \in K[s]
    /\ known \in [Servers -> [Servers -> SUBSET NoteUniverse]]
    /\ knownK \in [Servers -> [Servers -> SUBSET NoteUniverse]]
    /\ knownSeen \in [Servers -> [Servers -> 0..MaxNotes]]

TimedMsgInit ==
    /\ pnet = {}
    /\ seen = [s \in Servers |-> 0]
    /\ entered = [s \in Servers |-> G!NotNumbered]
    /\ known = [s \in Servers |-> G!NoReports]
    /\ knownK = [s \in Servers |-> G!NoReports]
    /\ knownSeen = [s \in Servers |-> G!NoWatermarks]

ConsumeP(m) == IF AllowDup THEN pnet ELSE pnet \ {m}

-----------------------------------------------------------------------------
(* Steps on the gather, timed and message variables; each strategy          *)
(* conjoins its own variable (lastEnd, H) unchanged.                        *)

\* The note's number at every server (GatherServer.enter), with CreateNoteG.
NumberNote ==
    LET i == NoteIds[Cardinality(created) + 1] IN
    /\ seen' = [s \in Servers |-> seen[s] + 1]
    /\ entered' = [s \in Servers |-> [entered[s] EXCEPT ![i] = seen[s] + 1]]
    /\ UNCHANGED <<pnet, reportVars>>

\* GatherServer.syncAll (S5's periodicSync, S6's pushSync): a DSync with our
\* K, D, watermark and clock now to every other server we can reach, whether
\* or not an earlier round is still on the way: the core sends a round every
\* T_u (L229) without waiting for the last, and App. B (L854) counts on it
\* ("A could potentially have attempted multiple synchronizations to B (s2
\* and s3)").  Until this stop the step waited for s's earlier DSyncs to
\* leave pnet, a model bound the GatherWorld logs broke (TraceExactlyOnceS5
\* took such a round as a step of its own, SendAnotherRound); the bound now
\* lives in the models only (MCExactlyOnceS5Msg's OneRoundInFlight).  An
\* older DSync only adds an older report and an older stamp: the watermark
\* makes the report harmless, and TS is a max.
SendPeerSyncT(s, name) ==
    /\ PeerSyncs(s) # {}
    /\ pnet' = pnet \cup PeerSyncs(s)
    /\ lastAction' = [name |-> name, server |-> s, k |-> K[s], d |-> D[s], seen |-> seen[s],
                      ts |-> Clock(s)]
    /\ UNCHANGED <<baseVars, gatherVars, timedVars, seen, entered, reportVars>>

RecvPeerSyncAction(r, m) ==
    [name |-> "RecvPeerSync", server |-> r, peer |-> m.from, k |-> m.k, d |-> m.d, seen |-> m.seen,
     ts |-> m.ts]

\* GatherServer.recvPurgeSync at r for m, with the K-difference rule
\* `purged` (G!Purged is the core's; a mutant passes its own).  No TS change.
PurgeStep(r, m, purged(_, _, _)) ==
    /\ m \in pnet
    /\ m.to = r
    /\ Link(m.from, r)
    /\ G!SetViews(r :> G!RecvPurgeSyncView(G!View(r), r, m, purged))
    /\ pnet' = ConsumeP(m)
    /\ UNCHANGED <<baseVars, sess, snet, connId, seen, now>>

\* GatherServer.mergeTs: TS[r][from] := max(TS[r][from], ts) (Z11).
MergeTs(r, from, ts) == TS' = [TS EXCEPT ![r][from] = Max(@, ts)]

\* GatherServer.recvPeerSync at r, ONE step: the TS merge, then the purge.
RecvPeerSyncWith(r, m, purged(_, _, _)) ==
    /\ PurgeStep(r, m, purged)
    /\ MergeTs(r, m.from, m.ts)
    /\ lastAction' = RecvPeerSyncAction(r, m)

\* ExactlyOnceTimed's RecvDT, and the reply's D remembered for purging
\* (GatherServer.recvD: known.put(from, d)).
RememberReply(s, m) ==
    /\ known' = [known EXCEPT ![s][m.from] = m.d]
    /\ UNCHANGED <<pnet, seen, entered, knownK, knownSeen>>

\* GatherServer.crash: the reports are lost; K, D, TS, numbers are durable.
LoseReports(s) ==
    /\ known' = [known EXCEPT ![s] = G!NoReports]
    /\ knownK' = [knownK EXCEPT ![s] = G!NoReports]
    /\ knownSeen' = [knownSeen EXCEPT ![s] = G!NoWatermarks]
    /\ UNCHANGED <<pnet, seen, entered>>

\* A crash of a server without a session: the reports alone are lost, as
\* ExactlyOnceS4Msg's IdleCrashM says (stuttering for the atomic specs,
\* outside the fault budget; found by trace validation).
IdleCrashT(s) ==
    /\ sess[s] = Idle
    /\ LoseReports(s)

LosePeerSyncT(m) ==
    /\ m \in pnet
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ pnet' = pnet \ {m}
    /\ lastAction' = [name |-> "Lose", type |-> m.type, from |-> m.from, to |-> m.to, k |-> m.k,
                      d |-> m.d, seen |-> m.seen, ts |-> m.ts]
    /\ UNCHANGED <<net, conn, created, delivered, gatherVars, timedVars, seen, entered, reportVars>>

-----------------------------------------------------------------------------
\* Trap: no server ever purges (a model whose receipts never purge checks
\* nothing of the purge; TLC must refute this where a model claims to).
NeverPurged == \A s \in Servers : created \subseteq K[s]

\* Under atomic replication every server numbers a note alike: by creation.
NumberedAlike == G!NumberedAlike
=============================================================================
