------------------------- MODULE ExactlyOnceS6Round -------------------------
(***************************************************************************)
(* Strategy 6 with asynchronous replication and the acknowledged round of   *)
(* GatherServer (issue 20 item 1, notes Z1).  ExactlyOnceS6 creates a note  *)
(* in every K at once (L146 via L213); the cores send a replica to each     *)
(* other server, which may arrive at any later time.  Without more, a note  *)
(* delivered at A before its replica reached B is lost on B: B merges a    *)
(* peer's D only within its own K (A.8's "D[s] - (D[s] - K)", RecvSync,     *)
(* RecvD), and once the replica arrives B holds the note undelivered; a     *)
(* session at B that does not pull from A (A's sync is fresher than the     *)
(* client's visit, Example 6) delivers it again.                          *)
(*                                                                         *)
(* The round (Round = TRUE): a server stores a replica and acknowledges it; *)
(* once every server has stored the note its origin commits, and the commit *)
(* reaches each server (Commit(s, i), at any later time); a note is        *)
(* delivered at s only once committed there (RoundDeliverable, which the   *)
(* cfg puts in place of ExactlyOnceGather's Deliverable).  The acks and     *)
(* commits are abstracted to that order: `stored[i]` is what the origin's   *)
(* acks tell it, and a lost or late round message only delays Commit.      *)
(* Round = FALSE is the cores before the round: a note is deliverable      *)
(* wherever it is in K (mutant exactlyonce-mutant-s6-round-off).            *)
(*                                                                         *)
(* Left out: PurgeSync (its watermark is read against the sender's number  *)
(* in the cores; the atomic exchange here has no numbers, and with the     *)
(* round every note in a D is stored everywhere, so a K that lacks it was  *)
(* purged there), duplicated replicas (AllowDup = FALSE) and lost replicas *)
(* (a loss is a delay: the cores resend).                                  *)
(***************************************************************************)
EXTENDS ExactlyOnceS6

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
    /\ UNCHANGED <<net, conn, delivered, faults, D, sess, snet, connId, timedVars, H, ready>>

\* GatherServer.receiveReplica: the note enters K here, numbered, and is
\* acknowledged to its origin.
StoreReplica(m) ==
    /\ m \in rnet
    /\ Link(m.from, m.to)
    /\ rnet' = rnet \ {m}
    /\ K' = [K EXCEPT ![m.to] = @ \cup {m.note}]
    /\ stored' = [stored EXCEPT ![m.note] = @ \cup {m.to}]
    /\ lastAction' = [name |-> "StoreReplica", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<net, conn, created, delivered, faults, D, sess, snet, connId, timedVars, H, ready>>

\* receiveReplicaAck at the origin (every server's number: commit) and
\* receiveReplicaCommit elsewhere, each reaching s at its own time.
Commit(s, i) ==
    /\ Round
    /\ stored[i] = Servers
    /\ i \in K[s]
    /\ i \notin ready[s]
    /\ ready' = [ready EXCEPT ![s] = @ \cup {i}]
    /\ lastAction' = [name |-> "Commit", server |-> s, note |-> i]
    /\ UNCHANGED <<baseVars, gatherVars, timedVars, H, rnet, stored>>

RoundNext ==
    \/ \E o \in Servers \ Cut : CreateNoteAt(o)
    \/ \E m \in rnet : StoreReplica(m)
    \/ \E s \in Servers, i \in NoteUniverse : Commit(s, i)
    \/ ConnectNext /\ UNCHANGED roundVars
    \/ Tick /\ UNCHANGED roundVars
    \/ \E s \in Servers :
         \/ StartSession(s) /\ UNCHANGED roundVars
         \/ GatherFail(s) /\ UNCHANGED roundVars
         \/ EndGather(s) /\ UNCHANGED roundVars
         \/ ADeliverNext(s) /\ UNCHANGED roundVars
         \/ ReplyDNext(s) /\ UNCHANGED roundVars
         \/ RecvDNext(s) /\ UNCHANGED roundVars
         \/ PushSync(s) /\ UNCHANGED roundVars
         \/ \E m \in snet : RecvSync(s, m) /\ UNCHANGED roundVars
         \/ \E t \in Servers : ReqD(s, t) /\ UNCHANGED roundVars
    \/ FaultNext /\ UNCHANGED roundVars

RoundSpec == RoundInit /\ [][RoundNext]_allVars

-----------------------------------------------------------------------------
\* What the round guarantees: a note some server may deliver is stored at
\* every server (so every server's merges keep its delivery).
ReadyEverywhere == \A s \in Servers : \A i \in ready[s] : stored[i] = Servers
=============================================================================
