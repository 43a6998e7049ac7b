------------------------- MODULE ExactlyOnceS1MsgSet -------------------------
(***************************************************************************)
(* Strategy 1 (sec. 3.2, L71-89; App. A.1, A.2) with the sync as messages  *)
(* and the removal knowledge the Java cores keep today: the set of every   *)
(* removed id (StreamServer.removed), which only grows (issue 19: after    *)
(* 80,000 deliveries the sync message no longer fits).  This is the        *)
(* unbounded-knowledge level that ExactlyOnceS1Msg (the compacted one)     *)
(* refines.                                                                *)
(*                                                                         *)
(* L79 says only that "the servers periodically synchronize with each      *)
(* other to purge notes that have been delivered"; the message is not      *)
(* given (notes Z15).  As the cores do (StreamServer.startSync, handleSync, *)
(* receiveSyncReply): s sends t a request carrying its removed ids; t drops *)
(* them from K, adds them to its own, and replies with its removed ids;    *)
(* s does the same with the reply.  The cores' messages also carry K, the  *)
(* round and the watermark seen; Strategy 1's merge reads none of them (ids *)
(* are never reused, so the watermark, which guards S2's incarnations,      *)
(* never holds a removal back), so the spec leaves them out.  Requests and  *)
(* replies travel on their own lossy, reordering network snet (a set, like *)
(* net; a receipt consumes its message, so a second copy of one is not     *)
(* modelled), and may be lost or arrive at any later step: a sync built    *)
(* before a note existed can arrive after it was created.                  *)
(*                                                                         *)
(* Everything else is ExactlyOnceS1: atomic replication (Z1), in-order     *)
(* sending with {abort;}, the client's stable R.                          *)
(***************************************************************************)
EXTENDS ExactlyOnceBase

CONSTANT Origins   \* servers at which notes are generated (a model bound)

ASSUME OriginsAreServers == Origins # {} /\ Origins \subseteq Servers

VARIABLES
    ctr,      \* server, durable: last sequence number issued (L75)
    K,        \* server, durable: to-be-delivered notes (L79)
    sess,     \* server, volatile: [active, pending] of the HandleClient session
    R,        \* client, stable: R[x] = last accepted seq of stream x (L77)
    removed,  \* server, durable: every id this server knows delivered (StreamServer.removed)
    snet      \* the servers' network: sync requests and replies

stratVars == <<ctr, K, sess, R, removed, snet>>
vars == <<baseVars, stratVars, lastAction>>

ActionNames == {"Init", "CreateNote", "Connect", "Disconnect", "StartSession", "SendNote",
                "ReceiveNote", "ReceiveAck", "Timeout", "StartSync", "HandleSync",
                "ReceiveSyncReply", "ClientCrash", "ServerCrash", "Lose", "LoseSync"}

Id(x, n) == [server |-> x, seq |-> n]
NoteUniverse == {Id(x, n) : x \in Origins, n \in 1..MaxNotes}
Idle == [active |-> FALSE, pending |-> <<>>]

SyncMsg(type, from, to, know) == [type |-> type, from |-> from, to |-> to, removed |-> know]

TypeOK ==
    /\ BaseTypeOK
    /\ created \subseteq NoteUniverse
    /\ ctr \in [Servers -> 0..MaxNotes]
    /\ K \in [Servers -> SUBSET NoteUniverse]
    /\ sess \in [Servers -> [active : BOOLEAN, pending : Seq(NoteUniverse)]]
    /\ \A s \in Servers : Len(sess[s].pending) <= 1
    /\ R \in [Servers -> 0..MaxNotes]
    /\ \A m \in net : m.type \in {"note", "ack"} /\ m.note \in NoteUniverse
    /\ removed \in [Servers -> SUBSET NoteUniverse]
    /\ \A m \in snet : m.type \in {"syncReq", "syncRep"} /\ {m.from, m.to} \subseteq Servers
                       /\ m.removed \subseteq NoteUniverse

Init ==
    /\ BaseInit
    /\ ctr = [s \in Servers |-> 0]
    /\ K = [s \in Servers |-> {}]
    /\ sess = [s \in Servers |-> Idle]
    /\ R = [s \in Servers |-> 0]
    /\ removed = [s \in Servers |-> {}]
    /\ snet = {}

-----------------------------------------------------------------------------
(* The client side and the sessions are ExactlyOnceS1's, word for word.     *)

CreateNote(x) ==
    /\ x \in Origins
    /\ Cardinality(created) < MaxNotes
    /\ LET i == Id(x, ctr[x] + 1) IN
         /\ ctr' = [ctr EXCEPT ![x] = @ + 1]
         /\ K' = [s \in Servers |-> K[s] \cup {i}]
         /\ created' = created \cup {i}
         /\ lastAction' = [name |-> "CreateNote", server |-> x, note |-> i]
    /\ UNCHANGED <<net, conn, delivered, faults, sess, R, removed, snet>>

Connect(s) == ConnectBase(s) /\ UNCHANGED stratVars
Disconnect == DisconnectBase /\ UNCHANGED stratVars

StartSession(s) ==
    /\ conn = s
    /\ ~sess[s].active
    /\ sess' = [sess EXCEPT ![s] = [active |-> TRUE, pending |-> <<>>]]
    /\ lastAction' = [name |-> "StartSession", server |-> s]
    /\ UNCHANGED <<baseVars, ctr, K, R, removed, snet>>

FirstOfStream(s, i) == ~\E j \in K[s] : j.server = i.server /\ j.seq < i.seq

SendNote(s, i) ==
    /\ sess[s].active
    /\ sess[s].pending = <<>>
    /\ i \in K[s]
    /\ FirstOfStream(s, i)
    /\ net' = net \cup {NoteMsg(s, i)}
    /\ sess' = [sess EXCEPT ![s].pending = <<i>>]
    /\ lastAction' = [name |-> "SendNote", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, K, R, removed, snet>>

Expected(i) == i.seq = R[i.server] + 1

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
    /\ UNCHANGED <<conn, created, faults, ctr, K, sess, removed, snet>>

\* A.1: Deliver returned success, "K = K - {i}"; the core also records i as
\* removed, for the next sync (StreamServer.receiveAck).
ReceiveAck(m) ==
    /\ m \in net
    /\ m.type = "ack"
    /\ sess[m.to].pending = <<m.note>>
    /\ net' = Consume(m)
    /\ K' = [K EXCEPT ![m.to] = @ \ {m.note}]
    /\ removed' = [removed EXCEPT ![m.to] = @ \cup {m.note}]
    /\ sess' = [sess EXCEPT ![m.to].pending = <<>>]
    /\ lastAction' = [name |-> "ReceiveAck", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, R, snet>>

Timeout(s) ==
    /\ sess[s].active
    /\ sess[s].pending # <<>>
    /\ LET i == sess[s].pending[1] IN
         /\ faults + TimeoutCost(s, i) <= MaxFaults
         /\ faults' = faults + TimeoutCost(s, i)
         /\ lastAction' = [name |-> "Timeout", server |-> s, note |-> i]
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<net, conn, created, delivered, ctr, K, R, removed, snet>>

-----------------------------------------------------------------------------
(* The sync, as the cores run it.                                           *)

\* StreamServer.startSync: a request to t with s's removed ids.
StartSync(s, t) ==
    /\ s # t
    /\ ~\E m \in snet : {m.from, m.to} = {s, t}
    /\ snet' = snet \cup {SyncMsg("syncReq", s, t, removed[s])}
    /\ lastAction' = [name |-> "StartSync", server |-> s, peer |-> t]
    /\ UNCHANGED <<baseVars, ctr, K, sess, R, removed>>

\* StreamServer.merge: their removals become ours, and leave K.
Merge(s, theirs) ==
    /\ removed' = [removed EXCEPT ![s] = @ \cup theirs]
    /\ K' = [K EXCEPT ![s] = @ \ theirs]

\* StreamServer.handleSync: merge, then reply with the merged knowledge.
HandleSync(m) ==
    /\ m \in snet
    /\ m.type = "syncReq"
    /\ Merge(m.to, m.removed)
    /\ snet' = (snet \ {m})
                 \cup {SyncMsg("syncRep", m.to, m.from, removed[m.to] \cup m.removed)}
    /\ lastAction' = [name |-> "HandleSync", server |-> m.to, peer |-> m.from]
    /\ UNCHANGED <<baseVars, ctr, sess, R>>

\* StreamServer.receiveSyncReply.
ReceiveSyncReply(m) ==
    /\ m \in snet
    /\ m.type = "syncRep"
    /\ Merge(m.to, m.removed)
    /\ snet' = snet \ {m}
    /\ lastAction' = [name |-> "ReceiveSyncReply", server |-> m.to, peer |-> m.from]
    /\ UNCHANGED <<baseVars, ctr, sess, R>>

\* A request or reply is lost (a fault: one unit of MaxFaults).
LoseSync(m) ==
    /\ m \in snet
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ snet' = snet \ {m}
    /\ lastAction' = [name |-> "LoseSync", type |-> m.type, from |-> m.from, to |-> m.to]
    /\ UNCHANGED <<net, conn, created, delivered, ctr, K, sess, R, removed>>

ClientCrash == ClientCrashBase /\ UNCHANGED stratVars

ServerCrash(s) ==
    /\ sess[s] # Idle
    /\ ServerCrashBase(s)
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<ctr, K, R, removed, snet>>

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

Next ==
    \/ CreateNext
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ \E t \in Servers : StartSync(s, t)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ SyncNext
    \/ ClientFaultNext

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* Properties: ExactlyOnceS1's, and what the knowledge must satisfy.        *)

AcceptedPrefix ==
    \A x \in Origins : \A n \in 1..ctr[x] : Processed(Id(x, n)) <=> n <= R[x]
NoGapAck == \A m \in net : m.type = "ack" => m.note.seq <= R[m.note.server]
NotLost ==
    \A x \in Origins : \A n \in (R[x] + 1)..ctr[x] : \A s \in Servers : Id(x, n) \in K[s]
RWithinCounter == \A x \in Servers : R[x] <= ctr[x]

\* Knowledge is true: an id known removed, here or in a message, was processed.
RemovedWasProcessed ==
    /\ \A s \in Servers : \A i \in removed[s] : Processed(i)
    /\ \A m \in snet : \A i \in m.removed : Processed(i)

\* What makes the compaction exact (ExactlyOnceS1Msg): every removed set is
\* a prefix of each stream.  A server removes x.n only after the ack of a
\* Deliver of x.n, which it started only when no lower x.m was in its K
\* (FirstOfStream), and under atomic replication a note leaves K only when
\* it is known removed; merging prefixes gives prefixes.
IsPrefix(S) == \A i \in S : \A n \in 1..i.seq : Id(i.server, n) \in S
RemovedIsPrefix ==
    /\ \A s \in Servers : IsPrefix(removed[s])
    /\ \A m \in snet : IsPrefix(m.removed)

\* The state-size bound (issue 19): the knowledge a server keeps and sends
\* is at most one entry per stream.  Fails here (a control): the set keeps
\* one entry per delivered note.
KnowledgeSize(s) == Cardinality(removed[s])
KnowledgeBounded == \A s \in Servers : KnowledgeSize(s) <= Cardinality(Origins)
=============================================================================
