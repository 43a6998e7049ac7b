-------------------------------- MODULE Hybrid --------------------------------
(***************************************************************************)
(* SCMP inside Birrell and Nelson's RPC: the alternative at the end of     *)
(* section 3.2 of Liskov, Shrira and Wroclawski, "Efficient At-Most-Once   *)
(* Messages Based on Synchronized Clocks" (MIT/LCS/TR-476, 1990).          *)
(*                                                                         *)
(* BN.tla's mechanism (binding, incarnation, sequence numbers, rules 1-2,  *)
(* explicit acks) with SCMP's timestamps: "Each time the client sends a    *)
(* call or ack, it puts its current time in the message; thus call         *)
(* messages for the same RPC would contain different timestamps.  When an  *)
(* ack is received, its timestamp is stored in the connection table entry. *)
(* The entry can be removed, and G.upper updated, after a time period      *)
(* approximately equal to the maximum expected delay in the network.  Call *)
(* messages on connections without an entry in the table are rejected      *)
(* according to our algorithm."  Rule 3 of BN becomes SCMP's rule 3:       *)
(* accept only above upper.                                                *)
(*                                                                         *)
(* The network is a set of messages; a delivered message stays when        *)
(* AllowDup, so any message may also arrive late, after its entry is gone. *)
(* Lose removes a message while now < LossUntil (a partition that heals).  *)
(* The server's clock is real time; client c's clock reads now + skew[c].  *)
(* Names are the Java core's (dev.onceproof.rpc.hybrid, CONVENTIONS.md).   *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Conns,        \* client uids (strings)
    Rho,          \* how long after its ack an idle entry is kept: about the maximum delay
    MaxSkew,      \* client clocks are within MaxSkew of real time
    AllowTimeout, \* may a client give up? (FALSE in the liveness models)
    AllowDup,     \* may the network deliver a message more than once, and late?
    LossUntil,    \* the network may lose messages while now < LossUntil
    MaxTime,      \* model bound: real time stops at MaxTime
    MaxCalls,     \* model bound: calls per client
    MaxCrashes    \* model bound: server crashes

ASSUME ConnsAreStrings == Conns # {} /\ Conns \subseteq STRING
ASSUME RhoIsPositive   == Rho \in Nat \ {0}
ASSUME SkewIsNat       == MaxSkew \in Nat
ASSUME SwitchesAreBool == {AllowTimeout, AllowDup} \subseteq BOOLEAN
ASSUME BoundsAreNat    == {LossUntil, MaxTime, MaxCalls, MaxCrashes} \subseteq Nat

VARIABLES
    \* environment
    now, skew, net,
    \* server (the Java core's abstract state, HybridServerState)
    incarnation,  \* the server's incarnation number (stable storage)
    up,           \* the server is running
    table,        \* conns with an entry -> [seq, state, ackTs]
    upper,        \* SCMP's G.upper: bounds the timestamps of discarded entries' calls
    \* clients (HybridClientState)
    client,       \* Conns -> [inc, seq, ts, waiting, outcome]; inc 0 = not bound
    \* history (never read by the protocol)
    executed,     \* every call executed, in order: [conn, seq, inc]
    crashes,      \* number of crashes so far
    callCount,    \* Conns -> calls made
    lastAction

envVars    == <<now, skew, net>>
serverVars == <<incarnation, up, table, upper>>
histVars   == <<executed, crashes, callCount>>
vars       == <<envVars, serverVars, client, histVars, lastAction>>

ActionNames == {"Init", "Bind", "Call", "Retransmit", "Timeout", "ReceiveReply", "ReceiveCall",
                "ReceiveAck", "CollectGarbage", "Crash", "Recover", "Tick", "Lose"}
Types    == {"CALL", "REPLY", "ACK"}
States   == {"REPLYING", "IDLE"}
Outcomes == {"none", "replied", "unknown"}
CallOutcomes == {"execute", "retransmitReply", "duplicate", "staleIncarnation", "belowUpper"}
NoEntries == [c \in {} |-> 0]
Max(a, b) == IF a >= b THEN a ELSE b
Msg(type, c, s, i, t) == [type |-> type, conn |-> c, seq |-> s, inc |-> i, ts |-> t]

TypeOK ==
    /\ now \in Nat /\ skew \in [Conns -> -MaxSkew..MaxSkew]
    /\ \A m \in net : m.type \in Types /\ m.conn \in Conns /\ m.seq \in Nat
                        /\ m.inc \in Nat /\ m.ts \in Int
    /\ incarnation \in Nat \ {0} /\ up \in BOOLEAN /\ upper \in Int
    /\ DOMAIN table \subseteq Conns
    /\ \A c \in DOMAIN table : table[c].seq \in Nat /\ table[c].state \in States
                                 /\ table[c].ackTs \in Int
    /\ \A c \in Conns : client[c].inc \in Nat /\ client[c].seq \in Nat /\ client[c].ts \in Int
                          /\ client[c].waiting \in BOOLEAN /\ client[c].outcome \in Outcomes
    /\ lastAction.name \in ActionNames
    /\ lastAction.name = "ReceiveCall" => lastAction.outcome \in CallOutcomes

-----------------------------------------------------------------------------
\* upper starts as SCMP's Fig. 2-1 initialization, min(0, G.time - rho).
Init ==
    /\ now = 0
    /\ skew \in [Conns -> -MaxSkew..MaxSkew]
    /\ net = {}
    /\ incarnation = 1
    /\ up = TRUE
    /\ table = NoEntries
    /\ upper = -Rho
    \* as if each client had stamped a message just before its clock read its first value
    /\ client = [c \in Conns |-> [inc |-> 0, seq |-> 0, ts |-> skew[c] - 1, waiting |-> FALSE,
                                  outcome |-> "none"]]
    /\ executed = <<>>
    /\ crashes = 0
    /\ callCount = [c \in Conns |-> 0]
    /\ lastAction = [name |-> "Init"]

Consume(m) == IF AllowDup THEN net ELSE net \ {m}

\* The client's current time, made strictly increasing per client (SCMP
\* 2.2's counter in the low bits).  Strictly increasing timestamps over all
\* of a client's calls and acks are what gives the proviso of 3.2.
NextTs(c) == Max(now + skew[c], client[c].ts + 1)

(* Client steps.                                                          *)

\* The binding handshake of BN.tla, still needed: "This approach still
\* requires incarnation numbers".
Bind(c) ==
    /\ up
    /\ ~client[c].waiting
    /\ client[c].inc # incarnation
    /\ client' = [client EXCEPT ![c].inc = incarnation]
    /\ lastAction' = [name |-> "Bind", conn |-> c, inc |-> incarnation]
    /\ UNCHANGED <<envVars, serverVars, histVars>>

Call(c) ==
    /\ client[c].inc # 0
    /\ ~client[c].waiting
    /\ callCount[c] < MaxCalls
    /\ LET t == NextTs(c) IN
         /\ client' = [client EXCEPT ![c].seq = @ + 1, ![c].ts = t, ![c].waiting = TRUE,
                                     ![c].outcome = "none"]
         /\ net' = net \cup {Msg("CALL", c, client[c].seq + 1, client[c].inc, t)}
         /\ lastAction' = [name |-> "Call", conn |-> c, seq |-> client[c].seq + 1, ts |-> t]
    /\ callCount' = [callCount EXCEPT ![c] = @ + 1]
    /\ UNCHANGED <<now, skew, serverVars, executed, crashes>>

\* A retransmission carries the client's current time, so a client can
\* retry "indefinitely until a server responds": its call is never older
\* than upper for long.  One per clock reading (the model stays finite).
RetransmitWith(c, t) ==
    /\ client[c].waiting
    /\ now + skew[c] > client[c].ts
    /\ client' = [client EXCEPT ![c].ts = now + skew[c]]
    /\ net' = net \cup {Msg("CALL", c, client[c].seq, client[c].inc, t)}
    /\ lastAction' = [name |-> "Retransmit", conn |-> c, seq |-> client[c].seq, ts |-> t]
    /\ UNCHANGED <<now, skew, serverVars, histVars>>

Retransmit(c) == RetransmitWith(c, now + skew[c])

Timeout(c) ==
    /\ AllowTimeout
    /\ client[c].waiting
    /\ client' = [client EXCEPT ![c].waiting = FALSE, ![c].outcome = "unknown"]
    /\ lastAction' = [name |-> "Timeout", conn |-> c, seq |-> client[c].seq]
    /\ UNCHANGED <<envVars, serverVars, histVars>>

\* The reply of the outstanding call: answer with an explicit ack stamped
\* with the client's current time (ReceiveReplyWith: what the mutant changes).
ReceiveReplyWith(m, t) ==
    /\ m \in net
    /\ m.type = "REPLY"
    /\ client[m.conn].waiting
    /\ m.seq = client[m.conn].seq
    /\ LET c == m.conn IN
         /\ client' = [client EXCEPT ![c].ts = Max(@, t), ![c].waiting = FALSE,
                                     ![c].outcome = "replied"]
         /\ net' = Consume(m) \cup {Msg("ACK", c, m.seq, m.inc, t)}
         /\ lastAction' = [name |-> "ReceiveReply", conn |-> c, seq |-> m.seq, ackTs |-> t]
    /\ UNCHANGED <<now, skew, serverVars, histVars>>

ReceiveReply(m) == ReceiveReplyWith(m, NextTs(m.conn))

-----------------------------------------------------------------------------
(* Server steps.                                                          *)

\* Rules 1 and 2 of BN; without an entry, SCMP's rule 3 (Fig. 2-1, 3a/3b).
CallOutcome(m) ==
    IF m.inc # incarnation THEN "staleIncarnation"
    ELSE IF m.conn \in DOMAIN table
         THEN IF m.seq > table[m.conn].seq THEN "execute"
              ELSE IF m.seq = table[m.conn].seq /\ table[m.conn].state = "REPLYING"
                   THEN "retransmitReply"
                   ELSE "duplicate"
         ELSE IF m.ts > upper THEN "execute" ELSE "belowUpper"

ReceiveCallWith(m, o) ==
    /\ up
    /\ m \in net
    /\ m.type = "CALL"
    /\ lastAction' = [name |-> "ReceiveCall", conn |-> m.conn, seq |-> m.seq, inc |-> m.inc,
                      ts |-> m.ts, outcome |-> o]
    \* a REPLY carries the timestamp of the call copy it answers
    /\ CASE o = "execute" ->
              /\ table' = [d \in DOMAIN table \cup {m.conn} |->
                             IF d = m.conn THEN [seq |-> m.seq, state |-> "REPLYING", ackTs |-> 0]
                             ELSE table[d]]
              /\ executed' = Append(executed, [conn |-> m.conn, seq |-> m.seq, inc |-> m.inc])
              /\ net' = Consume(m) \cup {Msg("REPLY", m.conn, m.seq, m.inc, m.ts)}
         [] o = "retransmitReply" ->
              /\ net' = Consume(m) \cup {Msg("REPLY", m.conn, m.seq, m.inc, m.ts)}
              /\ UNCHANGED <<table, executed>>
         [] OTHER ->
              /\ net' = Consume(m)
              /\ UNCHANGED <<table, executed>>
    /\ UNCHANGED <<now, skew, incarnation, up, upper, client, crashes, callCount>>

ReceiveCall(m) == ReceiveCallWith(m, CallOutcome(m))

\* "When an ack is received, its timestamp is stored in the connection
\* table entry"; the stored reply is dropped (BN: the entry is idle).
ReceiveAck(m) ==
    /\ up
    /\ m \in net
    /\ m.type = "ACK"
    /\ m.inc = incarnation
    /\ m.conn \in DOMAIN table
    /\ table[m.conn].seq = m.seq /\ table[m.conn].state = "REPLYING"
    /\ table' = [table EXCEPT ![m.conn] = [seq |-> m.seq, state |-> "IDLE", ackTs |-> m.ts]]
    /\ net' = Consume(m)
    /\ lastAction' = [name |-> "ReceiveAck", conn |-> m.conn, seq |-> m.seq, ts |-> m.ts]
    /\ UNCHANGED <<now, skew, incarnation, up, upper, client, histVars>>

\* "The entry can be removed, and G.upper updated, after a time period
\* approximately equal to the maximum expected delay": an acked entry whose
\* ack timestamp is rho old.  upper covers the ack, hence every call of
\* the RPC (the proviso).
CollectGarbageWith(c, newUpper) ==
    /\ up
    /\ c \in DOMAIN table
    /\ table[c].state = "IDLE"
    /\ table[c].ackTs <= now - Rho
    /\ table' = [d \in DOMAIN table \ {c} |-> table[d]]
    /\ upper' = newUpper
    /\ lastAction' = [name |-> "CollectGarbage", conn |-> c]
    /\ UNCHANGED <<envVars, incarnation, up, client, histVars>>

CollectGarbage(c) == CollectGarbageWith(c, Max(upper, table[c].ackTs))

\* A crash loses the table; recovery comes with a new incarnation, so calls
\* bound to an old one are rejected by rule 1 and upper starts afresh as
\* at Init (Fig. 2-1): every call of the new incarnation is sent after it.
Crash ==
    /\ up
    /\ crashes < MaxCrashes
    /\ up' = FALSE
    /\ table' = NoEntries
    /\ crashes' = crashes + 1
    /\ lastAction' = [name |-> "Crash"]
    /\ UNCHANGED <<envVars, incarnation, upper, client, executed, callCount>>

Recover ==
    /\ ~up
    /\ up' = TRUE
    /\ incarnation' = incarnation + 1
    /\ upper' = now - Rho
    /\ lastAction' = [name |-> "Recover", inc |-> incarnation + 1]
    /\ UNCHANGED <<envVars, table, client, histVars>>

Tick ==
    /\ now < MaxTime
    /\ now' = now + 1
    /\ lastAction' = [name |-> "Tick"]
    /\ UNCHANGED <<skew, net, serverVars, client, histVars>>

Lose(m) ==
    /\ now < LossUntil
    /\ m \in net
    /\ net' = net \ {m}
    /\ lastAction' = [name |-> "Lose", type |-> m.type, conn |-> m.conn, seq |-> m.seq, ts |-> m.ts]
    /\ UNCHANGED <<now, skew, serverVars, client, histVars>>

-----------------------------------------------------------------------------
ClientNext(c)   == Bind(c) \/ Call(c) \/ Retransmit(c) \/ Timeout(c)
ReplyNext(c)    == \E m \in net : m.conn = c /\ ReceiveReply(m)
ReceiveCallNext == \E m \in net : ReceiveCall(m)
AckNext         == \E m \in net : ReceiveAck(m)
GcNext          == \E c \in DOMAIN table : CollectGarbage(c)
EnvNext         == Tick \/ (\E m \in net : Lose(m))

Next ==
    \/ \E c \in Conns : ClientNext(c) \/ ReplyNext(c)
    \/ ReceiveCallNext
    \/ AckNext
    \/ GcNext
    \/ Crash
    \/ Recover
    \/ EnvNext

Spec == Init /\ [][Next]_vars

\* The liveness models' assumptions: the server takes what arrives, time
\* passes, clients retry; loss stops when the partition heals (LossUntil).
Fairness ==
    /\ WF_vars(ReceiveCallNext)
    /\ WF_vars(Tick)
    /\ \A c \in Conns : WF_vars(ReplyNext(c)) /\ WF_vars(Retransmit(c))

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
(* Properties.                                                            *)

\* 3.2: "No duplicates will be accepted with this method": no call id
\* executed twice, across crashes and late messages.
AtMostOnceExecution ==
    \A i, j \in DOMAIN executed :
        i < j => ~(executed[i].conn = executed[j].conn /\ executed[i].seq = executed[j].seq)

OnlyCurrentIncarnationExecuted ==
    lastAction.name = "ReceiveCall" /\ lastAction.outcome = "execute"
        => lastAction.inc = incarnation

\* 3.2's proviso, on the messages in the network: "the timestamps in call
\* messages for an RPC are always less than those of acks for that RPC or
\* call messages for later RPCs".
Proviso ==
    \A m, n \in net :
        (m.type = "CALL" /\ m.conn = n.conn
           /\ ((n.type = "ACK" /\ n.seq = m.seq) \/ (n.type = "CALL" /\ n.seq > m.seq)))
            => m.ts < n.ts

\* Why a client may retry indefinitely, as a state fact: a call or a
\* retransmission is stamped above upper when it is sent (upper never gets
\* past now - Rho, and a client's clock is within MaxSkew < Rho of now), so
\* it can be rejected by upper only for arriving late; the next retry is
\* fresh again.  A client that resent its first timestamp (3.1's CALL)
\* could fall below upper for good.
UpperBelowHorizon == upper <= now - Rho
SentAboveUpper ==
    (Rho > MaxSkew /\ lastAction.name \in {"Call", "Retransmit"}) => lastAction.ts > upper

\* "the client may retry calls indefinitely until a server responds": with
\* the server up, a partition that heals and fair delivery, every call gets
\* its reply, even one whose first copies fell below upper.
EventualCompletion ==
    \A c \in Conns : client[c].waiting ~> (~client[c].waiting /\ client[c].outcome = "replied")

\* Why there is no duplicate (the argument of 2.3 carried over): every copy
\* of an executed call of the current incarnation still in the network is
\* covered, by its entry's sequence number or, the entry gone, by upper.
Executed(c, s) == \E i \in DOMAIN executed : executed[i].conn = c /\ executed[i].seq = s
CopiesCovered ==
    up =>
        \A m \in net :
            (m.type = "CALL" /\ m.inc = incarnation /\ Executed(m.conn, m.seq))
                => IF m.conn \in DOMAIN table THEN m.seq <= table[m.conn].seq ELSE m.ts <= upper
=============================================================================
