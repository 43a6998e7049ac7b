------------------------- MODULE ExactlyOnceGather -------------------------
(***************************************************************************)
(* The server-centric base of Strategies 4-6 (sec. 3.3, L171-254; App.     *)
(* A.6-A.8), on ExactlyOnceBase.  "servers assume the primary              *)
(* responsibility of remembering which notes have been delivered" (L179);  *)
(* the client keeps no state a spec relies on.                             *)
(*                                                                         *)
(* aDeliver (3.3.1, L191-193) is one atomic step, ADeliverOK(s, i): the    *)
(* client processes the note (rho = 1) and the outcome is logged durably  *)
(* ("the return value of aDeliver(T, m) is always logged in permanent      *)
(* storage"), i.e. D[s] gets i in the same step (Z9).  ADeliverErr(s, i)   *)
(* leaves rho = 0 and the session aborts.  A second call after a success   *)
(* has an undefined outcome (L193); it is modelled pessimistically: the    *)
(* client processes the note again, so NoDuplicateDelivery catches it,    *)
(* and NoReattempt says no call happens at all (L185, L193).               *)
(*                                                                         *)
(* A session ("HandleClient", A.6-A.8) of server s for the client:         *)
(*   StartSession(s): "Request my notes" arrives on the current connection; *)
(*     the strategy decides the servers to gather from (`stale`);           *)
(*   ReqD(s, t) / ReplyD(t, m) / RecvD(s, m): "Request for list D", the     *)
(*     reply with t's D, and its merge "D[s] = D[s] - (D[s] - K); D = D +   *)
(*     D[s]" (A.6); GatherFail(s) is the gather's `{abort;}`;              *)
(*   EndGather(s): every stale server replied, "Can start delivery now";   *)
(*   ADeliverOK / ADeliverErr: the delivery loop.                          *)
(* Corrections, each needed and documented in the README:                  *)
(* - a session belongs to one connection (Z12): its id is the connection's *)
(*   (`connId`, a fresh id per connection, as a server-issued session id   *)
(*   would be), aDeliver needs that connection to be the current one, and  *)
(*   a reply counts only for the session whose request it answers;         *)
(* - the loop re-checks i \in K \ D at each aDeliver (Z5), instead of      *)
(*   walking the snapshot U = K - D.                                       *)
(*                                                                         *)
(* Server-to-server messages travel in `snet` (a set, like the base's net: *)
(* lost, reordered, delayed, and duplicated when AllowDup), each           *)
(* [type, from, to, sid, d, ts]: "reqD" (sid), "replyD" (sid, d = the      *)
(* replier's D, ts = its send time) and, in S5/S6, "sync" (d, ts).  `net`  *)
(* (server-client) stays empty: aDeliver is atomic.  ExactlyOnceS4Deliver  *)
(* puts the plain Deliver back and uses it.                                *)
(*                                                                         *)
(* PurgeSync(s, t) reclaims space "Exactly as in Strategy 3" but without   *)
(* the client (L213): an atomic exchange keeping K[s] \cap K[t] (a note    *)
(* missing from a K was purged, Z1) and the union of both D; then each     *)
(* drops the notes every server has in its D (or has purged), which a     *)
(* server knows from its syncs (S3's `known`, here read directly: a D      *)
(* loses a note only in a purge, so what a sync said stays true).         *)
(*                                                                         *)
(* Cut is a set of servers partitioned forever from every other server and *)
(* from the client (L252's "irrelevant network partition"); {} elsewhere. *)
(***************************************************************************)
EXTENDS ExactlyOnceBase, Integers

CONSTANTS
    NoteIds,   \* the notes' ids, in creation order (a sequence of strings)
    Cut        \* servers cut off from everyone, forever (L252); {} in most models

ASSUME NoteIdsAreStrings ==
    NoteIds \in Seq(STRING) /\ MaxNotes <= Len(NoteIds)
    /\ \A j, k \in DOMAIN NoteIds : j # k => NoteIds[j] # NoteIds[k]
ASSUME CutIsServers == Cut \subseteq Servers /\ Cut # Servers

VARIABLES
    K,       \* server, durable: notes not purged (undelivered and delivered)
    D,       \* server, durable: the notes of K it knows delivered (the aDeliver log, L193)
    sess,    \* server, volatile: the HandleClient session for the client
    snet,    \* server-to-server network: a set of messages
    connId   \* client connections so far; the current connection's (= its session's) id

gatherVars == <<K, D, sess, snet, connId>>

NoteUniverse == {NoteIds[k] : k \in 1..MaxNotes}
SnetTypes == {"reqD", "replyD", "sync"}

\* phase: "idle" | "gather" | "deliver"; sid: the connection it serves;
\* stale: the servers it must hear from; asked, replied: progress of the
\* gather; common: the intersection of the replies' D (for A.6's purge).
Idle == [phase |-> "idle", sid |-> 0, stale |-> {}, asked |-> {}, replied |-> {}, common |-> {}]

SMsg(type, from, to, sid, d, ts) ==
    [type |-> type, from |-> from, to |-> to, sid |-> sid, d |-> d, ts |-> ts]

ConsumeS(m) == IF AllowDup THEN snet ELSE snet \ {m}

\* Two servers can exchange messages unless one is cut off (L252).
Link(s, t) == s \notin Cut /\ t \notin Cut

\* The session of s serves the client's current connection.
Live(s) == conn = s /\ sess[s].sid = connId

GatherTypeOK ==
    /\ BaseTypeOK
    /\ created \subseteq NoteUniverse
    /\ K \in [Servers -> SUBSET NoteUniverse]
    /\ D \in [Servers -> SUBSET NoteUniverse]
    /\ sess \in [Servers -> [phase : {"idle", "gather", "deliver"}, sid : Nat,
                             stale : SUBSET Servers, asked : SUBSET Servers,
                             replied : SUBSET Servers, common : SUBSET NoteUniverse]]
    /\ \A m \in snet : m.type \in SnetTypes /\ {m.from, m.to} \subseteq Servers
                       /\ m.d \subseteq NoteUniverse /\ m.sid \in Nat /\ m.ts \in Int
    /\ connId \in Nat

\* aDeliver is one step: nothing travels between server and client.
NoClientNet == net = {}

GatherInit ==
    /\ BaseInit
    /\ K = [s \in Servers |-> {}]
    /\ D = [s \in Servers |-> {}]
    /\ sess = [s \in Servers |-> Idle]
    /\ snet = {}
    /\ connId = 0

-----------------------------------------------------------------------------
(* Steps on the base and gather variables; each strategy conjoins its own  *)
(* variables' changes (or UNCHANGED).                                       *)

\* As S3 (L146): a note enters every server's K at once (Z1).
CreateNoteG ==
    /\ Cardinality(created) < MaxNotes
    /\ LET i == NoteIds[Cardinality(created) + 1] IN
         /\ K' = [s \in Servers |-> K[s] \cup {i}]
         /\ created' = created \cup {i}
         /\ lastAction' = [name |-> "CreateNote", note |-> i]
    /\ UNCHANGED <<net, conn, delivered, faults, D, sess, snet, connId>>

\* A new connection, with a new id; the client cannot reach a cut server.
ConnectG(s) ==
    /\ s \notin Cut
    /\ ConnectBase(s)
    /\ connId' = connId + 1
    /\ UNCHANGED <<K, D, sess, snet>>

DisconnectG == DisconnectBase /\ UNCHANGED gatherVars
ClientCrashG == ClientCrashBase /\ UNCHANGED gatherVars

\* A.6-A.8 "HandleClient(c)" starts for the current connection; a request on
\* a new connection replaces any older session of s (Z12).  `stale` is the
\* strategy's: every other server (S4), the ones whose sync is too old (S5)
\* or older than the client's history says (S6).  The strategy sets
\* lastAction ([name |-> "StartSession", server, sid, stale, ...]).
StartSessionG(s, stale) ==
    /\ conn = s
    /\ sess[s].sid # connId
    /\ sess' = [sess EXCEPT ![s] = [phase |-> "gather", sid |-> connId, stale |-> stale,
                                    asked |-> {}, replied |-> {}, common |-> K[s]]]
    /\ UNCHANGED <<baseVars, K, D, snet, connId>>

\* A.6: "foreach s in S, in parallel { Deliver(s, 'Request for list D')".
ReqDG(s, t) ==
    /\ sess[s].phase = "gather"
    /\ t \in sess[s].stale \ sess[s].asked
    /\ snet' = snet \cup {SMsg("reqD", s, t, sess[s].sid, {}, 0)}
    /\ sess' = [sess EXCEPT ![s].asked = @ \cup {t}]
    /\ lastAction' = [name |-> "ReqD", server |-> s, peer |-> t, sid |-> sess[s].sid]
    /\ UNCHANGED <<baseVars, K, D, connId>>

\* The handler of "Request for list D" (not printed, L705): t answers with
\* its D as it is now and, for S5/S6, its clock (`ts`; 0 in S4).
ReplyDG(t, m, ts) ==
    /\ m \in snet
    /\ m.type = "reqD"
    /\ m.to = t
    /\ Link(m.from, t)
    /\ snet' = ConsumeS(m) \cup {SMsg("replyD", t, m.from, m.sid, D[t], ts)}
    /\ lastAction' = [name |-> "ReplyD", server |-> t, peer |-> m.from, sid |-> m.sid,
                      d |-> D[t], ts |-> ts]
    /\ UNCHANGED <<baseVars, K, D, sess, connId>>

\* A.6: "Receive(m); D[s] = m.body; D[s] = D[s] - (D[s] - K); D = D + D[s]".
\* A reply counts only for the session whose request it answers.
MergeD(s, m) == m.d \cap K[s]

RecvDG(s, m) ==
    /\ m \in snet
    /\ m.type = "replyD"
    /\ m.to = s
    /\ sess[s].phase = "gather"
    /\ m.sid = sess[s].sid
    /\ m.from \in sess[s].stale \ sess[s].replied
    /\ snet' = ConsumeS(m)
    /\ D' = [D EXCEPT ![s] = @ \cup MergeD(s, m)]
    /\ sess' = [sess EXCEPT ![s].replied = @ \cup {m.from}, ![s].common = @ \cap m.d]
    /\ lastAction' = [name |-> "RecvD", server |-> s, peer |-> m.from, sid |-> m.sid,
                      d |-> m.d, ts |-> m.ts]
    /\ UNCHANGED <<net, conn, created, delivered, faults, K, connId>>

\* The gather is stuck: a server it asked has neither request nor reply on
\* the way (one was lost).  Giving up otherwise is a late timeout, a fault.
GatherStuck(s) ==
    \E t \in sess[s].asked \ sess[s].replied :
        \A m \in snet : ~(m.sid = sess[s].sid /\ m.type \in {"reqD", "replyD"}
                          /\ {m.from, m.to} = {s, t})

GatherFailCost(s) == IF GatherStuck(s) THEN 0 ELSE 1

\* A.6 `{abort;}` in the parallel foreach: "the server aborts as soon as it
\* fails to contact one of the other servers" (L703).
GatherFailG(s) ==
    /\ sess[s].phase = "gather"
    /\ faults + GatherFailCost(s) <= MaxFaults
    /\ faults' = faults + GatherFailCost(s)
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ lastAction' = [name |-> "GatherFail", server |-> s, sid |-> sess[s].sid]
    /\ UNCHANGED <<net, conn, created, delivered, K, D, snet, connId>>

\* A.6: "Got response from each s. Purge those messages that everybody knows
\* about. P = D[1] intersect ... intersect D[N]; D = D - P; K = K - P."  Only
\* when the gather asked every other server (S4; S5/S6 pass {}).
GatherPurge(s) ==
    IF sess[s].stale = Servers \ {s} THEN D[s] \cap sess[s].common ELSE {}

\* "Got response from each s" (A.6): every stale server's D is merged.
GatherDone(s) == sess[s].replied = sess[s].stale

EndGatherG(s, P) ==
    /\ sess[s].phase = "gather"
    /\ GatherDone(s)
    /\ K' = [K EXCEPT ![s] = @ \ P]
    /\ D' = [D EXCEPT ![s] = @ \ P]
    /\ sess' = [sess EXCEPT ![s].phase = "deliver"]
    /\ lastAction' = [name |-> "EndGather", server |-> s, sid |-> sess[s].sid, purged |-> P]
    /\ UNCHANGED <<baseVars, snet, connId>>

\* The notes a session may hand over now: corrected (Z5), K - D as it is at
\* the call, not the snapshot U taken at EndGather.
Deliverable(s) == K[s] \ D[s]

\* aDeliver(c, "Here is note i") returns success: rho(c, i) = 1, logged in
\* D (L191-193, Z9), one atomic step.  Only on the session's own connection.
ADeliverOKG(s, i) ==
    /\ sess[s].phase = "deliver"
    /\ Live(s)
    /\ i \in Deliverable(s)
    /\ MayReceive
    /\ delivered' = Append(delivered, i)
    /\ D' = [D EXCEPT ![s] = @ \cup {i}]
    /\ lastAction' = [name |-> "ADeliverOK", server |-> s, note |-> i, sid |-> sess[s].sid]
    /\ UNCHANGED <<net, conn, created, faults, K, sess, snet, connId>>

\* aDeliver returns error: rho(c, i) = 0 (L193), logged, `{abort;}`.
ADeliverErrG(s, i) ==
    /\ sess[s].phase = "deliver"
    /\ Live(s)
    /\ i \in Deliverable(s)
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ lastAction' = [name |-> "ADeliverErr", server |-> s, note |-> i, sid |-> sess[s].sid]
    /\ UNCHANGED <<net, conn, created, delivered, K, D, snet, connId>>

\* L213 "Exactly as in Strategy 3 ... messages whose delivery is known to all
\* servers are purged", without the client: see the header.  Everyone(i):
\* every server has i in D or has already purged it.
KnownToAll(i) == \A u \in Servers : i \in D[u] \/ i \notin K[u]

PurgeSyncG(s, t) ==
    /\ s # t
    /\ Link(s, t)
    /\ LET Kn == K[s] \cap K[t]
           Dn == (D[s] \cup D[t]) \cap Kn
           P  == {i \in Dn : KnownToAll(i)}
       IN /\ (K[s] # Kn \/ K[t] # Kn \/ D[s] # Dn \/ D[t] # Dn \/ P # {})
          /\ K' = [K EXCEPT ![s] = Kn \ P, ![t] = Kn \ P]
          /\ D' = [D EXCEPT ![s] = Dn \ P, ![t] = Dn \ P]
          /\ lastAction' = [name |-> "PurgeSync", server |-> s, peer |-> t, purged |-> P]
    /\ UNCHANGED <<baseVars, sess, snet, connId>>

\* A server crash loses the session (and pending calls); K, D are durable
\* (Z13).
ServerCrashG(s) ==
    /\ sess[s] # Idle
    /\ ServerCrashBase(s)
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<K, D, snet, connId>>

LoseS(m) ==
    /\ m \in snet
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ snet' = snet \ {m}
    /\ lastAction' = [name |-> "Lose", type |-> m.type, from |-> m.from, to |-> m.to,
                      sid |-> m.sid, d |-> m.d, ts |-> m.ts]
    /\ UNCHANGED <<net, conn, created, delivered, K, D, sess, connId>>

-----------------------------------------------------------------------------
(* Properties every server-centric strategy states (with the base's        *)
(* NoDuplicateDelivery, here "relaxed exactly-once": exactly-once given     *)
(* aDeliver, L195).                                                         *)

\* L185, L193: "it is up to our exactly-once algorithms to guarantee that
\* aDeliver is never called again if the first time it was successful":
\* a success is the note's only processing, an error comes before any.
Count(i) == Cardinality({k \in DOMAIN delivered : delivered[k] = i})
NoReattempt ==
    /\ lastAction.name = "ADeliverOK" => Count(lastAction.note) = 1
    /\ lastAction.name = "ADeliverErr" => Count(lastAction.note) = 0

\* L211: "This step ensures that the server is aware of all the notes that
\* have previously been delivered to the client": a session that delivers
\* to the current connection has every processed note of its K in its D.
GatherSound ==
    \A s \in Servers :
        (sess[s].phase = "deliver" /\ Live(s)) =>
            \A i \in K[s] : Processed(i) => i \in D[s]

\* L211: "D of just the latter" (the delivered notes of K).
DWithinK == \A s \in Servers : D[s] \subseteq K[s]

\* A note is in a D only if the client processed it (aDeliver's log).
DImpliesProcessed == \A s \in Servers : \A i \in D[s] : Processed(i)

\* L213: a note leaves a K only once every server has it in D or purged it,
\* so no server that still holds it can deliver it again.
PurgeSafe ==
    \A i \in created :
        (\E s \in Servers : i \notin K[s]) => Processed(i) /\ KnownToAll(i)

\* Availability (Table 2 last section, L238, L252): a trap; with a cut server
\* it holds where delivery blocks (S4, S5) and TLC refutes it where delivery
\* goes on (S6).
NeverDeliversWhileCut == Cut # {} => Len(delivered) = 0
=============================================================================
