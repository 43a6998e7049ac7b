------------------------- MODULE ExactlyOnceS3MsgRound -------------------------
(***************************************************************************)
(* The acknowledged replication round of the cores (README, "Replication: *)
(* the acknowledged round"), on ExactlyOnceS3Msg's merge.  As in          *)
(* ExactlyOnceS3MsgAsync a note enters its origin's K first and reaches   *)
(* every other server later as a replica, numbered in arrival order.  The *)
(* round adds three things (S3Server.receiveReplica, receiveReplicaAck,   *)
(* receiveCommit):                                                        *)
(* - a server that stores a replica acknowledges it with the number it    *)
(*   gave the note (ReplicaAck);                                          *)
(* - once every other server acknowledged, the origin commits the note    *)
(*   and tells every server every server's number for it (Commit);        *)
(* - a server offers a note to the client only once it holds the commit  *)
(*   (`ready`), so no note is delivered before every server stored it.    *)
(* With NumbersFromRound the K-difference rule reads a sync message's     *)
(* watermark against the SENDER's number for the note (from the round),   *)
(* not against its own: only then does "numbered within the watermark"    *)
(* mean "the sender had stored it when it built the message".  Without   *)
(* it (the round alone) the numbers of two servers still differ and TLC   *)
(* refutes ForgetOnlyPurged as it does for ExactlyOnceS3MsgAsync: the     *)
(* round by itself is not enough (README).                                *)
(***************************************************************************)
EXTENDS ExactlyOnceS3Msg

CONSTANT NumbersFromRound   \* BOOLEAN: the merge reads the sender's number

VARIABLES
    rnet,    \* replication messages on the way: replicas, acks, commits
    num,     \* num[s][i][t]: t's number for note i as s knows it, 0 unknown
    ready    \* ready[s]: the notes s holds the commit of (deliverable at s)

roundVars == <<rnet, num, ready>>
rAllVars == <<allVars, roundVars>>

NoNums == [s \in Servers |-> [i \in NoteUniverse |-> [t \in Servers |-> 0]]]

\* S3Server.createNote at origin o: the note enters o's K, numbered there,
\* and a replica goes to every other server.  A lone server has no one to
\* wait for: the note is committed at once (S3Server starts no round when
\* there are no others; without this a one-server run could never deliver,
\* found by trace validation of the SIGKILL run, README "Trace validation").
CreateAt(o) ==
    /\ Cardinality(created) < MaxNotes
    /\ LET i == NoteIds[Cardinality(created) + 1] IN
         /\ K' = [K EXCEPT ![o] = @ \cup {i}]
         /\ created' = created \cup {i}
         /\ seen' = [seen EXCEPT ![o] = @ + 1]
         /\ entered' = [entered EXCEPT ![o][i] = seen[o] + 1]
         /\ num' = [num EXCEPT ![o][i][o] = seen[o] + 1]
         /\ rnet' = rnet \cup {[type |-> "replica", note |-> i, from |-> o, to |-> t] : t \in Servers \ {o}}
         /\ ready' = IF Servers = {o} THEN [ready EXCEPT ![o] = @ \cup {i}] ELSE ready
         /\ lastAction' = [name |-> "CreateNote", note |-> i, server |-> o]
    /\ UNCHANGED <<net, conn, delivered, faults, D, known, sess, R, snet>>

\* S3Server.receiveReplica: stored (numbered in arrival order) and
\* acknowledged with its number here.
ReceiveReplica(r) ==
    /\ r \in rnet
    /\ r.type = "replica"
    /\ LET t == r.to
           n == IF r.note \in K[t] THEN entered[t][r.note] ELSE seen[t] + 1 IN
         /\ IF r.note \in K[t]
            THEN UNCHANGED <<K, seen, entered, num>>
            ELSE /\ K' = [K EXCEPT ![t] = @ \cup {r.note}]
                 /\ seen' = [seen EXCEPT ![t] = @ + 1]
                 /\ entered' = [entered EXCEPT ![t][r.note] = n]
                 /\ num' = [num EXCEPT ![t][r.note][t] = n]
         /\ rnet' = (rnet \ {r}) \cup {[type |-> "ack", note |-> r.note, from |-> t, to |-> r.from, n |-> n]}
    /\ lastAction' = [name |-> "ReceiveReplica", server |-> r.to, note |-> r.note]
    /\ UNCHANGED <<net, conn, created, delivered, faults, D, known, sess, R, snet, ready>>

\* S3Server.receiveReplicaAck at the origin: the acknowledging server's
\* number is recorded; with every server's number the note is committed
\* here and every other server is told.
ReceiveReplicaAck(a) ==
    /\ a \in rnet
    /\ a.type = "ack"
    /\ LET o == a.to
           nums == [num[o][a.note] EXCEPT ![a.from] = a.n]
           done == \A t \in Servers : nums[t] # 0 IN
         /\ num' = [num EXCEPT ![o][a.note] = nums]
         /\ ready' = IF done THEN [ready EXCEPT ![o] = @ \cup {a.note}] ELSE ready
         /\ rnet' = (rnet \ {a}) \cup
                    IF done THEN {[type |-> "commit", note |-> a.note, from |-> o, to |-> t, nums |-> nums]
                                  : t \in Servers \ {o}}
                    ELSE {}
    /\ lastAction' = [name |-> "ReceiveReplicaAck", server |-> a.to, note |-> a.note]
    /\ UNCHANGED <<net, conn, created, delivered, faults, K, D, known, sess, R, snet, seen, entered>>

\* S3Server.receiveCommit: every server stored the note; deliverable here.
ReceiveCommit(c) ==
    /\ c \in rnet
    /\ c.type = "commit"
    /\ rnet' = rnet \ {c}
    /\ IF c.note \in K[c.to]
       THEN /\ ready' = [ready EXCEPT ![c.to] = @ \cup {c.note}]
            /\ num' = [num EXCEPT ![c.to][c.note] = c.nums]
       ELSE UNCHANGED <<ready, num>>
    /\ lastAction' = [name |-> "ReceiveCommit", server |-> c.to, note |-> c.note]
    /\ UNCHANGED <<net, conn, created, delivered, faults, K, D, known, sess, R, snet, seen, entered>>

\* The notes a message's K says its sender purged, as server s reads it:
\* delivered here, missing there, and within the message's watermark by
\* the sender's own number for it (known from the round; unknown: kept).
RPurgedThere(v, m) ==
    {i \in v.d : /\ i \notin m.k
                 /\ IF NumbersFromRound
                    THEN num[m.to][i][m.from] # 0 /\ num[m.to][i][m.from] <= m.seen
                    ELSE v.ent[i] <= m.seen}

RMerge(v, m) == MergeWith(v, m, RPurgedThere(v, m), MergedD(v, m, RPurgedThere(v, m)), m.d)

RSyncNext(s) == MsgSyncWith(s, RMerge)

\* ExactlyOnceS3Msg's steps with the round's CreateNote and merge; a
\* session sends only notes it holds the commit of.
RoundInit == MsgInit /\ rnet = {} /\ num = NoNums /\ ready = [s \in Servers |-> {}]

RoundNext ==
    \/ \E o \in Servers : CreateAt(o)
    \/ \E r \in rnet : ReceiveReplica(r) \/ ReceiveReplicaAck(r) \/ ReceiveCommit(r)
    \/ /\ MsgNextWith(AuthorizeNext, RSyncNext)
       /\ lastAction'.name # "CreateNote"
       /\ lastAction'.name = "SendNote" => lastAction'.note \in ready[lastAction'.server]
       /\ UNCHANGED roundVars

RoundSpec == RoundInit /\ [][RoundNext]_rAllVars

\* As in ExactlyOnceS3MsgAsync: a server drops a note from K only once the
\* client has purged it.
ForgetOnlyPurged == [][\A s \in Servers : \A i \in K[s] \ K'[s] : i \notin R']_rAllVars

\* The round's point: a note some server may offer is stored everywhere.
ReadyEverywhere == \A s \in Servers : \A i \in ready[s] : \A t \in Servers : i \in K[t] \/ Processed(i)
=============================================================================
