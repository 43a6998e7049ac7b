---------------------------- MODULE ExactlyOnceS2 ----------------------------
(***************************************************************************)
(* Strategy 2, Sequenced Wrap-around Streams (sec. 3.2, L91-121):          *)
(* "Client remembers latest sequence number from each server.  Sequence    *)
(* numbers wrap."                                                          *)
(*                                                                         *)
(* Strategy 1 with sequence numbers in 0..W-1.  The k-th note generated at *)
(* x (k from 0) has wire id x.(k % W); the spec also writes inc = k \div W *)
(* into the id, a ghost incarnation that is not on the wire, so that TLC   *)
(* tells the old A.0 from the new one (Z19).  The client accepts x.s iff   *)
(* s = (R[x] + 1) % W (R[x] starts at W-1, so the first note is x.0).      *)
(*                                                                         *)
(* Condition 1 (L107): "An id x.s can only be reused ... T_e time after    *)
(* server x has received confirmation from all other servers that note     *)
(* x.(s + 1) has been removed from their respective K lists."  The         *)
(* confirmations come with syncs: "y will reply with the current state of  *)
(* its K list.  If the reply says that y has already removed note x.(s+1)  *)
(* from K, x has effectively received a promise from y" (L109).  We also   *)
(* ask that x itself no longer has x.(s+1) (Z3: its own copies linger as   *)
(* well), and the T_e wait is the guard that no copy of x.(s+1) is left in *)
(* the network (ExactlyOnceBase, "Time is abstracted").  Condition 1 does  *)
(* not name x.s itself: with in-order delivery, x.(s+1) gone from a K      *)
(* means x.s gone from it too, which TLC checks (OneIncarnation).          *)
(***************************************************************************)
EXTENDS ExactlyOnceBase

CONSTANTS
    Origins,  \* servers at which notes are generated (a model bound)
    W         \* size of the sequence space

ASSUME OriginsAreServers == Origins # {} /\ Origins \subseteq Servers
ASSUME SpaceIsTwoOrMore  == W \in Nat /\ W >= 2   \* W = 1: s + 1 = s, every id "expected"

VARIABLES
    ctr,    \* server, durable: notes generated here so far (next seq = ctr % W)
    K,      \* server, durable: to-be-delivered notes
    conf,   \* server, durable: conf[x][y] = seqs of stream x that y confirmed gone from its K
    sess,   \* server, volatile: [active, pending] of the HandleClient session
    R       \* client, stable: R[x] = last accepted seq of stream x, in 0..W-1

stratVars == <<ctr, K, conf, sess, R>>
vars == <<baseVars, stratVars, lastAction>>

ActionNames == {"Init", "CreateNote", "Connect", "Disconnect", "StartSession", "SendNote",
                "ReceiveNote", "ReceiveAck", "Timeout", "Sync", "ClientCrash", "ServerCrash", "Lose"}

Seqs == 0..(W - 1)
\* The k-th note of stream x.
Nth(x, k) == [server |-> x, seq |-> k % W, inc |-> k \div W]
Ord(i) == i.inc * W + i.seq
NoteUniverse == {Nth(x, k) : x \in Origins, k \in 0..(MaxNotes - 1)}
Idle == [active |-> FALSE, pending |-> <<>>]

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

Init ==
    /\ BaseInit
    /\ ctr = [s \in Servers |-> 0]
    /\ K = [s \in Servers |-> {}]
    /\ conf = [x \in Servers |-> [y \in Servers |-> {}]]
    /\ sess = [s \in Servers |-> Idle]
    /\ R = [s \in Servers |-> W - 1]

-----------------------------------------------------------------------------
\* Server y holds some incarnation of x.k.
HasSeq(y, x, k) == \E i \in K[y] : i.server = x /\ i.seq = k
\* Some copy of some incarnation of x.k is in the network.
CopyOfSeq(x, k) == \E m \in net : m.type = "note" /\ m.note.server = x /\ m.note.seq = k

\* Condition 1 for reusing a seq whose successor is k: every other server
\* confirmed x.k gone, x has it no more, and T_e has passed (no copy left).
Condition1(x, k) ==
    /\ \A y \in Servers \ {x} : k \in conf[x][y]
    /\ ~HasSeq(x, x, k)
    /\ ~CopyOfSeq(x, k)

\* Condition 1 guards every generation of x.s whose successor x.(s+1) was
\* used before, which includes the first use of x.(W-1) (its successor x.0
\* was the stream's first note).  Read literally ("x.s can only be reused")
\* the first round would be unguarded, and TLC refutes that reading
\* (mutants/MutS2ConditionOnReuseOnly): the client, having accepted x.(W-1),
\* expects x.0 and takes a lingering copy of the old one.  L105 gives the
\* reason for our reading: after x.s the client expects x.(s+1), so "the
\* following id, x.(s + 1) [must] not [be] in use either".
SuccessorUsed(x) == ctr[x] + 1 >= W

\* No ack of the number being issued, x.(ctr % W), is on the way.  This
\* spec's ReceiveAck removes the acked incarnation, so a late ack of the
\* old x.s would be a no-op here; the cores key K, the pending Deliver and
\* removed by wire id, and such an ack removes the new x.s
\* (StreamServer.receiveAck: pending.equals(id), then remove(id)).  Like
\* ~CopyOfSeq, it is what the T_e wait achieves: ExactlyOnceS2Timed checks
\* that its clock gate implies it (GateImpliesNoAck).  Without it TLC
\* reaches a state the cores cannot follow (AllowDup = FALSE, one fault,
\* 19 steps: A's ack of the old A.0 on the way, A's Deliver of it pending,
\* A holding the new A.0), found while building ExactlyOnceS2Msg, whose
\* MayUse has the same conjunct (its MutS2MsgGateIgnoresAcks shows the harm).
AckOfSeq(x, k) == \E m \in net : m.type = "ack" /\ m.note.server = x /\ m.note.seq = k

MayUse(x) ==
    /\ ~SuccessorUsed(x) \/ Condition1(x, (ctr[x] + 1) % W)
    /\ ~AckOfSeq(x, ctr[x] % W)

CreateNoteWith(x, mayUse) ==
    /\ x \in Origins
    /\ Cardinality(created) < MaxNotes
    /\ mayUse
    /\ LET i == Nth(x, ctr[x]) IN
         /\ ctr' = [ctr EXCEPT ![x] = @ + 1]
         /\ K' = [s \in Servers |-> K[s] \cup {i}]
         \* confirmations about the old x.s do not speak for the new one
         /\ conf' = [conf EXCEPT ![x] = [y \in Servers |-> conf[x][y] \ {i.seq}]]
         /\ created' = created \cup {i}
         /\ lastAction' = [name |-> "CreateNote", server |-> x, note |-> i]
    /\ UNCHANGED <<net, conn, delivered, faults, sess, R>>

CreateNote(x) == CreateNoteWith(x, MayUse(x))

Connect(s) == ConnectBase(s) /\ UNCHANGED stratVars
Disconnect == DisconnectBase /\ UNCHANGED stratVars

StartSession(s) ==
    /\ conn = s
    /\ ~sess[s].active
    /\ sess' = [sess EXCEPT ![s] = [active |-> TRUE, pending |-> <<>>]]
    /\ lastAction' = [name |-> "StartSession", server |-> s]
    /\ UNCHANGED <<baseVars, ctr, K, conf, R>>

\* In order within a stream (K sorted by generation, as in Strategy 1).
FirstOfStream(s, i) == ~\E j \in K[s] : j.server = i.server /\ Ord(j) < Ord(i)

SendNote(s, i) ==
    /\ sess[s].active
    /\ sess[s].pending = <<>>
    /\ i \in K[s]
    /\ FirstOfStream(s, i)
    /\ net' = net \cup {NoteMsg(s, i)}
    /\ sess' = [sess EXCEPT ![s].pending = <<i>>]
    /\ lastAction' = [name |-> "SendNote", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, K, conf, R>>

\* The client sees only the wire id x.s.
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
    /\ UNCHANGED <<conn, created, faults, ctr, K, conf, sess>>

ReceiveAck(m) ==
    /\ m \in net
    /\ m.type = "ack"
    /\ sess[m.to].pending = <<m.note>>
    /\ net' = Consume(m)
    /\ K' = [K EXCEPT ![m.to] = @ \ {m.note}]
    /\ sess' = [sess EXCEPT ![m.to].pending = <<>>]
    /\ lastAction' = [name |-> "ReceiveAck", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, conf, R>>

Timeout(s) ==
    /\ sess[s].active
    /\ sess[s].pending # <<>>
    /\ LET i == sess[s].pending[1] IN
         /\ faults + TimeoutCost(s, i) <= MaxFaults
         /\ faults' = faults + TimeoutCost(s, i)
         /\ lastAction' = [name |-> "Timeout", server |-> s, note |-> i]
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<net, conn, created, delivered, ctr, K, conf, R>>

\* A whole sync (L109): each side's reply is its K, both keep what both
\* still have, and each records which seqs of its own stream the other's K
\* no longer holds: the confirmations of Condition 1.
Gone(y, x, Kn) == {k \in Seqs : ~\E i \in Kn : i.server = x /\ i.seq = k}

Sync(s, t) ==
    /\ s # t
    /\ LET Kn == K[s] \cap K[t]
           cs == conf[s][t] \cup Gone(t, s, Kn)
           ct == conf[t][s] \cup Gone(s, t, Kn)
       IN /\ (K[s] # K[t] \/ cs # conf[s][t] \/ ct # conf[t][s])
          /\ K' = [K EXCEPT ![s] = Kn, ![t] = Kn]
          /\ conf' = [conf EXCEPT ![s][t] = cs, ![t][s] = ct]
    /\ lastAction' = [name |-> "Sync", server |-> s, peer |-> t]
    /\ UNCHANGED <<baseVars, ctr, sess, R>>

ClientCrash == ClientCrashBase /\ UNCHANGED stratVars

\* The counter and the confirmations are durable (Z13).
ServerCrash(s) ==
    /\ sess[s] # Idle
    /\ ServerCrashBase(s)
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<ctr, K, conf, R>>

LoseMsg(m) == Lose(m) /\ UNCHANGED stratVars

-----------------------------------------------------------------------------
CreateNext      == \E x \in Origins : CreateNote(x)
SendNext(s)     == \E i \in K[s] : SendNote(s, i)
ReceiveNoteNext == \E m \in net : ReceiveNote(m)
ReceiveAckNext  == \E m \in net : ReceiveAck(m)
ConnectNext     == \E s \in Servers : Connect(s)
ClientFaultNext == Disconnect \/ ClientCrash \/ \E m \in net : LoseMsg(m)
ServerNext(s)   == StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ \E t \in Servers : Sync(s, t)

Next ==
    \/ CreateNext
    \/ ConnectNext
    \/ \E s \in Servers : ServerNext(s) \/ ServerCrash(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ ClientFaultNext

Spec == Init /\ [][Next]_vars

Fairness ==
    /\ WF_vars(ConnectNext)
    /\ \A s \in Servers : WF_vars(StartSession(s)) /\ WF_vars(SendNext(s)) /\ WF_vars(Timeout(s))
    /\ WF_vars(ReceiveNoteNext)
    /\ WF_vars(ReceiveAckNext)
    /\ \A s, t \in Servers : WF_vars(Sync(s, t))

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
(* Properties.                                                              *)

EventualDelivery == \A i \in NoteUniverse : (i \in created) ~> Processed(i)

\* L113 with L87: a note not yet processed is still in every K.
NotLost == \A i \in created : ~Processed(i) => \A s \in Servers : i \in K[s]

\* What Condition 1 buys: never two incarnations of one wire id alive at
\* once, in the servers' K lists or in the network.
OneIncarnation ==
    \A i, j \in created :
        (i.server = j.server /\ i.seq = j.seq /\ i # j) =>
            \/ \A s \in Servers : i \notin K[s] /\ NoteMsg(s, i) \notin net
            \/ \A s \in Servers : j \notin K[s] /\ NoteMsg(s, j) \notin net

\* The client's R names the last processed note of each stream.
RIsLastProcessed ==
    \A x \in Origins : ctr[x] > 0 /\ Processed(Nth(x, 0)) =>
        \E k \in 0..(ctr[x] - 1) : /\ Processed(Nth(x, k)) /\ R[x] = k % W
                                   /\ \A k2 \in (k + 1)..(ctr[x] - 1) : ~Processed(Nth(x, k2))
=============================================================================
