-------------------------- MODULE ExactlyOnceBase --------------------------
(***************************************************************************)
(* The environment every exactly-once strategy shares: "Exactly-once       *)
(* semantics in a replicated messaging system" (seed file, sections 1-3.2, *)
(* App. A; reading notes ../shared/notes/exactly-once-reading.md, whose    *)
(* ambiguity numbers Z1-Z26 the comments cite).                            *)
(*                                                                         *)
(* N servers and one client (sec. 3: "N servers and one client for         *)
(* simplicity"); the client is the constant Client so that every message  *)
(* names it, as the Java cores, keyed by client from the start (Z21), do.  *)
(* A note is created at once in every server's K (atomic replication, Z1:  *)
(* Strategy 3's K-difference rule is sound only under it).                 *)
(*                                                                         *)
(* The network is a set of messages [type, from, to, note].  It loses      *)
(* (Lose), reorders (a set has no order), delays (a message waits in it    *)
(* for as many steps as it likes) and, when AllowDup, duplicates: a        *)
(* received message stays in it and can be received again.  Deliver(T, m) *)
(* of sec. 3.1 is the pair SendNote ... ReceiveAck | Timeout of each       *)
(* strategy, which gives every outcome of the notes' table (1.2):          *)
(*   success                 ReceiveNote, then ReceiveAck                  *)
(*   timeout, message lost   Lose(note), then Timeout                      *)
(*   timeout, received       ReceiveNote, Lose(ack) or a slow ack, Timeout *)
(*   received later          Timeout, then the copy still in net arrives   *)
(* and never "success without receipt": an ack exists only once the client *)
(* received the note.                                                      *)
(*                                                                         *)
(* Time is abstracted.  The paper bounds a message's life by T_e (sec.     *)
(* 3.2, "T_e can be derived from an IP packet's time-to-live field") and   *)
(* waits T_e wherever a lingering copy would hurt (Condition 1; L131 "not  *)
(* lingering in the network").  A spec here states what the wait achieves: *)
(* NoCopy(i), no copy of note i is left in net.  Any behaviour of the      *)
(* timed rule is one of this guard (a copy older than T_e is gone), so the *)
(* safety TLC shows holds for the timed rule; the cores implement the wait *)
(* with an injected clock.                                                 *)
(*                                                                         *)
(* Ghost history: delivered, one entry per processing of a note by the     *)
(* client, across crashes ("a note is not considered 'delivered' ...       *)
(* until it is accepted and processed by the client", L77).                *)
(***************************************************************************)
EXTENDS Naturals, Sequences, FiniteSets

CONSTANTS
    Servers,    \* server ids (strings)
    Client,     \* the client's id (a string)
    MaxNotes,   \* model bound: notes created
    MaxFaults,  \* model bound: environment faults (loss, disconnect, crashes, late timeouts)
    AllowDup    \* does a received message stay in the network?

ASSUME ServersAreStrings == Servers # {} /\ Servers \subseteq STRING
ASSUME ClientIsString    == Client \in STRING /\ Client \notin Servers
ASSUME BoundsAreNat      == {MaxNotes, MaxFaults} \subseteq Nat
ASSUME DupIsBoolean      == AllowDup \in BOOLEAN

VARIABLES
    net,        \* the network: a set of messages
    conn,       \* client, volatile: the server it is connected to, or None
    created,    \* history: the notes created so far
    delivered,  \* ghost history: every processing of a note, in order, across crashes
    faults,     \* model: environment faults so far
    lastAction  \* the step just taken (specs/CONVENTIONS.md)

baseVars == <<net, conn, created, delivered, faults>>

None == "none"
Types == {"note", "ack", "purge", "purgeAck"}

Msg(type, from, to, i) == [type |-> type, from |-> from, to |-> to, note |-> i]
NoteMsg(s, i) == Msg("note", s, Client, i)
AckMsg(s, i)  == Msg("ack", Client, s, i)

\* A received message stays in the network when it may be duplicated.
Consume(m) == IF AllowDup THEN net ELSE net \ {m}

\* What the wait of T_e achieves: no copy of note i is left in the network.
NoCopy(i) == \A m \in net : ~(m.type = "note" /\ m.note = i)

\* The note or its ack is still on its way: a timeout now is a late one.
InFlight(s, i) == NoteMsg(s, i) \in net \/ AckMsg(s, i) \in net

Processed(i) == \E k \in DOMAIN delivered : delivered[k] = i

\* Model bound on the client's receipts.  A spec that never duplicates
\* processes at most Cardinality(created) times, so this guard never stops
\* it; a broken one is stopped one processing after its first duplicate,
\* which keeps a strategy that reprocesses forever (S0) finite.
MayReceive == Len(delivered) <= Cardinality(created)

BaseInit ==
    /\ net = {}
    /\ conn = None
    /\ created = {}
    /\ delivered = <<>>
    /\ faults = 0
    /\ lastAction = [name |-> "Init"]

BaseTypeOK ==
    /\ \A m \in net : m.type \in Types /\ {m.from, m.to} \subseteq Servers \cup {Client}
    /\ conn \in Servers \cup {None}
    /\ faults \in 0..MaxFaults
    /\ Cardinality(created) <= MaxNotes

-----------------------------------------------------------------------------
(* Environment steps, on the base variables; each strategy adds UNCHANGED  *)
(* for its own.  Every fault spends one unit of MaxFaults, so a liveness    *)
(* model can let faults end and then ask for progress.                      *)

\* The client attaches through a NAP to one server (1.1: "lets it
\* communicate with one of the servers").
ConnectBase(s) ==
    /\ conn = None
    /\ conn' = s
    /\ lastAction' = [name |-> "Connect", server |-> s]
    /\ UNCHANGED <<net, created, delivered, faults>>

\* "disconnected from the server network most of the time" (1.1): a
\* connection can end at any moment.
DisconnectBase ==
    /\ conn # None
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ conn' = None
    /\ lastAction' = [name |-> "Disconnect", server |-> conn]
    /\ UNCHANGED <<net, created, delivered>>

\* A client crash and restart: its volatile state (the connection) is lost;
\* its stable storage (R, in the strategies that have it) is not (3.2,
\* "Array R is kept in stable storage so it survives client failures").
ClientCrashBase ==
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ conn' = None
    /\ lastAction' = [name |-> "ClientCrash"]
    /\ UNCHANGED <<net, created, delivered>>

\* A server crash and restart: sessions and pending Deliver calls are lost,
\* K, D, counters and confirmations are durable (Z13).
ServerCrashBase(s) ==
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ lastAction' = [name |-> "ServerCrash", server |-> s]
    /\ UNCHANGED <<net, conn, created, delivered>>

Lose(m) ==
    /\ m \in net
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ net' = net \ {m}
    /\ lastAction' = [name |-> "Lose", type |-> m.type, from |-> m.from, to |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered>>

\* A Deliver's timeout (3.1) is always possible while it is outstanding; it
\* is a fault (it spends MaxFaults) when the note or its ack is still on its
\* way (a slow or lost ack), free when both are gone (the call did fail).
TimeoutCost(s, i) == IF InFlight(s, i) THEN 1 ELSE 0

-----------------------------------------------------------------------------
(* Properties every strategy states.                                        *)

\* Exactly-once, safety half (L47: "once, and only once"; L17 "duplicate
\* delivery must be ruled out").
NoDuplicateDelivery ==
    \A j, k \in DOMAIN delivered : j < k => delivered[j] # delivered[k]

\* Nothing is processed that was not created.
DeliveredWasCreated == \A k \in DOMAIN delivered : delivered[k] \in created

\* Note ids are globally unique (L75: "The globally unique id of note m"):
\* no step creates a note whose id (with S2's ghost incarnation) exists.
IdsNeverReissued ==
    [][lastAction'.name = "CreateNote" => lastAction'.note \notin created]_<<created, lastAction>>
=============================================================================
