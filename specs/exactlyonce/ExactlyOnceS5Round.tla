------------------------- MODULE ExactlyOnceS5Round -------------------------
(***************************************************************************)
(* Strategy 5 with asynchronous replication and the acknowledged round of   *)
(* GatherServer (issue 20 item 1, notes Z1): ExactlyOnceS6Round's round on  *)
(* ExactlyOnceS5 (README, "Replication: the acknowledged round").           *)
(* ExactlyOnceS5 creates a note in every K at once; the cores send a        *)
(* replica to each other server, which may arrive at any later time.        *)
(* Without more, a note delivered at A before its replica reached B is lost *)
(* on B: B merges a peer's D only within its own K (A.7's "D[s] - (D[s] -   *)
(* K)", RecvSync, RecvD), and once the replica arrives B holds the note     *)
(* undelivered.  A's periodic sync, sent after the delivery, is fresher     *)
(* than T_r before the client's next connection (Example 5 (i)), so a       *)
(* session at B does not pull from A and delivers the note again.           *)
(*                                                                         *)
(* The round (as in ExactlyOnceS6Round): a server stores a replica and      *)
(* acknowledges it; once every server has stored the note its origin        *)
(* commits it (CommitMayGo), and the commit reaches each server at its own  *)
(* time (Commit(s, i)); a note is delivered at s only once committed there  *)
(* (RoundDeliverable, which the cfg puts in place of ExactlyOnceGather's    *)
(* Deliverable).  Acks and commits are abstracted to that order: stored[i]  *)
(* is what the origin's acks tell it, and a lost or late round message only *)
(* delays Commit.  Two guards make the round, and a mutant drops each:      *)
(*   RoundDeliverable's `ready`   Round = FALSE, the cores before the round *)
(*                                (mutants/MutS5RoundOff.cfg);             *)
(*   CommitMayGo's "stored at     the origin commits without waiting for   *)
(*   every server"                the acks (mutants/MutS5RoundCommitEarly). *)
(*                                                                         *)
(* Left out, as in ExactlyOnceS6Round: PurgeSync (its watermark is read     *)
(* against the sender's number in the cores; the atomic exchange here has   *)
(* no numbers, and with the round every note in a D is stored everywhere,   *)
(* so a K that lacks it was purged there), duplicated replicas (AllowDup =  *)
(* FALSE) and lost replicas (a loss is a delay: the cores resend).  No      *)
(* refinement check to ExactlyOnceS5 (ExactlyOnceS6Round has none either):  *)
(* the atomic level's K would be K plus the replicas on their way, but a    *)
(* session's `common` (the snapshot of K that StartSession takes) would     *)
(* then differ between the levels, so the mapping needs a history variable; *)
(* replay still creates notes atomically (Replication.atOnce).             *)
(***************************************************************************)
EXTENDS ExactlyOnceS5

CONSTANT Round   \* TRUE: the replication round (GatherServer); FALSE: the cores before it

ASSUME RoundIsBoolean == Round \in BOOLEAN

VARIABLES
    rnet,    \* replicas on their way: a set of [note, from, to]
    stored,  \* stored[i]: the servers that have stored note i (the origin learns it from the acks)
    ready    \* server, durable: the notes whose commit has reached it

roundVars == <<rnet, stored, ready>>
allVars == <<vars, roundVars>>

RoundTypeOK ==
    /\ TypeOK
    /\ rnet \subseteq [note : NoteUniverse, from : Servers, to : Servers]
    /\ stored \in [NoteUniverse -> SUBSET Servers]
    /\ ready \in [Servers -> SUBSET NoteUniverse]

RoundInit ==
    /\ Init
    /\ rnet = {}
    /\ stored = [i \in NoteUniverse |-> {}]
    /\ ready = [s \in Servers |-> {}]

\* GatherServer.aDeliver: K - D of the notes committed here (with the round).
RoundDeliverable(s) == IF Round THEN (K[s] \ D[s]) \cap ready[s] ELSE K[s] \ D[s]

\* GatherServer.createNote at origin o: the note in o's K, a replica to
\* every other server.
CreateNoteAt(o) ==
    /\ Cardinality(created) < MaxNotes
    /\ LET i == NoteIds[Cardinality(created) + 1] IN
         /\ K' = [K EXCEPT ![o] = @ \cup {i}]
         /\ created' = created \cup {i}
         /\ rnet' = rnet \cup {[note |-> i, from |-> o, to |-> t] : t \in Servers \ {o}}
         /\ stored' = [stored EXCEPT ![i] = {o}]
         /\ lastAction' = [name |-> "CreateNote", note |-> i, server |-> o]
    /\ UNCHANGED <<net, conn, delivered, faults, D, sess, snet, connId, timedVars, lastEnd, ready>>

\* GatherServer.receiveReplica: the note enters K here and is acknowledged
\* to its origin.
StoreReplica(m) ==
    /\ m \in rnet
    /\ Link(m.from, m.to)
    /\ rnet' = rnet \ {m}
    /\ K' = [K EXCEPT ![m.to] = @ \cup {m.note}]
    /\ stored' = [stored EXCEPT ![m.note] = @ \cup {m.to}]
    /\ lastAction' = [name |-> "StoreReplica", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<net, conn, created, delivered, faults, D, sess, snet, connId, timedVars, lastEnd,
                   ready>>

\* receiveReplicaAck at the origin: it commits once every server's ack is in
\* (GatherServer holds every server's number).
CommitMayGo(i) == stored[i] = Servers

\* The commit reaches s (at the origin: its own decision), each server at
\* its own time; `mayGo` is the origin's test, a mutant passes its own.
CommitWith(s, i, mayGo) ==
    /\ Round
    /\ mayGo
    /\ i \in K[s]
    /\ i \notin ready[s]
    /\ ready' = [ready EXCEPT ![s] = @ \cup {i}]
    /\ lastAction' = [name |-> "Commit", server |-> s, note |-> i]
    /\ UNCHANGED <<baseVars, gatherVars, timedVars, lastEnd, rnet, stored>>

Commit(s, i) == CommitWith(s, i, CommitMayGo(i))

\* ExactlyOnceS5's Next with the note created at one origin and the round's
\* steps; `commit` is Commit, or a mutant's.
RoundNextWith(commit(_, _)) ==
    \/ \E o \in Servers \ Cut : CreateNoteAt(o)
    \/ \E m \in rnet : StoreReplica(m)
    \/ \E s \in Servers, i \in NoteUniverse : commit(s, i)
    \/ ConnectNext /\ UNCHANGED roundVars
    \/ Tick /\ UNCHANGED roundVars
    \/ \E s \in Servers :
         \/ StartSession(s) /\ UNCHANGED roundVars
         \/ GatherFail(s) /\ UNCHANGED roundVars
         \/ EndGather(s) /\ UNCHANGED roundVars
         \/ ADeliverNext(s) /\ UNCHANGED roundVars
         \/ ReplyDNext(s) /\ UNCHANGED roundVars
         \/ RecvDNext(s) /\ UNCHANGED roundVars
         \/ PeriodicSync(s) /\ UNCHANGED roundVars
         \/ \E m \in snet : RecvSync(s, m) /\ UNCHANGED roundVars
         \/ \E t \in Servers : ReqD(s, t) /\ UNCHANGED roundVars
    \/ FaultNext /\ UNCHANGED roundVars

RoundNext == RoundNextWith(Commit)

RoundSpec == RoundInit /\ [][RoundNext]_allVars

-----------------------------------------------------------------------------
\* What the round guarantees: a note some server may deliver is stored at
\* every server (so every server's merges keep its delivery).  It restates
\* CommitMayGo; NoDuplicateDelivery is what the mutants refute.
ReadyEverywhere == \A s \in Servers : \A i \in ready[s] : stored[i] = Servers
=============================================================================
