---------------------------- MODULE ExactlyOnceS4Msg ----------------------------
(***************************************************************************)
(* Strategy 4 with the purge syncs as messages: the level of GatherServer, *)
(* where ExactlyOnceGather's PurgeSyncG(s, t) is one atomic exchange that   *)
(* reads every server's D directly.  L213: "Exactly as in Strategy 3 (Id    *)
(* List), the servers periodically synchronize to reclaim space in their K  *)
(* and D lists.  In particular, messages whose delivery is known to all     *)
(* servers are purged"; the messages are A.4's (L543-618) without the       *)
(* client.                                                                  *)
(*                                                                         *)
(* Every other action is ExactlyOnceS4's (this module EXTENDS it and       *)
(* replaces only PurgeSync).  A purge sync is what the core sends and      *)
(* handles: a DSync from s to t carrying s's K, D and watermark `seen` as  *)
(* they were at the send (EoMessage.DSync; the ts field is S5/S6's and 0   *)
(* here), on its own network `pnet` (lost, reordered, delayed, duplicated  *)
(* as snet is).  The core answers a DSync with no reply: the exchange of   *)
(* the atomic PurgeSync is t's own DSync to s, a message like any other,   *)
(* which may be lost, late, or never sent.                                 *)
(*                                                                         *)
(* RecvPurgeSync is GatherServer.recvPurgeSync line for line:              *)
(* - a note of our D missing from the message's K was purged by its sender *)
(*   (A.4 L545's K-difference), if the message could have known it: its   *)
(*   number here is at most the message's seen (the watermark; without it  *)
(*   a DSync built before the note existed purges it here, and the sender,  *)
(*   which holds it undelivered, gathers Ds without it and delivers it      *)
(*   again: MutS4MsgNoWatermark);                                          *)
(* - the message's D joins ours, within our K;                             *)
(* - what the sender reported is remembered (known, knownK, knownSeen);    *)
(*   a RecvD reply's D is remembered too (GatherServer.recvD);              *)
(* - then a note we had in D before this merge is purged when every other  *)
(*   server reported it in D, or reported a K without it that could have   *)
(*   known it (KnownToOthers), the message's sender included.              *)
(* The reports are volatile: a server crash loses them.                    *)
(*                                                                         *)
(* Numbers as in ExactlyOnceS3Msg: `entered` (0 when not in K) and `seen`,  *)
(* alike at every server under the base's atomic replication (Z1).         *)
(***************************************************************************)
EXTENDS ExactlyOnceS4, TLC

VARIABLES
    pnet,       \* purge syncs on the way: a set of DSync messages
    seen,       \* server, durable: how many notes have entered its K
    entered,    \* server, durable: note -> its number here, 0 if not in K
    known,      \* server, volatile: known[s][t] = the D t last reported (DSync or D reply)
    knownK,     \* server, volatile: knownK[s][t] = the K t last reported in a DSync
    knownSeen   \* server, volatile: knownSeen[s][t] = that report's watermark

reportVars == <<known, knownK, knownSeen>>
msgVars == <<pnet, seen, entered, reportVars>>
allVars == <<vars, msgVars>>

MsgActionNames == (ActionNames \ {"PurgeSync"}) \cup {"SendPurgeSync", "RecvPurgeSync"}

DSync(from, to, k, d, sn) == [type |-> "dsync", from |-> from, to |-> to, k |-> k, d |-> d, seen |-> sn]

NotNumbered == [i \in NoteUniverse |-> 0]
\* No report yet: a D of nothing and a K of nothing that vouches for no note
\* (watermark 0, as EoMessage's seen = 0).
NoReports == [t \in Servers |-> {}]
NoWatermarks == [t \in Servers |-> 0]

MsgTypeOK ==
    /\ TypeOK
    /\ \A m \in pnet : m.type = "dsync" /\ {m.from, m.to} \subseteq Servers /\ m.from # m.to
                       /\ m.k \subseteq NoteUniverse /\ m.d \subseteq m.k /\ m.seen \in 0..MaxNotes
    /\ seen \in [Servers -> 0..MaxNotes]
    /\ entered \in [Servers -> [NoteUniverse -> 0..MaxNotes]]
    /\ \A s \in Servers : \A i \in NoteUniverse : (entered[s][i] # 0) <=> i \in K[s]
    /\ known \in [Servers -> [Servers -> SUBSET NoteUniverse]]
    /\ knownK \in [Servers -> [Servers -> SUBSET NoteUniverse]]
    /\ knownSeen \in [Servers -> [Servers -> 0..MaxNotes]]

MsgInit ==
    /\ Init
    /\ pnet = {}
    /\ seen = [s \in Servers |-> 0]
    /\ entered = [s \in Servers |-> NotNumbered]
    /\ known = [s \in Servers |-> NoReports]
    /\ knownK = [s \in Servers |-> NoReports]
    /\ knownSeen = [s \in Servers |-> NoWatermarks]

ConsumeP(m) == IF AllowDup THEN pnet ELSE pnet \ {m}

Same(A) == A /\ UNCHANGED msgVars

-----------------------------------------------------------------------------
\* What of s a purge sync reads and writes, as one value (so that the
\* receipt is a function, which ImmediatePurgeSync composes).
View(s) == [k |-> K[s], d |-> D[s], ent |-> entered[s], known |-> known[s], knownK |-> knownK[s],
            knownSeen |-> knownSeen[s]]

\* Sets the views of the servers in DOMAIN vs, the others unchanged.
SetViews(vs) ==
    LET V(u) == IF u \in DOMAIN vs THEN vs[u] ELSE View(u) IN
    /\ K' = [u \in Servers |-> V(u).k]
    /\ D' = [u \in Servers |-> V(u).d]
    /\ entered' = [u \in Servers |-> V(u).ent]
    /\ known' = [u \in Servers |-> V(u).known]
    /\ knownK' = [u \in Servers |-> V(u).knownK]
    /\ knownSeen' = [u \in Servers |-> V(u).knownSeen]

\* GatherServer.purgedPerReport: a report's K says its sender purged i when
\* i is missing from it and the report could have known i.
PurgedPerReport(v, i, k, sn) == i \notin k /\ v.ent[i] <= sn

\* GatherServer.knownToOthers at server r: every other server reported i in
\* its D, or reported a K without it (after it had it in D).
KnownToOthers(v, r, i) ==
    \A u \in Servers \ {r} : i \in v.known[u] \/ PurgedPerReport(v, i, v.knownK[u], v.knownSeen[u])

\* GatherServer.recvPurgeSync at r for message m, with the K-difference rule
\* `purged(v, i, m)` (the core's: PurgedPerReport with the message's K and
\* seen; a mutant passes its own).
RecvPurgeSyncView(v, r, m, purged(_, _, _)) ==
    LET gone1 == {i \in v.d : purged(v, i, m)}
        K1 == v.k \ gone1
        D1 == (v.d \ gone1) \cup (m.d \cap K1)
        v1 == [v EXCEPT !.k = K1, !.d = D1,
                        !.known = [@ EXCEPT ![m.from] = m.d],
                        !.knownK = [@ EXCEPT ![m.from] = m.k],
                        !.knownSeen = [@ EXCEPT ![m.from] = m.seen]]
        \* "we before this merge": a note in our D before it, or purged here
        gone2 == {i \in D1 : (i \in v.d \/ i \notin v.k) /\ KnownToOthers(v1, r, i)}
        K2 == K1 \ gone2
    IN [v1 EXCEPT !.k = K2, !.d = D1 \ gone2,
                  !.ent = [i \in NoteUniverse |-> IF i \in K2 THEN v.ent[i] ELSE 0]]

Purged(v, i, m) == PurgedPerReport(v, i, m.k, m.seen)

-----------------------------------------------------------------------------
\* L146 as ExactlyOnceGather's CreateNoteG, and the note's number at every
\* server (GatherServer.enter: entered.put(id, ++seen)).
CreateNoteM ==
    /\ CreateNote
    /\ LET i == NoteIds[Cardinality(created) + 1] IN
         /\ seen' = [s \in Servers |-> seen[s] + 1]
         /\ entered' = [s \in Servers |-> [entered[s] EXCEPT ![i] = seen[s] + 1]]
    /\ UNCHANGED <<pnet, reportVars>>

\* GatherServer.sync(t): our K, D and watermark now, to t (periodically, L213).
SendPurgeSync(s, t) ==
    /\ s # t
    /\ Link(s, t)
    /\ DSync(s, t, K[s], D[s], seen[s]) \notin pnet
    /\ pnet' = pnet \cup {DSync(s, t, K[s], D[s], seen[s])}
    /\ lastAction' = [name |-> "SendPurgeSync", server |-> s, peer |-> t, k |-> K[s], d |-> D[s],
                      seen |-> seen[s]]
    /\ UNCHANGED <<baseVars, gatherVars, seen, entered, reportVars>>

RecvPurgeSyncWith(r, m, purged(_, _, _)) ==
    /\ m \in pnet
    /\ m.to = r
    /\ Link(m.from, r)
    /\ SetViews(r :> RecvPurgeSyncView(View(r), r, m, purged))
    /\ pnet' = ConsumeP(m)
    /\ lastAction' = [name |-> "RecvPurgeSync", server |-> r, peer |-> m.from, k |-> m.k, d |-> m.d,
                      seen |-> m.seen]
    /\ UNCHANGED <<baseVars, sess, snet, connId, seen>>

RecvPurgeSync(r, m) == RecvPurgeSyncWith(r, m, Purged)

\* ExactlyOnceGather's RecvDG, and the reply's D remembered for purging
\* (GatherServer.recvD: known.put(from, d)).
RecvDM(s, m) ==
    /\ RecvD(s, m)
    /\ known' = [known EXCEPT ![s][m.from] = m.d]
    /\ UNCHANGED <<pnet, seen, entered, knownK, knownSeen>>

\* A.6's purge at the end of the gather drops notes, and their numbers.
EndGatherM(s) ==
    /\ EndGather(s)
    /\ entered' = [entered EXCEPT ![s] = [i \in NoteUniverse |-> IF i \in K'[s] THEN entered[s][i] ELSE 0]]
    /\ UNCHANGED <<pnet, seen, reportVars>>

\* ExactlyOnceGather's ServerCrashG, and the reports are lost (GatherServer.crash).
ServerCrashM(s) ==
    /\ ServerCrash(s)
    /\ known' = [known EXCEPT ![s] = NoReports]
    /\ knownK' = [knownK EXCEPT ![s] = NoReports]
    /\ knownSeen' = [knownSeen EXCEPT ![s] = NoWatermarks]
    /\ UNCHANGED <<pnet, seen, entered>>

\* A crash of a server without a session.  ExactlyOnceGather's ServerCrashG
\* needs one (without a session nothing of the gather state is volatile),
\* but GatherServer.crash loses the peers' reports in every crash, and a
\* server may crash at any time.  So this step loses the reports alone: it
\* is stuttering for ExactlyOnceS4 (the refinement is untouched) and spends
\* nothing of MaxFaults.  Losing knowledge only ever purges less; with this
\* step the safety models check that rather than assume it.  Found by trace
\* validation: TraceExactlyOnceS4 had to take such a crash as a step of its
\* own (ForgetReports) until the spec had it.  lastAction is left alone, as
\* an atomic-level variable.
IdleCrashM(s) ==
    /\ sess[s] = Idle
    /\ known' = [known EXCEPT ![s] = NoReports]
    /\ knownK' = [knownK EXCEPT ![s] = NoReports]
    /\ knownSeen' = [knownSeen EXCEPT ![s] = NoWatermarks]
    /\ UNCHANGED <<vars, pnet, seen, entered>>

LosePurgeSync(m) ==
    /\ m \in pnet
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ pnet' = pnet \ {m}
    /\ lastAction' = [name |-> "Lose", type |-> m.type, from |-> m.from, to |-> m.to]
    /\ UNCHANGED <<net, conn, created, delivered, gatherVars, seen, entered, reportVars>>

-----------------------------------------------------------------------------
\* ExactlyOnceS4's Next with PurgeSync replaced by its message steps.
MsgNextWith(purgeSync(_)) ==
    \/ CreateNoteM
    \/ Same(ConnectNext)
    \/ \E s \in Servers :
         \/ Same(StartSession(s)) \/ Same(GatherFail(s)) \/ EndGatherM(s) \/ Same(ADeliverNext(s))
         \/ Same(ReplyDNext(s)) \/ \E m \in snet : RecvDM(s, m)
         \/ \E t \in Servers : Same(ReqD(s, t))
         \/ purgeSync(s)
    \/ Same(Disconnect \/ ClientCrash \/ \E m \in snet : LoseMsg(m))
    \/ \E s \in Servers : ServerCrashM(s) \/ IdleCrashM(s) \/ Same(\E i \in K[s] : ADeliverErr(s, i))
    \/ \E m \in pnet : LosePurgeSync(m)

PurgeSyncMsgWith(s, purged(_, _, _)) ==
    \/ \E t \in Servers : SendPurgeSync(s, t)
    \/ \E m \in pnet : RecvPurgeSyncWith(s, m, purged)

MsgNext == MsgNextWith(LAMBDA s : PurgeSyncMsgWith(s, Purged))

MsgSpec == MsgInit /\ [][MsgNext]_allVars

\* An immediate exchange, as trace replay performs the atomic PurgeSync(s, t)
\* (GatherCores.purgeSync): every other server's DSync reaches s and t as
\* knowledge (learnSync), then s's and t's DSyncs, both built before either
\* merges, are received, t's first; nothing is left in pnet.
ImmediatePurgeSync(s, t) ==
    LET learn(v, u) == [v EXCEPT !.known = [@ EXCEPT ![u] = D[u]], !.knownK = [@ EXCEPT ![u] = K[u]],
                                 !.knownSeen = [@ EXCEPT ![u] = seen[u]]]
        third == Servers \ {s, t}
        Learnt(x) == LET F[us \in SUBSET third] ==
                           IF us = {} THEN View(x)
                           ELSE LET u == CHOOSE u \in us : TRUE IN learn(F[us \ {u}], u)
                     IN F[third]
        st == DSync(s, t, K[s], D[s], seen[s])
        ts == DSync(t, s, K[t], D[t], seen[t])
        vt == RecvPurgeSyncView(Learnt(t), t, st, Purged)
        vs == RecvPurgeSyncView(Learnt(s), s, ts, Purged)
    IN /\ s # t
       /\ Link(s, t)
       /\ SetViews((s :> vs) @@ (t :> vt))
       /\ \/ vs.k # K[s] \/ vt.k # K[t] \/ vs.d # D[s] \/ vt.d # D[t]
       /\ lastAction' = [name |-> "PurgeSync", server |-> s, peer |-> t,
                         purged |-> (K[s] \cap K[t]) \ (vs.k \cup vt.k)]
       /\ UNCHANGED <<baseVars, sess, snet, connId, pnet, seen>>

ImmediateSpec == MsgInit /\ [][MsgNextWith(LAMBDA s : \E t \in Servers : ImmediatePurgeSync(s, t))]_allVars

-----------------------------------------------------------------------------
\* Under atomic replication every server numbers a note alike: by creation.
NumberedAlike ==
    \A s \in Servers : /\ seen[s] = Cardinality(created)
                       /\ \A k \in 1..MaxNotes : NoteIds[k] \in K[s] => entered[s][NoteIds[k]] = k
=============================================================================
