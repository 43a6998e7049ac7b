---------------------------------- MODULE BN ----------------------------------
(***************************************************************************)
(* Birrell and Nelson's RPC as Liskov, Shrira and Wroclawski describe it   *)
(* in section 3.2 of "Efficient At-Most-Once Messages Based on             *)
(* Synchronized Clocks" (MIT/LCS/TR-476, 1990), to compare it with the     *)
(* SCMP-based RPC of 3.1 (RPC.tla) and the hybrid at the end of 3.2        *)
(* (Hybrid.tla).                                                           *)
(*                                                                         *)
(* "A call message ... contains a client uid, a sequence number, and an    *)
(* 'incarnation number' for the server."  The client obtains the           *)
(* incarnation by binding (Bind); the server keeps, per client, the        *)
(* sequence number of the most recent call and the reply until it is       *)
(* acknowledged; an explicit ACK makes the entry idle, and an idle entry   *)
(* is discarded after sigma.  A crash loses the table and the server comes *)
(* back with a new incarnation.                                            *)
(*                                                                         *)
(* Simplifications, as the paper's footnote 4 makes them: no client        *)
(* retransmission, and the call is executed and replied in one step (the   *)
(* comparison is about which calls are accepted, not about computing).     *)
(*                                                                         *)
(* The network is a set of messages, each stamped with the real time it    *)
(* was sent (at).  A delivered message stays in it (duplication).  With    *)
(* LateMessages FALSE a message older than MaxDelay is gone (the network   *)
(* "never delivers late messages", as on a LAN); with LateMessages TRUE    *)
(* it may arrive at any later time.                                        *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Conns,        \* client uids (strings)
    Sigma,        \* how long an idle entry is kept (3.2, sigma)
    MaxDelay,     \* the maximum expected delay in the network
    LateMessages, \* may the network deliver a message later than MaxDelay?
    MaxTime,      \* model bound: real time stops at MaxTime
    MaxCalls,     \* model bound: calls per client
    MaxCrashes    \* model bound: server crashes

ASSUME ConnsAreStrings  == Conns # {} /\ Conns \subseteq STRING
\* 3.2: sigma is "chosen to be substantially larger than the maximum
\* expected delay in the network".
ASSUME SigmaAboveDelay  == Sigma \in Nat /\ MaxDelay \in Nat /\ Sigma > MaxDelay
ASSUME LateIsBool       == LateMessages \in BOOLEAN
ASSUME BoundsAreNat     == {MaxTime, MaxCalls, MaxCrashes} \subseteq Nat

VARIABLES
    now,          \* real time, which is also the server's clock
    net,          \* messages [type, conn, seq, inc, at] in transit
    incarnation,  \* the server's incarnation number (stable storage)
    up,           \* the server is running
    table,        \* conns with an entry -> [seq, state, since]
    client,       \* Conns -> [inc, seq, waiting, outcome]; inc 0 = not bound
    \* history (never read by the protocol)
    executed,     \* every call executed, in order: [conn, seq, inc]
    staleRejects, \* calls rejected by rule 1: [conn, seq, at] (at = sent)
    crashTimes,   \* real time of each crash
    callCount,    \* Conns -> calls made
    lastAction

vars == <<now, net, incarnation, up, table, client, executed, staleRejects, crashTimes,
          callCount, lastAction>>

ActionNames == {"Init", "Bind", "Call", "Timeout", "ReceiveReply", "ReceiveCall", "ReceiveAck",
                "Discard", "Crash", "Recover", "Tick"}
Types    == {"CALL", "REPLY", "ACK"}
States   == {"REPLYING", "IDLE"}
Outcomes == {"none", "replied", "unknown"}
NoEntries == [c \in {} |-> 0]
Msg(type, c, s, i) == [type |-> type, conn |-> c, seq |-> s, inc |-> i, at |-> now]

TypeOK ==
    /\ now \in Nat /\ incarnation \in Nat \ {0} /\ up \in BOOLEAN
    /\ \A m \in net : m.type \in Types /\ m.conn \in Conns /\ m.seq \in Nat /\ m.inc \in Nat
    /\ DOMAIN table \subseteq Conns
    /\ \A c \in DOMAIN table : table[c].seq \in Nat /\ table[c].state \in States
    /\ \A c \in Conns : client[c].inc \in Nat /\ client[c].seq \in Nat
                          /\ client[c].waiting \in BOOLEAN /\ client[c].outcome \in Outcomes
    /\ lastAction.name \in ActionNames

-----------------------------------------------------------------------------
Init ==
    /\ now = 0
    /\ net = {}
    /\ incarnation = 1
    /\ up = TRUE
    /\ table = NoEntries
    /\ client = [c \in Conns |-> [inc |-> 0, seq |-> 0, waiting |-> FALSE, outcome |-> "none"]]
    /\ executed = <<>>
    /\ staleRejects = {}
    /\ crashTimes = <<>>
    /\ callCount = [c \in Conns |-> 0]
    /\ lastAction = [name |-> "Init"]

(* Client steps.                                                          *)

\* The binding handshake: "the client must exchange messages to obtain the
\* correct incarnation id before sending the call".  One step here: what
\* matters is that no call can be made without it (Call needs inc # 0).
Bind(c) ==
    /\ up
    /\ ~client[c].waiting
    /\ client[c].inc # incarnation
    /\ client' = [client EXCEPT ![c].inc = incarnation]
    /\ lastAction' = [name |-> "Bind", conn |-> c, inc |-> incarnation]
    /\ UNCHANGED <<now, net, incarnation, up, table, executed, staleRejects, crashTimes, callCount>>

\* "each succeeding call must have a larger sequence number".
Call(c) ==
    /\ client[c].inc # 0
    /\ ~client[c].waiting
    /\ callCount[c] < MaxCalls
    /\ client' = [client EXCEPT ![c].seq = @ + 1, ![c].waiting = TRUE, ![c].outcome = "none"]
    /\ net' = net \cup {Msg("CALL", c, client[c].seq + 1, client[c].inc)}
    /\ callCount' = [callCount EXCEPT ![c] = @ + 1]
    /\ lastAction' = [name |-> "Call", conn |-> c, seq |-> client[c].seq + 1]
    /\ UNCHANGED <<now, incarnation, up, table, executed, staleRejects, crashTimes>>

\* A client that hears nothing gives up; the call's outcome is unknown.
Timeout(c) ==
    /\ client[c].waiting
    /\ client' = [client EXCEPT ![c].waiting = FALSE, ![c].outcome = "unknown"]
    /\ lastAction' = [name |-> "Timeout", conn |-> c, seq |-> client[c].seq]
    /\ UNCHANGED <<now, net, incarnation, up, table, executed, staleRejects, crashTimes, callCount>>

\* "The client must then send an acknowledgment message for the reply":
\* the explicit ack (there is no next call in the model to serve as one).
ReceiveReply(m) ==
    /\ m \in net
    /\ m.type = "REPLY"
    /\ client[m.conn].waiting
    /\ m.seq = client[m.conn].seq
    /\ client' = [client EXCEPT ![m.conn].waiting = FALSE, ![m.conn].outcome = "replied"]
    /\ net' = net \cup {Msg("ACK", m.conn, m.seq, m.inc)}
    /\ lastAction' = [name |-> "ReceiveReply", conn |-> m.conn, seq |-> m.seq]
    /\ UNCHANGED <<now, incarnation, up, table, executed, staleRejects, crashTimes, callCount>>

-----------------------------------------------------------------------------
(* Server steps: rules 1-3 of 3.2.                                        *)

CallOutcome(m) ==
    IF m.inc # incarnation THEN "staleIncarnation"                       \* rule 1
    ELSE IF m.conn \in DOMAIN table
         THEN IF m.seq > table[m.conn].seq THEN "execute"                 \* rule 2
              ELSE IF m.seq = table[m.conn].seq /\ table[m.conn].state = "REPLYING"
                   THEN "retransmitReply"                                 \* reply not yet acked
                   ELSE "duplicate"                                       \* rule 2, rejected
         ELSE "execute"                                                   \* rule 3

\* The effect of an outcome; the mutant reuses it with another outcome.
ReceiveCallWith(m, o) ==
    /\ up
    /\ m \in net
    /\ m.type = "CALL"
    /\ lastAction' = [name |-> "ReceiveCall", conn |-> m.conn, seq |-> m.seq, inc |-> m.inc,
                      outcome |-> o]
    /\ CASE o = "execute" ->
              /\ table' = [d \in DOMAIN table \cup {m.conn} |->
                             IF d = m.conn THEN [seq |-> m.seq, state |-> "REPLYING", since |-> 0]
                             ELSE table[d]]
              /\ executed' = Append(executed, [conn |-> m.conn, seq |-> m.seq, inc |-> m.inc])
              /\ net' = net \cup {Msg("REPLY", m.conn, m.seq, m.inc)}
              /\ UNCHANGED staleRejects
         [] o = "retransmitReply" ->
              /\ net' = net \cup {Msg("REPLY", m.conn, m.seq, m.inc)}
              /\ UNCHANGED <<table, executed, staleRejects>>
         [] o = "staleIncarnation" ->
              /\ staleRejects' = staleRejects \cup {[conn |-> m.conn, seq |-> m.seq, at |-> m.at]}
              /\ UNCHANGED <<net, table, executed>>
         [] OTHER -> UNCHANGED <<net, table, executed, staleRejects>>
    /\ UNCHANGED <<now, incarnation, up, client, crashTimes, callCount>>

ReceiveCall(m) == ReceiveCallWith(m, CallOutcome(m))

\* "When an explicit ack arrives, the connection becomes 'idle'" and the
\* stored reply is dropped; only the ack of the entry's call counts.
ReceiveAck(m) ==
    /\ up
    /\ m \in net
    /\ m.type = "ACK"
    /\ m.inc = incarnation
    /\ m.conn \in DOMAIN table
    /\ table[m.conn].seq = m.seq /\ table[m.conn].state = "REPLYING"
    /\ table' = [table EXCEPT ![m.conn] = [seq |-> m.seq, state |-> "IDLE", since |-> now]]
    /\ lastAction' = [name |-> "ReceiveAck", conn |-> m.conn, seq |-> m.seq]
    /\ UNCHANGED <<now, net, incarnation, up, client, executed, staleRejects, crashTimes, callCount>>

\* "Information about an idle connection is retained for some period of
\* time sigma" and then discarded.
Discard(c) ==
    /\ up
    /\ c \in DOMAIN table
    /\ table[c].state = "IDLE"
    /\ now >= table[c].since + Sigma
    /\ table' = [d \in DOMAIN table \ {c} |-> table[d]]
    /\ lastAction' = [name |-> "Discard", conn |-> c]
    /\ UNCHANGED <<now, net, incarnation, up, client, executed, staleRejects, crashTimes, callCount>>

\* A crash loses the table; recovery brings a new incarnation number.
Crash ==
    /\ up
    /\ Len(crashTimes) < MaxCrashes
    /\ up' = FALSE
    /\ table' = NoEntries
    /\ crashTimes' = Append(crashTimes, now)
    /\ lastAction' = [name |-> "Crash"]
    /\ UNCHANGED <<now, net, incarnation, client, executed, staleRejects, callCount>>

Recover ==
    /\ ~up
    /\ up' = TRUE
    /\ incarnation' = incarnation + 1
    /\ lastAction' = [name |-> "Recover", inc |-> incarnation + 1]
    /\ UNCHANGED <<now, net, table, client, executed, staleRejects, crashTimes, callCount>>

\* Time passes.  Without late messages, what is older than MaxDelay is gone.
Tick ==
    /\ now < MaxTime
    /\ now' = now + 1
    /\ net' = IF LateMessages THEN net ELSE {m \in net : now + 1 - m.at <= MaxDelay}
    /\ lastAction' = [name |-> "Tick"]
    /\ UNCHANGED <<incarnation, up, table, client, executed, staleRejects, crashTimes, callCount>>

-----------------------------------------------------------------------------
ClientNext(c)   == Bind(c) \/ Call(c) \/ Timeout(c)
ReplyNext       == \E m \in net : ReceiveReply(m)
ReceiveCallNext == \E m \in net : ReceiveCall(m)
AckNext         == \E m \in net : ReceiveAck(m)
DiscardNext     == \E c \in DOMAIN table : Discard(c)

Next ==
    \/ \E c \in Conns : ClientNext(c)
    \/ ReplyNext
    \/ ReceiveCallNext
    \/ AckNext
    \/ DiscardNext
    \/ Crash
    \/ Recover
    \/ Tick

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* Properties.                                                            *)

\* At-most-once: no call id (client uid, sequence number) executed twice.
\* 3.2: it holds "provided the network never delivers late messages";
\* with late messages "the message accepted in step 3 may be a duplicate".
AtMostOnceExecution ==
    \A i, j \in DOMAIN executed :
        i < j => ~(executed[i].conn = executed[j].conn /\ executed[i].seq = executed[j].seq)

\* Rule 1: a call made under an old incarnation is never executed.
OnlyCurrentIncarnationExecuted ==
    lastAction.name = "ReceiveCall" /\ lastAction.outcome = "execute"
        => lastAction.inc = incarnation
=============================================================================
