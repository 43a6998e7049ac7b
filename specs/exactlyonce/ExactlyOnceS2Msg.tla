--------------------------- MODULE ExactlyOnceS2Msg ---------------------------
(***************************************************************************)
(* Strategy 2 (sec. 3.2, L91-121) with the sync as request and reply       *)
(* messages, as S2Server and StreamServer run it (issue 20 item 1).        *)
(* ExactlyOnceS2's one atomic Sync(s, t) becomes three steps:               *)
(*   StartSync(s)        StreamServer.startSync: round := round + 1, and a  *)
(*                       request to every other server carrying the round,  *)
(*                       s's K (wire ids), its removed ids and its seen;    *)
(*   HandleSync(m)       StreamServer.handleSync: merge the request, reply  *)
(*                       with the same round and t's K, removed and seen    *)
(*                       after the merge;                                   *)
(*   ReceiveSyncReply(m) StreamServer.receiveSyncReply: merge the reply,    *)
(*                       then S2Server.confirm records the confirmations.   *)
(* Requests and replies travel on snet (a set: reordered, delayed, lost by *)
(* LoseSync, a fault; each is taken once), so a message built before a     *)
(* number was reused can arrive after it.  What the cores keep for that:   *)
(* - removed[s]: the wire ids s knows delivered (StreamServer.removed; no  *)
(*   incarnation: the wire id is all a message can name);                 *)
(* - seen[s], entered[s][x][k]: every note entering K gets the next number *)
(*   (StreamServer.enter); a message carries its sender's seen;           *)
(* - round[s], issued[x][k]: x's sync counter, and the round in which x    *)
(*   issued its current note numbered k (StreamServer.round, issued).      *)
(* The rules, each with a mutant under mutants/:                           *)
(*   merge    a removal w in a message applies (K loses w, removed gains   *)
(*            w) unless the receiver holds an incarnation of w numbered    *)
(*            above the message's seen (StreamServer.mergeRemoval): that   *)
(*            one is newer than anything the sender removed                *)
(*            (MutS2MsgNoWatermark, the stale sync);                       *)
(*   reuse    a new incarnation drops its wire id from removed everywhere  *)
(*            (createNote's dropRemoved at x, S2Server.acceptReplica at    *)
(*            the others; one step under atomic replication, Z1)           *)
(*            (MutS2MsgKeepRemovedOnReuse);                                *)
(*   confirm  a reply of y confirms x's number k gone iff x.k is not in    *)
(*            the reply's K and either k was never issued, or the reply's  *)
(*            round is later than issued[x][k] and the reply lists x.k as  *)
(*            removed (S2Server.confirm) (MutS2MsgConfirmAnyRound drops    *)
(*            the round; the K and removed tests are each redundant under  *)
(*            atomic replication: MutS2MsgConfirmIgnoresRemoved and        *)
(*            MutS2MsgConfirmIgnoresK pass, negative controls);            *)
(*   issue    creating x.k clears conf of k and records issued[x][k] :=    *)
(*            round[x] (createNote: conf.remove, issued.put)               *)
(*            (MutS2MsgCreateKeepsConf).                                   *)
(*                                                                         *)
(* Condition 1 is ExactlyOnceS2's MayUse, with ~CopyOfSeq for the T_e     *)
(* wait (the untimed level, specs/CONVENTIONS.md "Time"), plus one         *)
(* conjunct: no ack of the old incarnation of the number being issued is   *)
(* on the way (MayUse says why; TLC found it: MutS2MsgGateIgnoresAcks).    *)
(* Not on ExactlyOnceS2Timed's clock: its GateImpliesNoCopy rests on "x's  *)
(* K loses x.k at the latest in the sync that brings the last              *)
(* confirmation", which stays true here (S2Server.confirm runs after the   *)
(* merge of the same reply, whose removals name x.k and whose seen covers  *)
(* the current incarnation, issued before the request), so the untimed     *)
(* guard is what the wait achieves at this level too; a timed message      *)
(* level is not built (TLC does not check this argument).                  *)
(*                                                                         *)
(* Replication stays atomic (Z1): a note enters every K at once, numbered  *)
(* alike everywhere (NumberedAlike).  How this relates to ExactlyOnceS2:   *)
(* MCExactlyOnceS2Msg.                                                     *)
(***************************************************************************)
EXTENDS ExactlyOnceBase, Integers

CONSTANTS
    Origins,   \* servers at which notes are generated (a model bound)
    W,         \* size of the sequence space
    MaxRound   \* model bound on each server's sync rounds

ASSUME OriginsAreServers == Origins # {} /\ Origins \subseteq Servers
ASSUME SpaceIsTwoOrMore  == W \in Nat /\ W >= 2
ASSUME RoundBoundIsNat   == MaxRound \in Nat

VARIABLES
    ctr,      \* server, durable: notes generated here so far (next seq = ctr % W)
    K,        \* server, durable: to-be-delivered notes
    conf,     \* server, durable: conf[x][y] = seqs of stream x that y confirmed gone
    sess,     \* server, volatile: [active, pending] of the HandleClient session
    R,        \* client, stable: R[x] = last accepted seq of stream x, in 0..W-1
    removed,  \* server, durable: wire ids known delivered (StreamServer.removed)
    round,    \* server, durable: syncs started (StreamServer.round)
    issued,   \* server, durable: issued[x][k] = round[x] when x.k was last issued, or Never
    seen,     \* server, durable: how many notes have entered its K (StreamServer.seen)
    entered,  \* server, durable: note Nth(x, k) -> its number here, entered[s][x][k], 0 if not in K
              \* (StreamServer.entered); keyed by origin and Ord so a trace renders it
    snet      \* the servers' network: sync requests and replies

s2Vars == <<ctr, K, conf, sess, R>>
msgVars == <<removed, round, issued, seen, entered, snet>>
stratVars == <<s2Vars, msgVars>>
vars == <<baseVars, stratVars, lastAction>>

ActionNames == {"Init", "CreateNote", "Connect", "Disconnect", "StartSession", "SendNote",
                "ReceiveNote", "ReceiveAck", "Timeout", "StartSync", "HandleSync",
                "ReceiveSyncReply", "ClientCrash", "ServerCrash", "Lose", "LoseSync"}

Seqs == 0..(W - 1)
Never == -1
Nth(x, k) == [server |-> x, seq |-> k % W, inc |-> k \div W]
Ord(i) == i.inc * W + i.seq
NoteUniverse == {Nth(x, k) : x \in Origins, k \in 0..(MaxNotes - 1)}
Idle == [active |-> FALSE, pending |-> <<>>]
\* The wire id of a note: what the cores and every message name.
Wire(i) == [server |-> i.server, seq |-> i.seq]
WireIds == {[server |-> x, seq |-> k] : x \in Origins, k \in Seqs}
Wires(S) == {Wire(i) : i \in S}
\* entered is keyed by origin and Ord (Nth(x, k) is the note with Ord k), not by the
\* note record: a trace renders only string and integer keys (specs/CONVENTIONS.md).
NoteNums == 0..(MaxNotes - 1)
NotNumbered == [x \in Origins |-> [k \in NoteNums |-> 0]]
Ent(s, i) == entered[s][i.server][Ord(i)]

\* EoMessage.SyncRequest / SyncReply: from, to, round, K, removed, seen (d is S3's, empty here).
SyncMsg(type, from, to, rnd, k, rem, sn) ==
    [type |-> type, from |-> from, to |-> to, round |-> rnd, k |-> k, removed |-> rem, seen |-> sn]

TypeOK ==
    /\ BaseTypeOK
    /\ created \subseteq NoteUniverse
    /\ ctr \in [Servers -> 0..MaxNotes]
    /\ K \in [Servers -> SUBSET NoteUniverse]
    /\ conf \in [Servers -> [Servers -> SUBSET Seqs]]
    /\ sess \in [Servers -> [active : BOOLEAN, pending : Seq(NoteUniverse)]]
    /\ \A s \in Servers : Len(sess[s].pending) <= 1
    /\ R \in [Servers -> Seqs]
    /\ \A m \in net : m.type \in {"note", "ack"} /\ m.note \in NoteUniverse
    /\ removed \in [Servers -> SUBSET WireIds]
    /\ round \in [Servers -> 0..MaxRound]
    /\ issued \in [Servers -> [Seqs -> {Never} \cup 0..MaxRound]]
    /\ seen \in [Servers -> 0..MaxNotes]
    /\ entered \in [Servers -> [Origins -> [NoteNums -> 0..MaxNotes]]]
    /\ \A s \in Servers : \A i \in NoteUniverse : (Ent(s, i) # 0) <=> i \in K[s]
    /\ \A m \in snet : /\ m.type \in {"syncReq", "syncRep"} /\ {m.from, m.to} \subseteq Servers
                       /\ m.round \in 1..MaxRound /\ m.k \subseteq WireIds
                       /\ m.removed \subseteq WireIds /\ m.seen \in 0..MaxNotes

Init ==
    /\ BaseInit
    /\ ctr = [s \in Servers |-> 0]
    /\ K = [s \in Servers |-> {}]
    /\ conf = [x \in Servers |-> [y \in Servers |-> {}]]
    /\ sess = [s \in Servers |-> Idle]
    /\ R = [s \in Servers |-> W - 1]
    /\ removed = [s \in Servers |-> {}]
    /\ round = [s \in Servers |-> 0]
    /\ issued = [s \in Servers |-> [k \in Seqs |-> Never]]
    /\ seen = [s \in Servers |-> 0]
    /\ entered = [s \in Servers |-> NotNumbered]
    /\ snet = {}

-----------------------------------------------------------------------------
(* Condition 1 and the client side: ExactlyOnceS2's.                       *)

HasSeq(y, x, k) == \E i \in K[y] : i.server = x /\ i.seq = k
CopyOfSeq(x, k) == \E m \in net : m.type = "note" /\ m.note.server = x /\ m.note.seq = k
Condition1(x, k) ==
    /\ \A y \in Servers \ {x} : k \in conf[x][y]
    /\ ~HasSeq(x, x, k)
    /\ ~CopyOfSeq(x, k)
SuccessorUsed(x) == ctr[x] + 1 >= W
\* ExactlyOnceS2's MayUse with one more conjunct: no ack of the number being
\* issued, x.(ctr % W), is on the way.  ExactlyOnceS2 can leave it out: its
\* ReceiveAck removes the acked incarnation, a no-op once the old one is
\* gone.  The cores key K, the pending Deliver and removed by wire id, so a
\* late ack of the old x.s would remove the new one (StreamServer.receiveAck:
\* pending.equals(id), then remove(id)), and this spec's removed, by wire
\* id, names it delivered (RemovedWasProcessed, AcksAreCurrent fail without
\* the conjunct: MutS2MsgGateIgnoresAcks, TLC's counterexample).  The timed
\* gate gives it: when x.(s+1) was created no copy of x.s was left
\* (Condition 1 then), so every ack of x.s was sent before that; x.s is
\* reused only T_e after a confirmation of x.(s+1), which answers a request
\* sent after x.(s+1) was issued, and by then the ack has lived T_e
\* (ExactlyOnceS2Timed's Tick drops every kind of message).  A stronger
\* guard than ExactlyOnceS2's, so StepsRefineAtomic still holds.
\* ExactlyOnceS2 itself reaches the state (AllowDup = FALSE, one fault, 19
\* steps: A's ack of the old A.0 on the way, A's Deliver of it pending, A
\* holding the new A.0), where S2Server.receiveAck would drop the new A.0
\* and the spec's ReceiveAck keeps it: a trace of it would not replay.
AckOfSeq(x, k) == \E m \in net : m.type = "ack" /\ m.note.server = x /\ m.note.seq = k
MayUseWith(x, ackGuard) ==
    /\ ~SuccessorUsed(x) \/ Condition1(x, (ctr[x] + 1) % W)
    /\ ackGuard => ~AckOfSeq(x, ctr[x] % W)
MayUse(x) == MayUseWith(x, TRUE)

\* Rule "issue" and rule "reuse".  StreamServer.createNote: enter (every
\* server numbers the note alike, Z1), dropRemoved, ctr++, and
\* issued.put(seq, round), conf.remove(seq); at the others receiveReplica's
\* acceptReplica drops the removal too.  A parameter so that a mutant can
\* change one part (the removals kept, the confirmations kept).
CreateNoteWith(x, mayUse, newRemoved, newConf) ==
    /\ x \in Origins
    /\ Cardinality(created) < MaxNotes
    /\ mayUse
    /\ LET i == Nth(x, ctr[x]) IN
         /\ ctr' = [ctr EXCEPT ![x] = @ + 1]
         /\ K' = [s \in Servers |-> K[s] \cup {i}]
         /\ seen' = [s \in Servers |-> seen[s] + 1]
         /\ entered' = [s \in Servers |-> [entered[s] EXCEPT ![i.server][Ord(i)] = seen[s] + 1]]
         /\ removed' = newRemoved[i]
         /\ conf' = newConf[i]
         /\ issued' = [issued EXCEPT ![x][i.seq] = round[x]]
         /\ created' = created \cup {i}
         /\ lastAction' = [name |-> "CreateNote", server |-> x, note |-> i]
    /\ UNCHANGED <<net, conn, delivered, faults, sess, R, round, snet>>

DropRemoved == [i \in NoteUniverse |-> [s \in Servers |-> removed[s] \ {Wire(i)}]]
ClearConf == [i \in NoteUniverse |->
                [conf EXCEPT ![i.server] = [y \in Servers |-> conf[i.server][y] \ {i.seq}]]]

CreateNote(x) == CreateNoteWith(x, MayUse(x), DropRemoved, ClearConf)

Connect(s) == ConnectBase(s) /\ UNCHANGED stratVars
Disconnect == DisconnectBase /\ UNCHANGED stratVars

StartSession(s) ==
    /\ conn = s
    /\ ~sess[s].active
    /\ sess' = [sess EXCEPT ![s] = [active |-> TRUE, pending |-> <<>>]]
    /\ lastAction' = [name |-> "StartSession", server |-> s]
    /\ UNCHANGED <<baseVars, ctr, K, conf, R, msgVars>>

FirstOfStream(s, i) == ~\E j \in K[s] : j.server = i.server /\ Ord(j) < Ord(i)

SendNote(s, i) ==
    /\ sess[s].active
    /\ sess[s].pending = <<>>
    /\ i \in K[s]
    /\ FirstOfStream(s, i)
    /\ net' = net \cup {NoteMsg(s, i)}
    /\ sess' = [sess EXCEPT ![s].pending = <<i>>]
    /\ lastAction' = [name |-> "SendNote", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, K, conf, R, msgVars>>

Expected(i) == i.seq = (R[i.server] + 1) % W

ReceiveNote(m) ==
    /\ m \in net
    /\ m.type = "note"
    /\ conn # None
    /\ MayReceive
    /\ LET i == m.note IN
         /\ net' = Consume(m) \cup {AckMsg(m.from, i)}
         /\ IF Expected(i)
            THEN /\ R' = [R EXCEPT ![i.server] = i.seq]
                 /\ delivered' = Append(delivered, i)
            ELSE UNCHANGED <<R, delivered>>
         /\ lastAction' = [name |-> "ReceiveNote", server |-> m.from, note |-> i,
                           verdict |-> IF Expected(i) THEN "accepted" ELSE "discarded"]
    /\ UNCHANGED <<conn, created, faults, ctr, K, conf, sess, msgVars>>

\* StreamServer.receiveAck: remove(id), K loses it and removed gains its wire id.
ReceiveAck(m) ==
    /\ m \in net
    /\ m.type = "ack"
    /\ sess[m.to].pending = <<m.note>>
    /\ net' = Consume(m)
    /\ K' = [K EXCEPT ![m.to] = @ \ {m.note}]
    /\ entered' = [entered EXCEPT ![m.to][m.note.server][Ord(m.note)] = 0]
    /\ removed' = [removed EXCEPT ![m.to] = @ \cup {Wire(m.note)}]
    /\ sess' = [sess EXCEPT ![m.to].pending = <<>>]
    /\ lastAction' = [name |-> "ReceiveAck", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, conf, R, round, issued, seen, snet>>

Timeout(s) ==
    /\ sess[s].active
    /\ sess[s].pending # <<>>
    /\ LET i == sess[s].pending[1] IN
         /\ faults + TimeoutCost(s, i) <= MaxFaults
         /\ faults' = faults + TimeoutCost(s, i)
         /\ lastAction' = [name |-> "Timeout", server |-> s, note |-> i]
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<net, conn, created, delivered, ctr, K, conf, R, msgVars>>

-----------------------------------------------------------------------------
(* The sync, as the cores run it.                                           *)

\* StreamServer.startSync: a new round, one request to every other server.
\* Model bound: a server starts a sync only when none of its own is on the
\* way (no request of it, no reply to it); the other server's syncs may be.
OwnSyncOnTheWay(s) ==
    \E m \in snet : (m.type = "syncReq" /\ m.from = s) \/ (m.type = "syncRep" /\ m.to = s)

StartSync(s) ==
    /\ round[s] < MaxRound
    /\ ~OwnSyncOnTheWay(s)
    /\ round' = [round EXCEPT ![s] = @ + 1]
    /\ snet' = snet \cup {SyncMsg("syncReq", s, t, round[s] + 1, Wires(K[s]), removed[s], seen[s]) :
                           t \in Servers \ {s}}
    /\ lastAction' = [name |-> "StartSync", server |-> s, round |-> round[s] + 1]
    /\ UNCHANGED <<baseVars, s2Vars, removed, issued, seen, entered>>

\* Rule "merge" (StreamServer.mergeRemoval): the removals of message m that
\* r applies.  A parameter so that a mutant can drop the watermark.
HeldNewer(r, w, sn) == \E i \in K[r] : Wire(i) = w /\ Ent(r, i) > sn
AppliedWith(r, m, watermark) == {w \in m.removed : ~(watermark /\ HeldNewer(r, w, m.seen))}

\* The merge of m at r: K loses the applied wire ids, removed gains them.
MergeWith(r, m, watermark) ==
    LET ap == AppliedWith(r, m, watermark)
        kr == {i \in K[r] : Wire(i) \notin ap}
    IN /\ K' = [K EXCEPT ![r] = kr]
       /\ entered' = [entered EXCEPT ![r] = [x \in Origins |-> [k \in NoteNums |->
                                               IF Nth(x, k) \in kr THEN @[x][k] ELSE 0]]]
       /\ removed' = [removed EXCEPT ![r] = @ \cup ap]

\* What t replies after merging request m (its state after the merge).
ReplyTo(m, watermark) ==
    LET t == m.to
        ap == AppliedWith(t, m, watermark)
    IN SyncMsg("syncRep", t, m.from, m.round, Wires({i \in K[t] : Wire(i) \notin ap}),
               removed[t] \cup ap, seen[t])

HandleSyncWith(m, watermark) ==
    /\ m \in snet
    /\ m.type = "syncReq"
    /\ MergeWith(m.to, m, watermark)
    /\ snet' = (snet \ {m}) \cup {ReplyTo(m, watermark)}
    /\ lastAction' = [name |-> "HandleSync", server |-> m.to, peer |-> m.from, round |-> m.round]
    /\ UNCHANGED <<baseVars, ctr, conf, sess, R, round, issued, seen>>

\* Rule "confirm" (S2Server.confirm): the numbers of x's stream that reply
\* m confirms gone.  A parameter so that a mutant can weaken one test.
ConfirmsWith(x, m, Test(_, _, _)) == {k \in Seqs : Test(x, m, k)}
ConfirmTest(x, m, k) ==
    LET id == [server |-> x, seq |-> k] IN
    /\ id \notin m.k
    /\ \/ issued[x][k] = Never
       \/ m.round > issued[x][k] /\ id \in m.removed

ReceiveSyncReplyWith(m, watermark, Test(_, _, _)) ==
    /\ m \in snet
    /\ m.type = "syncRep"
    /\ MergeWith(m.to, m, watermark)
    /\ conf' = [conf EXCEPT ![m.to][m.from] = @ \cup ConfirmsWith(m.to, m, Test)]
    /\ snet' = snet \ {m}
    /\ lastAction' = [name |-> "ReceiveSyncReply", server |-> m.to, peer |-> m.from, round |-> m.round]
    /\ UNCHANGED <<baseVars, ctr, sess, R, round, issued, seen>>

HandleSync(m) == HandleSyncWith(m, TRUE)
ReceiveSyncReply(m) == ReceiveSyncReplyWith(m, TRUE, ConfirmTest)

\* A request or reply is lost (a fault: one unit of MaxFaults).
LoseSync(m) ==
    /\ m \in snet
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ snet' = snet \ {m}
    /\ lastAction' = [name |-> "LoseSync", type |-> m.type, from |-> m.from, to |-> m.to]
    /\ UNCHANGED <<net, conn, created, delivered, s2Vars, removed, round, issued, seen, entered>>

ClientCrash == ClientCrashBase /\ UNCHANGED stratVars

\* Everything but the session is durable (Z13; ServerDurableState).
ServerCrash(s) ==
    /\ sess[s] # Idle
    /\ ServerCrashBase(s)
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<ctr, K, conf, R, msgVars>>

LoseMsg(m) == Lose(m) /\ UNCHANGED stratVars

-----------------------------------------------------------------------------
CreateNext      == \E x \in Origins : CreateNote(x)
SendNext(s)     == \E i \in K[s] : SendNote(s, i)
ReceiveNoteNext == \E m \in net : ReceiveNote(m)
ReceiveAckNext  == \E m \in net : ReceiveAck(m)
ConnectNext     == \E s \in Servers : Connect(s)
SyncNext        == \E m \in snet : HandleSync(m) \/ ReceiveSyncReply(m)
ClientFaultNext == Disconnect \/ ClientCrash \/ (\E m \in net : LoseMsg(m))
                   \/ (\E m \in snet : LoseSync(m))
ServerNext(s)   == StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ StartSync(s) \/ ServerCrash(s)

\* Next with the creation and the two sync receipts as parameters (mutants).
NextWith(create, sync) ==
    \/ create
    \/ ConnectNext
    \/ \E s \in Servers : ServerNext(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ sync
    \/ ClientFaultNext

Next == NextWith(CreateNext, SyncNext)

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* Properties: ExactlyOnceS2's, and what the knowledge must satisfy.        *)

NotLost == \A i \in created : ~Processed(i) => \A s \in Servers : i \in K[s]

OneIncarnation ==
    \A i, j \in created :
        (i.server = j.server /\ i.seq = j.seq /\ i # j) =>
            \/ \A s \in Servers : i \notin K[s] /\ NoteMsg(s, i) \notin net
            \/ \A s \in Servers : j \notin K[s] /\ NoteMsg(s, j) \notin net

RIsLastProcessed ==
    \A x \in Origins : ctr[x] > 0 /\ Processed(Nth(x, 0)) =>
        \E k \in 0..(ctr[x] - 1) : /\ Processed(Nth(x, k)) /\ R[x] = k % W
                                   /\ \A k2 \in (k + 1)..(ctr[x] - 1) : ~Processed(Nth(x, k2))

\* The latest incarnation of wire id w created so far (w was issued).
Latest(w) == CHOOSE i \in created : Wire(i) = w /\ \A j \in created : Wire(j) = w => Ord(j) <= Ord(i)
Issued(w) == \E i \in created : Wire(i) = w

\* A removal a server holds speaks of a processed note: the latest
\* incarnation of its wire id (a reuse drops the removal everywhere).
RemovedWasProcessed ==
    \A s \in Servers : \A w \in removed[s] : Issued(w) /\ Processed(Latest(w))

\* Every ack on the way is of the latest incarnation of its wire id, so the
\* cores' wire-id keyed pending and K (StreamServer.receiveAck) remove the
\* note this spec's ReceiveAck removes.
AcksAreCurrent == \A m \in net : m.type = "ack" => m.note = Latest(Wire(m.note))

\* A confirmation is true: y holds no note of x numbered k (until a new
\* x.k is issued, which clears it).  What Condition 1 reads.
ConfTruthful ==
    \A x \in Origins : \A y \in Servers \ {x} : \A k \in conf[x][y] : ~HasSeq(y, x, k)

\* Under atomic replication every server numbers a note alike, and seen is
\* the number of notes created.
NumberedAlike ==
    /\ \A s \in Servers : seen[s] = Cardinality(created)
    /\ \A s, t \in Servers : \A i \in K[s] \cap K[t] : Ent(s, i) = Ent(t, i)
=============================================================================
