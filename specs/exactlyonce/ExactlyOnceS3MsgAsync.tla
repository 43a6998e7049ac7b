------------------------- MODULE ExactlyOnceS3MsgAsync -------------------------
(***************************************************************************)
(* What asynchronous replication (notes Z1) does to the cores' merge:      *)
(* ExactlyOnceS3Msg with CreateNote replaced by the cores' replication. A  *)
(* note enters its origin's K (ServerCore.created, S3Server.createNote)    *)
(* and reaches every other server later, as a Replica message            *)
(* (S3Server.receiveReplica: entered there when it arrives, numbered in   *)
(* arrival order).  Everything else, the merge with its watermark and its *)
(* "only notes of our D" guard included, is ExactlyOnceS3Msg's.           *)
(*                                                                         *)
(* The numbers now differ between servers, so a watermark no longer names *)
(* the same notes everywhere: a K that lacks a note only because its      *)
(* replica is late can read as "purged there" (M3-f).  TLC refutes        *)
(* ForgetOnlyPurged: an expected counterexample, which is why the specs   *)
(* and the cores assume atomic replication and the runtime must provide   *)
(* it (README, "Syncs as messages").                                      *)
(***************************************************************************)
EXTENDS ExactlyOnceS3Msg

VARIABLE rnet   \* replicas on the way: a set of [note, to]

asyncVars == <<allVars, rnet>>

\* S3Server.createNote at origin o: the note enters o's K, numbered there,
\* and a replica goes to every other server.
CreateNoteAt(o) ==
    /\ Cardinality(created) < MaxNotes
    /\ LET i == NoteIds[Cardinality(created) + 1] IN
         /\ K' = [K EXCEPT ![o] = @ \cup {i}]
         /\ created' = created \cup {i}
         /\ seen' = [seen EXCEPT ![o] = @ + 1]
         /\ entered' = [entered EXCEPT ![o][i] = seen[o] + 1]
         /\ rnet' = rnet \cup {[note |-> i, to |-> t] : t \in Servers \ {o}}
         /\ lastAction' = [name |-> "CreateNote", note |-> i, server |-> o]
    /\ UNCHANGED <<net, conn, delivered, faults, D, known, sess, R, snet>>

\* S3Server.receiveReplica: a note not in K enters it, numbered in arrival
\* order.
ReceiveReplica(r) ==
    /\ r \in rnet
    /\ rnet' = rnet \ {r}
    /\ IF r.note \in K[r.to]
       THEN UNCHANGED <<K, seen, entered>>
       ELSE /\ K' = [K EXCEPT ![r.to] = @ \cup {r.note}]
            /\ seen' = [seen EXCEPT ![r.to] = @ + 1]
            /\ entered' = [entered EXCEPT ![r.to][r.note] = seen[r.to] + 1]
    /\ lastAction' = [name |-> "ReceiveReplica", server |-> r.to, note |-> r.note]
    /\ UNCHANGED <<net, conn, created, delivered, faults, D, known, sess, R, snet>>

AsyncInit == MsgInit /\ rnet = {}

AsyncNext ==
    \/ \E o \in Servers : CreateNoteAt(o)
    \/ \E r \in rnet : ReceiveReplica(r)
    \/ (MsgNext /\ ~(lastAction'.name = "CreateNote") /\ UNCHANGED rnet)

AsyncSpec == AsyncInit /\ [][AsyncNext]_asyncVars

\* ForgetAfterClient as a step: a server drops a note from K only once the
\* client has purged it (A.4 drops K and D after "Please purge i"
\* succeeded).  The state form fails at once here: a note not yet
\* replicated is missing from a K without having been forgotten.
ForgetOnlyPurged == [][\A s \in Servers : \A i \in K[s] \ K'[s] : i \notin R']_asyncVars
=============================================================================
