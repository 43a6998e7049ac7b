------------------------------- MODULE Causal -------------------------------
(***************************************************************************)
(* Reliable FIFO and causal broadcast with Reactive Error Recovery (RER):  *)
(* Martori and Urso, "Reliable causal delivery with probabilistic design"  *)
(* (Inria RR-8985, 2016), sections 2.1, 5.1 and 5.3; reading notes in      *)
(* ../shared/notes/causal-reading.md (sec. 2, 3).                          *)
(*                                                                         *)
(* Every node broadcasts its events to every other node.  A received       *)
(* message waits in the buffer until everything before it in the order    *)
(* (FIFO: its origin's earlier events; causal: also what its origin had    *)
(* delivered) has been delivered (2.1).  The order's metadata, a vector    *)
(* clock, also tells a receiver which messages it misses; RER waits w for  *)
(* them, then asks the original node, and after RTO asks "another node    *)
(* that knows this message", found from the causal metadata (5.1, 5.3).   *)
(*                                                                         *)
(* Recovery = "faithful" is that design as written: one request, one       *)
(* retry, and a node learns of a missing message only from a later message *)
(* that depends on it.  It is not live (EventualDelivery fails: a lost     *)
(* last message is never detected).  Recovery = "live" is the protocol     *)
(* onceproof implements: every node also sends its vector clock as a      *)
(* heartbeat while idle, and retries after every RTO, cycling through      *)
(* every node known to hold the message.                                   *)
(*                                                                         *)
(* The network is a set of envelopes: a received envelope stays (it may    *)
(* arrive again: duplication; with Duplicating FALSE a data or resend copy *)
(* is consumed), any one may arrive next (reordering,                      *)
(* delay), Lose removes one of a type in Lossy.  Nodes in Faulty may crash     *)
(* (crash-stop).  Timers are untimed: a timer step is enabled whenever its *)
(* phase holds, which covers every value of w, RTO and the heartbeat       *)
(* period (RER's safety does not depend on them, only its cost).           *)
(*                                                                         *)
(* Names are the Java core's (specs/CONVENTIONS.md, section Causal);       *)
(* bounds live only in the MC*.tla / .cfg files.                           *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

CONSTANTS
    Nodes,     \* sequence of distinct node ids (strings); its order is the ring retries cycle through
    Mode,      \* "fifo" | "causal" | "unordered": the order enforced, and the metadata a message carries
    Recovery,  \* "faithful" (the paper) | "restart" (the paper with L240 read literally) | "live" (heartbeats and cycling retries)
    Faulty,    \* nodes that may crash (crash-stop, 5.3's "faulty process")
    MaxSeq,    \* model bound: node -> number of events it broadcasts
    Lossy,     \* the envelope types the network may lose ({} = none)
    Duplicating, \* may a data or resend copy arrive more than once?
    Collecting, \* TRUE: nodes learn each other's progress and collect stable events (CollectGarbage)
    MaxBuffered, \* memory bound: a copy that must wait is refused once buf holds this many
    MaxStored    \* memory bound: a node broadcasts only while its store holds fewer

Node == {Nodes[x] : x \in 1..Len(Nodes)}

ASSUME NodesAreStrings == /\ Nodes \in Seq(STRING)
                          /\ Len(Nodes) >= 2
                          /\ Cardinality(Node) = Len(Nodes)
ASSUME ModeIsKnown     == Mode \in {"fifo", "causal", "unordered"}
ASSUME RecoveryIsKnown == Recovery \in {"faithful", "restart", "live"}
ASSUME FaultyAreNodes  == Faulty \subseteq Node
ASSUME MaxSeqIsBound   == MaxSeq \in [Node -> Nat]
ASSUME DupIsBool       == Duplicating \in BOOLEAN
ASSUME CollectingIsBool == Collecting \in BOOLEAN
ASSUME BoundsArePositive == MaxBuffered \in Nat \ {0} /\ MaxStored \in Nat \ {0}
ASSUME LossyAreTypes   == Lossy \subseteq {"data", "resend", "req", "hb"}

Correct   == Node \ Faulty
Heartbeat == Recovery = "live"   \* the live extension (notes Z24); the paper has none

\* Does a heartbeat stay in the network when its sender sends a newer one?
\* The models say no: a newer heartbeat covers all an older one covered, and
\* one heartbeat per node keeps their state spaces small.  A real network
\* keeps it, and may deliver it after the newer one was sent, and the
\* receiver learns from it (trace validation found this: README, "Trace
\* validation", finding).  TRUE where a cfg overrides the definition
\* (KeepOldHeartbeats <- ...): trace validation, MCCausalSafetyOldHb.cfg.
KeepOldHeartbeats == FALSE

VARIABLES
    \* per node: the core's abstract state
    vc,       \* vc[i][k]: k's messages delivered at i (own included)
    buf,      \* buf[i]: messages received, not delivered (2.1 "received" vs "delivered", L181)
    store,    \* store[i]: own and delivered messages, kept to answer requests (5.1)
    missing,  \* missing[i]: RER state of every id i knows it misses
    up,       \* up[i]: FALSE once i crashed
    dlog,     \* dlog[i]: ids in delivery order (the application's view)
    known,    \* known[i][j]: what i has learnt of j's delivered prefix (j # i; row i is vc[i])
    \* environment
    net,      \* envelopes in transit
    \* history, never read by the protocol
    sent,     \* every broadcast id with its causal past (ghost)
    lastAction

nodeVars == <<vc, buf, store, missing, up, dlog, known>>
pvars    == <<nodeVars, net, sent>>
vars     == <<pvars, lastAction>>

ActionNames == {"Init", "Broadcast", "Receive", "Deliver", "ExpireWait", "ExpireRto",
                "ServeRequest", "SendHeartbeat", "ReceiveHeartbeat", "Lose", "Crash",
                "CollectGarbage"}

-----------------------------------------------------------------------------
(* Ids, messages, envelopes.                                                *)

N == Len(Nodes)
Pos(n) == CHOOSE x \in 1..N : Nodes[x] = n
Range(s) == {s[x] : x \in DOMAIN s}

IdOf(x)    == [origin |-> x.origin, seq |-> x.seq]
AllIds     == UNION {{[origin |-> k, seq |-> s] : s \in 1..MaxSeq[k]} : k \in Node}
NoVc       == [k \in Node |-> 0]
Phases     == {"waiting", "asked", "retried"}

\* The metadata of the seq-th event of i.  Causal: i's delivered counts
\* (what its event depends on), with its own entry the new seq.  FIFO: the
\* id alone, every other entry 0, so Deps and Deliverable below reduce to
\* FIFO (notes Z21: (origin, seq) in FIFO).  Unordered (L264: "used
\* ordering metadata for error recovery, but didn't enforce it for message
\* delivery"): the causal clock, used only to find what is missing.
Stamp(i, s) == IF Mode # "fifo" THEN [vc[i] EXCEPT ![i] = s]
                                  ELSE [k \in Node |-> IF k = i THEN s ELSE 0]

\* The ids a message's metadata says precede it: its origin's earlier events
\* and, in causal mode, what its origin had delivered from the others.
Deps(m) == {[origin |-> m.origin, seq |-> s] : s \in 1..(m.seq - 1)}
           \cup UNION {{[origin |-> k, seq |-> s] : s \in 1..m.vc[k]} : k \in Node \ {m.origin}}

\* The ids a vector clock covers (everything its owner has delivered).
Covered(v) == UNION {{[origin |-> k, seq |-> s] : s \in 1..v[k]} : k \in Node}

Env(type, from, to, x, v) ==
    [type |-> type, from |-> from, to |-> to, origin |-> x.origin, seq |-> x.seq, vc |-> v]
DataEnv(m, to)        == Env("data", m.origin, to, m, m.vc)
ResendEnv(m, from, to) == Env("resend", from, to, m, m.vc)
ReqEnv(from, to, d)    == Env("req", from, to, d, NoVc)
HbEnv(from, to, v)     == Env("hb", from, to, [origin |-> from, seq |-> 0], v)
MsgOf(e) == [origin |-> e.origin, seq |-> e.seq, vc |-> e.vc]

\* vc[i][k] is the delivered prefix of k's events; only the unordered mode
\* delivers above it (the core's DeliveredSet), which dlog records.
Dlv(i, d)     == d.seq <= vc[i][d.origin] \/ (Mode = "unordered" /\ d \in Range(dlog[i]))
Buf(i, d)     == \E m \in buf[i] : IdOf(m) = d
Has(i, d)     == Dlv(i, d) \/ Buf(i, d)
Tracked(i, d) == \E r \in missing[i] : IdOf(r) = d
Held(i, d)    == \E m \in buf[i] \cup store[i] : IdOf(m) = d
CopyAt(i, d)  == CHOOSE m \in buf[i] \cup store[i] : IdOf(m) = d

\* 2.1, L101 and L133: deliver when everything before it has been delivered.
\* Unordered: on receipt.
Deliverable(i, m) ==
    \/ Mode = "unordered"
    \/ /\ m.seq = vc[i][m.origin] + 1
       /\ \A k \in Node \ {m.origin} : m.vc[k] <= vc[i][k]

\* The delivered prefix of m's origin once m is delivered: m.seq in the
\* ordered modes; in the unordered mode it absorbs what was delivered above.
SeqsOf(i, k) == {x.seq : x \in {y \in Range(dlog[i]) : y.origin = k}}
PrefixWith(i, m) ==
    IF Mode # "unordered" THEN m.seq
    ELSE LET got == SeqsOf(i, m.origin) \cup {m.seq}
         IN CHOOSE p \in 0..MaxSeq[m.origin] : 1..p \subseteq got /\ (p + 1) \notin got

\* The first holder after x in the ring of Nodes (x itself if it is the only
\* one): whom a retry asks.  Starting after the node asked last makes the
\* live retries visit every known holder in turn.
Dist(x, h) == (Pos(h) - Pos(x) - 1 + N) % N
NextHolder(H, x) == CHOOSE h \in H : \A g \in H : Dist(x, h) <= Dist(x, g)

\* RER step R1 (5.1, "it is seen that the message A is not there yet. At
\* this point, a waiting time timer (w) is started"): node i learns from
\* node h's metadata that h has delivered the ids in ids.  An id i neither
\* holds nor tracks starts waiting; one it already tracks gains h as holder.
\* Recovery = "restart" reads L240 literally for a tracked id too: one whose
\* single retry has run out (phase retried) starts waiting again, so the
\* holder this message names is asked in turn (a timer still running keeps
\* it: else a steady flow of messages would postpone the request for ever).
Restarted(r, h) ==
    IF Recovery = "restart" /\ r.phase = "retried"
    THEN [r EXCEPT !.holders = @ \cup {h}, !.phase = "waiting", !.asked = ""]
    ELSE [r EXCEPT !.holders = @ \cup {h}]
Reveal(i, ids, h) ==
    LET fresh == {d \in ids : ~Has(i, d) /\ ~Tracked(i, d)}
        seen  == {r \in missing[i] : IdOf(r) \in ids}
    IN (missing[i] \ seen)
       \cup {Restarted(r, h) : r \in seen}
       \cup {[origin |-> d.origin, seq |-> d.seq, phase |-> "waiting",
              holders |-> {d.origin, h}, asked |-> ""] : d \in fresh}

\* Stability (not in the paper; reading notes sec. 7): an event's clock is
\* its origin's delivered prefix when it issued it, and a heartbeat carries
\* its sender's prefix, so i learns a lower bound of j's progress from what
\* j sends.  Learnt only when Collecting, so models without garbage
\* collection keep their state space.
Learn(i, j, v) == IF Collecting
                  THEN [known EXCEPT ![i][j] = [k \in Node |-> IF v[k] > @[k] THEN v[k] ELSE @[k]]]
                  ELSE known
Row(i, j) == IF j = i THEN vc[i] ELSE known[i][j]
\* d is stable at i: i knows every node has delivered it, so nobody asks again.
Stable(i, d) == \A j \in Node : d.seq <= Row(i, j)[d.origin]

\* The causal past of an id, from the ghost history.
PastOf(d) == (CHOOSE x \in sent : IdOf(x) = d).past
SentIds   == {IdOf(x) : x \in sent}

TypeOK ==
    /\ vc \in [Node -> [Node -> Nat]]
    /\ \A i \in Node :
         /\ \A m \in buf[i] \cup store[i] : IdOf(m) \in AllIds /\ m.vc \in [Node -> Nat]
         /\ \A r \in missing[i] : /\ IdOf(r) \in AllIds /\ r.phase \in Phases
                                  /\ r.holders \subseteq Node /\ r.asked \in Node \cup {""}
         /\ dlog[i] \in Seq(AllIds)
    /\ up \in [Node -> BOOLEAN]
    /\ known \in [Node -> [Node -> [Node -> Nat]]]
    /\ \A e \in net : e.type \in {"data", "resend", "req", "hb"} /\ {e.from, e.to} \subseteq Node
    /\ lastAction.name \in ActionNames

-----------------------------------------------------------------------------
Init ==
    /\ vc = [i \in Node |-> NoVc]
    /\ buf = [i \in Node |-> {}]
    /\ store = [i \in Node |-> {}]
    /\ missing = [i \in Node |-> {}]
    /\ up = [i \in Node |-> TRUE]
    /\ dlog = [i \in Node |-> <<>>]
    /\ known = [i \in Node |-> [j \in Node |-> NoVc]]
    /\ net = {}
    /\ sent = {}
    /\ lastAction = [name |-> "Init"]

\* L97: an event "occurs first on a node, called original node, and it is
\* sent within a message to other nodes".  The origin delivers it at once
\* (notes Z29) and keeps it to answer requests.
Broadcast(i) ==
    /\ up[i]
    /\ vc[i][i] < MaxSeq[i]
    /\ Cardinality(store[i]) < MaxStored   \* else refused (STORE_FULL) until collection frees it
    /\ LET s == vc[i][i] + 1
           m == [origin |-> i, seq |-> s, vc |-> Stamp(i, s)]
           delivered == Range(dlog[i])
       IN /\ vc' = [vc EXCEPT ![i][i] = s]
          /\ store' = [store EXCEPT ![i] = @ \cup {m}]
          /\ dlog' = [dlog EXCEPT ![i] = Append(@, IdOf(m))]
          /\ net' = net \cup {DataEnv(m, j) : j \in Node \ {i}}
          /\ sent' = sent \cup {[origin |-> i, seq |-> s,
                                 past |-> delivered \cup UNION {PastOf(d) : d \in delivered}]}
          /\ lastAction' = [name |-> "Broadcast", node |-> i, seq |-> s]
    /\ UNCHANGED <<buf, missing, up, known>>

\* L235: "Once a message is received the system has to check if the message
\* is deliverable since it may happen that there are previous messages that
\* have not yet been received."  A copy of a message i has (delivered or
\* buffered) is a duplicate: dropped (the paper has no rule; RER itself
\* makes duplicates, L244).  A new one is buffered, its own RER entry ends
\* (green, blue or red outcome of Fig. 1), and its metadata reveals what i
\* misses (R1), with the message's origin as a holder of all of it.  The
\* buffer is bounded (CausalNode's maxBuffered): a new copy that must wait
\* is refused when MaxBuffered copies wait already, and recovered later; a
\* deliverable one is always taken, or a full buffer of events waiting for
\* it would refuse the very copy they wait for.
Receive(i, e) ==
    /\ up[i]
    /\ e \in net
    /\ e.to = i
    /\ e.type \in {"data", "resend"}
    /\ LET m == MsgOf(e)
           outcome == IF Has(i, IdOf(m)) THEN "duplicate"
                      ELSE IF Cardinality(buf[i]) >= MaxBuffered /\ ~Deliverable(i, m) THEN "refused"
                      ELSE "buffered"
       IN /\ IF outcome # "buffered"
               THEN UNCHANGED <<buf, missing, known>>
               ELSE /\ buf' = [buf EXCEPT ![i] = @ \cup {m}]
                    /\ missing' = [missing EXCEPT ![i] =
                                     {r \in Reveal(i, Deps(m), m.origin) : IdOf(r) # IdOf(m)}]
                    /\ known' = Learn(i, m.origin, m.vc)
          /\ lastAction' = [name |-> "Receive", node |-> i, from |-> e.from, type |-> e.type,
                            origin |-> m.origin, seq |-> m.seq, vc |-> m.vc, outcome |-> outcome]
    /\ net' = IF Duplicating THEN net ELSE net \ {e}
    /\ UNCHANGED <<vc, store, up, dlog, sent>>

\* 2.1: "The system delivers the event only when all the preceding events
\* -- according to the order -- have been delivered."
Deliver(i, m) ==
    /\ up[i]
    /\ m \in buf[i]
    /\ Deliverable(i, m)
    /\ buf' = [buf EXCEPT ![i] = @ \ {m}]
    /\ vc' = [vc EXCEPT ![i][m.origin] = PrefixWith(i, m)]
    /\ store' = [store EXCEPT ![i] = @ \cup {m}]
    /\ dlog' = [dlog EXCEPT ![i] = Append(@, IdOf(m))]
    /\ lastAction' = [name |-> "Deliver", node |-> i, origin |-> m.origin, seq |-> m.seq]
    /\ UNCHANGED <<missing, up, net, sent, known>>

\* R3, 5.1: "If the waiting time runs out, N3 contacts N2 to get a resend of
\* the message A" -- N2 is A's original node.
ExpireWait(i, r) ==
    /\ up[i]
    /\ r \in missing[i]
    /\ r.phase = "waiting"
    /\ missing' = [missing EXCEPT ![i] = (@ \ {r}) \cup {[r EXCEPT !.phase = "asked",
                                                                     !.asked = r.origin]}]
    /\ net' = net \cup {ReqEnv(i, r.origin, IdOf(r))}
    /\ lastAction' = [name |-> "ExpireWait", node |-> i, origin |-> r.origin, seq |-> r.seq,
                      to |-> r.origin]
    /\ UNCHANGED <<vc, buf, store, up, dlog, sent, known>>

\* R4, 5.3: "if neither the original nor the resent message arrive, the node
\* asks the missing to another node that knows this message ... To compute
\* which node knows which message, we can use causal order meta-data."
\* Faithful and restart: that one retry.  Live: a retry after every RTO, each to the
\* next known holder (notes Z16, Z17).  A retry that would change nothing
\* (same holder, request still in the network) is not a separate state.
ExpireRto(i, r) ==
    /\ up[i]
    /\ r \in missing[i]
    /\ r.phase = "asked"
    /\ LET k == NextHolder(r.holders, r.asked)
           r2 == [r EXCEPT !.phase = IF Recovery = "live" THEN "asked" ELSE "retried",
                           !.asked = k]
       IN /\ missing' = [missing EXCEPT ![i] = (@ \ {r}) \cup {r2}]
          /\ net' = net \cup {ReqEnv(i, k, IdOf(r))}
          /\ <<missing', net'>> # <<missing, net>>
          /\ lastAction' = [name |-> "ExpireRto", node |-> i, origin |-> r.origin, seq |-> r.seq,
                            to |-> k]
    /\ UNCHANGED <<vc, buf, store, up, dlog, sent, known>>

\* R5: a node asked for a message sends the copy it holds, delivered or
\* buffered (notes Z20), unchanged: same id, same metadata.  A node that
\* has no copy refuses (counted in Java; no state change).
ServeRequest(j, e) ==
    /\ up[j]
    /\ e \in net
    /\ e.type = "req"
    /\ e.to = j
    /\ LET d == IdOf(e)
           outcome == IF Held(j, d) THEN "resent" ELSE "refused"
       IN /\ net' = IF outcome = "resent" THEN net \cup {ResendEnv(CopyAt(j, d), j, e.from)}
                                          ELSE net
          /\ lastAction' = [name |-> "ServeRequest", node |-> j, from |-> e.from,
                            origin |-> d.origin, seq |-> d.seq, outcome |-> outcome]
    /\ UNCHANGED <<nodeVars, sent>>

\* Live extension (notes Z24): a node sends its vector clock to every other
\* node while idle, so a lost last message is detected.  Untimed: any time
\* the heartbeat of the current vc is not already in the network.  A
\* heartbeat covers everything an older one of the same node covered, so
\* the older ones still in transit are dropped with no loss of content
\* (this keeps one heartbeat per node in the model, not one per vc).
SendHeartbeat(i) ==
    /\ Heartbeat
    /\ up[i]
    /\ vc[i] # NoVc
    /\ LET hbs == {HbEnv(i, j, vc[i]) : j \in Node \ {i}}
       IN /\ ~(hbs \subseteq net)
          /\ net' = IF KeepOldHeartbeats THEN net \cup hbs
                    ELSE {e \in net : e.type # "hb" \/ e.from # i} \cup hbs
    /\ lastAction' = [name |-> "SendHeartbeat", node |-> i, vc |-> vc[i]]
    /\ UNCHANGED <<nodeVars, sent>>

\* Every id the heartbeat's vc covers and i does not hold is missing, with
\* the heartbeat's sender as a holder.  Only heartbeats that reveal
\* something are steps (one that does not changes nothing in the core).
ReceiveHeartbeat(i, e) ==
    /\ up[i]
    /\ e \in net
    /\ e.type = "hb"
    /\ e.to = i
    /\ missing' = [missing EXCEPT ![i] = Reveal(i, Covered(e.vc), e.from)]
    /\ known' = Learn(i, e.from, e.vc)
    /\ <<missing', known'>> # <<missing, known>>
    /\ lastAction' = [name |-> "ReceiveHeartbeat", node |-> i, from |-> e.from, vc |-> e.vc]
    /\ UNCHANGED <<vc, buf, store, up, dlog, net, sent>>

Lose(e) ==
    /\ e \in net
    /\ e.type \in Lossy
    /\ net' = net \ {e}
    /\ lastAction' = [name |-> "Lose", type |-> e.type, from |-> e.from, to |-> e.to,
                      origin |-> e.origin, seq |-> e.seq, vc |-> e.vc]
    /\ UNCHANGED <<nodeVars, sent>>

\* 5.3 "faulty process", read as crash-stop (notes Z25).  A broadcast is
\* n-1 point-to-point sends (L125), so a crash can cut it short: the
\* crashed node's envelopes not yet received are gone with it.  This is
\* how "the original sender crashed after one other node got the message"
\* happens even on a network that loses nothing.
Crash(i) ==
    /\ i \in Faulty
    /\ up[i]
    /\ up' = [up EXCEPT ![i] = FALSE]
    /\ net' = {e \in net : e.from # i}
    /\ lastAction' = [name |-> "Crash", node |-> i]
    /\ UNCHANGED <<vc, buf, store, missing, dlog, sent, known>>

\* Stability-based garbage collection (CausalNode.collectGarbage): i drops
\* every stable event from its recovery store.  A node never needs a stable
\* event again, so no request for it can come from a correct node.
CollectGarbage(i) ==
    /\ Collecting
    /\ up[i]
    /\ \E m \in store[i] : Stable(i, IdOf(m))
    /\ store' = [store EXCEPT ![i] = {m \in @ : ~Stable(i, IdOf(m))}]
    /\ lastAction' = [name |-> "CollectGarbage", node |-> i]
    /\ UNCHANGED <<vc, buf, missing, up, dlog, known, net, sent>>

-----------------------------------------------------------------------------
(* Next is split so that a mutant replaces one part.                        *)
ReceiveNext == \E e \in net : Receive(e.to, e)
DeliverNext == \E i \in Node : \E m \in buf[i] : Deliver(i, m)
RerNext     == \E i \in Node : \E r \in missing[i] : ExpireWait(i, r) \/ ExpireRto(i, r)
ServeNext   == \E e \in net : ServeRequest(e.to, e)
HbNext      == \E i \in Node : SendHeartbeat(i) \/ \E e \in net : ReceiveHeartbeat(i, e)
EnvNext     == (\E e \in net : Lose(e)) \/ (\E i \in Node : Crash(i))
BroadcastNext == \E i \in Node : Broadcast(i)
GcNext      == \E i \in Node : CollectGarbage(i)

Next == BroadcastNext \/ ReceiveNext \/ DeliverNext \/ RerNext \/ ServeNext \/ HbNext \/ EnvNext \/ GcNext

Spec == Init /\ [][Next]_vars

(* Fairness: timers fire and buffered messages get delivered (weak), and  *)
(* the network is fair-lossy: what is offered infinitely often (sent again *)
(* after every loss) is received (strong, since Lose disables it).  No     *)
(* fairness on Broadcast (the properties are about what was sent), Lose or *)
(* Crash.  The subscript leaves out lastAction, so a duplicate or a        *)
(* refusal (which change nothing) never counts as progress.  Per node is   *)
(* enough where a node can take only finitely many such steps (each id is  *)
(* buffered, delivered, waited for and revealed at most once, so fairness  *)
(* on "some" reaches every one); per id where a step can repeat forever    *)
(* (a live retry cycles, a server serves a request again after its resend  *)
(* was lost), so that one id cannot starve another.  Few conjuncts keep    *)
(* TLC's liveness checking small.                                          *)
RtoId(i, d)      == \E r \in missing[i] : IdOf(r) = d /\ ExpireRto(i, r)
ServeId(j, i, d) == \E e \in net : /\ e.type = "req" /\ e.to = j /\ e.from = i
                                   /\ IdOf(e) = d /\ ServeRequest(j, e)

Fairness ==
    /\ \A i \in Node :
         /\ WF_pvars(\E m \in buf[i] : Deliver(i, m))
         /\ WF_pvars(\E r \in missing[i] : ExpireWait(i, r))
         /\ SF_pvars(\E e \in net : e.to = i /\ Receive(i, e))
         /\ WF_pvars(SendHeartbeat(i))
         /\ SF_pvars(\E e \in net : ReceiveHeartbeat(i, e))
    /\ \A i \in Node, d \in AllIds :
         /\ WF_pvars(RtoId(i, d))
         /\ \A j \in Node \ {i} : SF_pvars(ServeId(j, i, d))

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
(* Safety.  The paper states no property formally (notes sec. 3); these    *)
(* are its prose, with the order taken from the ghost history, not from    *)
(* the vector clocks, so that a wrong clock cannot hide a wrong order.     *)

Before(i, x) == Range(SubSeq(dlog[i], 1, x - 1))

\* 2.1, L107 (Lamport's happened-before): no node delivers an event before
\* every event in its causal past.
CausalOrder ==
    Mode = "causal" =>
        \A i \in Node : \A x \in DOMAIN dlog[i] : PastOf(dlog[i][x]) \subseteq Before(i, x)

\* 2.1, L105 and L133: a node delivers an origin's events in their order.
FifoOrder ==
    Mode # "unordered" =>
    \A i \in Node : \A x \in DOMAIN dlog[i] :
        \A s \in 1..(dlog[i][x].seq - 1) : [origin |-> dlog[i][x].origin, seq |-> s] \in Before(i, x)

\* L235, L244: RER duplicates messages; the application sees each once.
NoDuplicateDelivery ==
    \A i \in Node : \A x, y \in DOMAIN dlog[i] : x # y => dlog[i][x] # dlog[i][y]

\* Nothing is delivered that was not broadcast.
NoCreation == \A i \in Node : Range(dlog[i]) \subseteq SentIds

\* Every copy of an id anywhere is the same message (so dedup by id is sound).
AllMsgs == UNION {buf[i] \cup store[i] : i \in Node}
           \cup {MsgOf(e) : e \in {x \in net : x.type \in {"data", "resend"}}}
UniqueContent == \A m1, m2 \in AllMsgs : IdOf(m1) = IdOf(m2) => m1 = m2

\* The clock is the delivered prefix (the delivery count in the ordered
\* modes), and a buffered message is not delivered.
VcMatchesLog ==
    \A i, k \in Node :
        IF Mode # "unordered" THEN SeqsOf(i, k) = 1..vc[i][k]
        ELSE 1..vc[i][k] \subseteq SeqsOf(i, k) /\ (vc[i][k] + 1) \notin SeqsOf(i, k)
BufferedNotDelivered == \A i \in Node : \A m \in buf[i] : ~Dlv(i, IdOf(m))

\* 5.3, L271: "To compute which node knows which message, we can use causal
\* order meta-data": every dependency a message names was delivered at its
\* origin, and every holder an RER entry names has delivered the id.
MetadataProvesHolder == \A m \in AllMsgs : \A d \in Deps(m) : Dlv(m.origin, d)
KnownHoldersHold ==
    \A i \in Node : \A r \in missing[i] : \A h \in r.holders : Dlv(h, IdOf(r))

\* Detection is sound (only sent, missing ids are chased) and complete (a
\* buffered message's missing dependencies are all being chased).
NoPhantomRequest ==
    /\ \A i \in Node : \A r \in missing[i] : IdOf(r) \in SentIds /\ ~Has(i, IdOf(r))
    /\ \A e \in net : e.type = "req" => IdOf(e) \in SentIds
GapTracked ==
    \A i \in Node : \A m \in buf[i] : \A d \in Deps(m) : Has(i, d) \/ Tracked(i, d)

\* "No deliverable message is left waiting": a buffered message whose every
\* predecessor by the ghost order is delivered passes the delivery guard.
\* Not a tautology: it catches a guard that is too strict.
Need(m) == IF Mode = "causal" THEN PastOf(IdOf(m))
           ELSE {[origin |-> m.origin, seq |-> s] : s \in 1..(m.seq - 1)}
NothingDeliverableWaits ==
    \A i \in Node : \A m \in buf[i] : Need(m) \subseteq Range(dlog[i]) => Deliverable(i, m)

\* Garbage collection drops only what every node has delivered: a delivered
\* event gone from a node's store is delivered everywhere (by the true
\* counts, not by what the node has learnt).
CollectedOnlyIfStable ==
    \A i \in Node : \A d \in Range(dlog[i]) :
        (~\E m \in store[i] : IdOf(m) = d) => \A j \in Node : Dlv(j, d)

\* A node gives up on a missing id (phase retried: the paper's recovery asks
\* no more) only after asking a node that never crashes, or while it knows
\* of no such holder.  Recovery = "restart" keeps it: a message naming a
\* new holder restarts the wait, and the retry then reaches that holder.
\* The paper's faithful recovery does not (its counterexample: a FIFO gap
\* revealed by the origin's own later message, the origin crashed, then a
\* correct holder named too late).  Requests stay in net unless lost, so
\* this holds only where requests are not lossy (MCCausalSafetyRestart).
AskedCorrectHolder(i, r) ==
    \E e \in net : e.type = "req" /\ e.from = i /\ IdOf(e) = IdOf(r) /\ e.to \in Correct
GivenUpOnlyWithoutCorrectHolder ==
    \A i \in Correct : \A r \in missing[i] :
        r.phase = "retried" => AskedCorrectHolder(i, r) \/ r.holders \cap Correct = {}

\* Every broadcast event some node still lacks has a copy somewhere: held
\* by a node (to answer requests) or in transit to it.  What the store bound
\* and garbage collection must keep.  (A crashed node's copies count: its
\* variables stay; the crash models check Agreement instead.)
Recoverable ==
    \A d \in SentIds :
        (\E i \in Node : ~Dlv(i, d)) =>
            \/ \E j \in Node : Held(j, d)
            \/ \E e \in net : e.type \in {"data", "resend"} /\ IdOf(e) = d

\* What i has learnt of j's progress is no more than j's progress.
KnownIsLowerBound == \A i, j \in Node : \A k \in Node : known[i][j][k] <= vc[j][k]

Safety ==
    /\ CausalOrder /\ FifoOrder /\ NoDuplicateDelivery /\ NoCreation /\ UniqueContent
    /\ VcMatchesLog /\ BufferedNotDelivered /\ MetadataProvesHolder /\ KnownHoldersHold
    /\ NoPhantomRequest /\ GapTracked /\ NothingDeliverableWaits

-----------------------------------------------------------------------------
(* Liveness, under Fairness, for correct nodes (Faulty may crash).         *)

\* The issue's "every message of a correct sender to every correct node".
\* False for Recovery = "faithful" with loss: the documented counterexample.
EventualDelivery ==
    \A i \in Correct, d \in AllIds : (d \in SentIds /\ d.origin \in Correct) ~> Dlv(i, d)

\* Reliable broadcast among correct nodes: what one correct node delivered,
\* every correct node delivers, also when the origin crashed after one
\* other node got the message (the case 5.3's second request is for).
Agreement ==
    \A i, j \in Correct, d \in AllIds : Dlv(j, d) ~> Dlv(i, d)

\* Nothing stays in the buffer once it can be delivered.
DeliverableIsDelivered ==
    \A i \in Correct, d \in AllIds :
        (\E m \in buf[i] : IdOf(m) = d /\ Deliverable(i, m)) ~> Dlv(i, d)
=============================================================================
