--------------------------- MODULE ExactlyOnceS1Msg ---------------------------
(***************************************************************************)
(* Strategy 1 (sec. 3.2, L71-89; App. A.1, A.2) with the sync as messages  *)
(* and bounded knowledge (issue 19 item 1): instead of the set of every    *)
(* removed id (ExactlyOnceS1MsgSet; what S0 and S2's cores keep) a server *)
(* keeps, per stream x, the delivered prefix pre[s][x]: x.1 .. x.pre[s][x] *)
(* are known delivered.  One number per stream, whatever the run's length; *)
(* every sync message carries the same numbers.                            *)
(*                                                                         *)
(* Why a prefix is enough, and no set of ids above it is needed: L87, "in  *)
(* effect the client remembers all the notes it has ever received", holds  *)
(* of the servers too.  A server removes x.n only on the ack of a Deliver  *)
(* of x.n; the client acks x.n only once R[x] >= n (NoGapAck: in-order     *)
(* sending with {abort;} never lets a gap reach it; the Java client does   *)
(* not ack a gap at all, Z2), and then x.1 .. x.n were all processed       *)
(* (AcceptedPrefix).  So an ack of x.n certifies the whole prefix up to n, *)
(* and ExactlyOnceS1MsgSet's RemovedIsPrefix shows the uncompacted set is  *)
(* always such a prefix.  The compaction rules, each with a mutant:        *)
(* S1Server keeps exactly this: the highest id of each stream in its      *)
(* removal set and its sync messages (traces exactlyonce-s1msg-* replay    *)
(* it, comparing pre and snet).                                            *)
(*   advance  pre := max(pre, n) on the ack of x.n, and only on the ack    *)
(*            (mutants/MutS1MsgAdvanceOnSend);                             *)
(*   send     a sync carries the stored pre, not one derived from K: K     *)
(*            without a watermark cannot tell "delivered" from "not yet    *)
(*            created", so a sync built before x.n existed would, arriving *)
(*            late, purge it (mutants/MutS1MsgPrefixFromK, the stale sync);*)
(*   merge    pre := max(pre, theirs), and K loses the ids at or below it; *)
(*            taking theirs as it comes lets a stale message move pre back *)
(*            (mutants/MutS1MsgMergeOverwrite).                            *)
(*                                                                         *)
(* Refinement: MCExactlyOnceS1Msg maps pre back to the set of ids (Expand) *)
(* and checks this spec against ExactlyOnceS1MsgSet (RefinesS1MsgSetInit   *)
(* and RefinesS1MsgSetNext, properties of the Safety and Deep models).     *)
(***************************************************************************)
EXTENDS ExactlyOnceBase

CONSTANT Origins   \* servers at which notes are generated (a model bound)

ASSUME OriginsAreServers == Origins # {} /\ Origins \subseteq Servers

VARIABLES
    ctr,      \* server, durable: last sequence number issued (L75)
    K,        \* server, durable: to-be-delivered notes (L79)
    sess,     \* server, volatile: [active, pending] of the HandleClient session
    R,        \* client, stable: R[x] = last accepted seq of stream x (L77)
    pre,      \* server, durable: pre[s][x] = x.1 .. x.pre[s][x] known delivered
    snet      \* the servers' network: sync requests and replies

stratVars == <<ctr, K, sess, R, pre, snet>>
vars == <<baseVars, stratVars, lastAction>>

ActionNames == {"Init", "CreateNote", "Connect", "Disconnect", "StartSession", "SendNote",
                "ReceiveNote", "ReceiveAck", "Timeout", "StartSync", "HandleSync",
                "ReceiveSyncReply", "ClientCrash", "ServerCrash", "Lose", "LoseSync"}

Id(x, n) == [server |-> x, seq |-> n]
NoteUniverse == {Id(x, n) : x \in Origins, n \in 1..MaxNotes}
Idle == [active |-> FALSE, pending |-> <<>>]

SyncMsg(type, from, to, know) == [type |-> type, from |-> from, to |-> to, pre |-> know]

Max(a, b) == IF a >= b THEN a ELSE b
\* The refinement mapping: a prefix per stream, expanded back into the set of ids.
Expand(p) == UNION {{Id(x, n) : n \in 1..p[x]} : x \in Origins}
Prefixes == [Origins -> 0..MaxNotes]

TypeOK ==
    /\ BaseTypeOK
    /\ created \subseteq NoteUniverse
    /\ ctr \in [Servers -> 0..MaxNotes]
    /\ K \in [Servers -> SUBSET NoteUniverse]
    /\ sess \in [Servers -> [active : BOOLEAN, pending : Seq(NoteUniverse)]]
    /\ \A s \in Servers : Len(sess[s].pending) <= 1
    /\ R \in [Servers -> 0..MaxNotes]
    /\ \A m \in net : m.type \in {"note", "ack"} /\ m.note \in NoteUniverse
    /\ pre \in [Servers -> Prefixes]
    /\ \A m \in snet : m.type \in {"syncReq", "syncRep"} /\ {m.from, m.to} \subseteq Servers
                       /\ m.pre \in Prefixes

Init ==
    /\ BaseInit
    /\ ctr = [s \in Servers |-> 0]
    /\ K = [s \in Servers |-> {}]
    /\ sess = [s \in Servers |-> Idle]
    /\ R = [s \in Servers |-> 0]
    /\ pre = [s \in Servers |-> [x \in Origins |-> 0]]
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
    /\ UNCHANGED <<net, conn, delivered, faults, sess, R, pre, snet>>

Connect(s) == ConnectBase(s) /\ UNCHANGED stratVars
Disconnect == DisconnectBase /\ UNCHANGED stratVars

StartSession(s) ==
    /\ conn = s
    /\ ~sess[s].active
    /\ sess' = [sess EXCEPT ![s] = [active |-> TRUE, pending |-> <<>>]]
    /\ lastAction' = [name |-> "StartSession", server |-> s]
    /\ UNCHANGED <<baseVars, ctr, K, R, pre, snet>>

FirstOfStream(s, i) == ~\E j \in K[s] : j.server = i.server /\ j.seq < i.seq

SendNote(s, i) ==
    /\ sess[s].active
    /\ sess[s].pending = <<>>
    /\ i \in K[s]
    /\ FirstOfStream(s, i)
    /\ net' = net \cup {NoteMsg(s, i)}
    /\ sess' = [sess EXCEPT ![s].pending = <<i>>]
    /\ lastAction' = [name |-> "SendNote", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, K, R, pre, snet>>

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
    /\ UNCHANGED <<conn, created, faults, ctr, K, sess, pre, snet>>

\* A.1: Deliver returned success, "K = K - {i}".  Rule "advance": the ack of
\* x.n certifies x.1 .. x.n processed (see the header), so the prefix moves
\* to n.  The core's removed.add(i) becomes this one number.
ReceiveAck(m) ==
    /\ m \in net
    /\ m.type = "ack"
    /\ sess[m.to].pending = <<m.note>>
    /\ net' = Consume(m)
    /\ K' = [K EXCEPT ![m.to] = @ \ {m.note}]
    /\ pre' = [pre EXCEPT ![m.to][m.note.server] = Max(@, m.note.seq)]
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
    /\ UNCHANGED <<net, conn, created, delivered, ctr, K, R, pre, snet>>

-----------------------------------------------------------------------------
(* The sync, as the cores run it.                                           *)

\* StreamServer.startSync: a request to t with s's prefixes (rule "send":
\* the stored numbers, which only acks and merges move).
StartSync(s, t) ==
    /\ s # t
    /\ ~\E m \in snet : {m.from, m.to} = {s, t}
    /\ snet' = snet \cup {SyncMsg("syncReq", s, t, pre[s])}
    /\ lastAction' = [name |-> "StartSync", server |-> s, peer |-> t]
    /\ UNCHANGED <<baseVars, ctr, K, sess, R, pre>>

\* Rule "merge": the larger prefix of each stream, and K loses what it
\* covers.  A message may be stale (built long ago, duplicated, reordered):
\* max makes it harmless, since a prefix it carries was true when built and
\* stays true (ids are never reused in Strategy 1).
Merged(s, theirs) == [x \in Origins |-> Max(pre[s][x], theirs[x])]
Merge(s, theirs) ==
    /\ pre' = [pre EXCEPT ![s] = Merged(s, theirs)]
    /\ K' = [K EXCEPT ![s] = @ \ Expand(Merged(s, theirs))]

\* StreamServer.handleSync: merge, then reply with the merged prefixes.
HandleSync(m) ==
    /\ m \in snet
    /\ m.type = "syncReq"
    /\ Merge(m.to, m.pre)
    /\ snet' = (snet \ {m})
                 \cup {SyncMsg("syncRep", m.to, m.from, Merged(m.to, m.pre))}
    /\ lastAction' = [name |-> "HandleSync", server |-> m.to, peer |-> m.from]
    /\ UNCHANGED <<baseVars, ctr, sess, R>>

\* StreamServer.receiveSyncReply.
ReceiveSyncReply(m) ==
    /\ m \in snet
    /\ m.type = "syncRep"
    /\ Merge(m.to, m.pre)
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
    /\ UNCHANGED <<net, conn, created, delivered, ctr, K, sess, R, pre>>

ClientCrash == ClientCrashBase /\ UNCHANGED stratVars

ServerCrash(s) ==
    /\ sess[s] # Idle
    /\ ServerCrashBase(s)
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<ctr, K, R, pre, snet>>

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

\* Knowledge is true: a prefix, here or in a message, covers processed notes only.
PrefixWasProcessed ==
    /\ \A s \in Servers : \A i \in Expand(pre[s]) : Processed(i)
    /\ \A m \in snet : \A i \in Expand(m.pre) : Processed(i)

\* The prefix never claims a note that does not exist yet (what the stale
\* sync of MutS1MsgPrefixFromK breaks first).
PrefixWithinCounter == \A s \in Servers : \A x \in Origins : pre[s][x] <= ctr[x]

\* Under atomic replication K is exactly what is created and not known
\* delivered: the prefix loses nothing K still needs.
KIsCreatedMinusPrefix == \A s \in Servers : K[s] = created \ Expand(pre[s])

\* The state-size bound (issue 19): the knowledge a server keeps, and every
\* sync message carries, is one number per stream, however long the run
\* (ExactlyOnceS1MsgSet's KnowledgeBounded fails: the control).  Cardinality
\* of DOMAIN, not of Origins, so that a knowledge that grew a key would fail.
KnowledgeSize(s) == Cardinality(DOMAIN pre[s])
KnowledgeBounded ==
    /\ \A s \in Servers : KnowledgeSize(s) <= Cardinality(Origins)
    /\ \A m \in snet : Cardinality(DOMAIN m.pre) <= Cardinality(Origins)
=============================================================================
