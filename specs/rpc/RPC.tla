--------------------------------- MODULE RPC ----------------------------------
(***************************************************************************)
(* At-most-once RPC over SCMP: Liskov, Shrira and Wroclawski, "Efficient   *)
(* At-Most-Once Messages Based on Synchronized Clocks" (MIT/LCS/TR-476,    *)
(* 1990), section 3.1 and Figure 3-1.                                      *)
(*                                                                         *)
(* A client makes a call by sending a CALL, "an at-most-once message", to  *)
(* the server; ACK, REPLY, REPLY-ACK and our REJECT are plain datagrams.   *)
(* The server filters CALLs with SCMP (module SCMP, resilient scheme of    *)
(* Fig. 2-2, which this module instantiates: its verdict, its garbage-     *)
(* collection rule and its Tick, WriteLatest, Crash and Recover steps are  *)
(* used as they are) and keeps, per connection, an RPC entry: IDLE,        *)
(* COMPUTING or REPLYING, the stored reply and the reply time.  The call   *)
(* timestamp of an entry is SCMP's ct[c].                                  *)
(*                                                                         *)
(* The network is a set of messages.  A received message stays in it when *)
(* AllowDup (it can arrive again, in any order, at any later time); Lose   *)
(* removes it when AllowLoss.  A REPLY's payload (the call's results) is   *)
(* modelled as the call's own timestamp, so a client can tell whose        *)
(* results it accepted.                                                    *)
(*                                                                         *)
(* Names are the Java cores' (specs/CONVENTIONS.md, section RPC); bounds   *)
(* live only in the MC*.tla / .cfg files.                                  *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Conns,        \* connection ids (strings); one client, one call at a time, per connection
    Classes,      \* rho classes of SCMP (end of 2.4)
    ClassOf,      \* Conns -> Classes
    Rho,          \* Classes -> Nat, SCMP's rho
    Kappa,        \* 3.1: how long a reply is kept "if the client is still interested"
    Beta,         \* Fig. 2-2: increment written with latest
    Epsilon,      \* 2.1: the skew SCMP is tuned for
    MaxSkew,      \* the skew clients actually have
    MaxTries,     \* 3.1: transmissions of one call before the client times out
    AllowTimeout, \* may a client time out? (FALSE in the liveness model)
    AllowLoss,    \* may the network lose messages?
    AllowDup,     \* may the network deliver a message more than once?
    MaxTime,      \* model bound: real time stops at MaxTime
    MaxCalls,     \* model bound: calls per connection
    MaxCrashes    \* model bound: server crashes

ASSUME ConnsAreStrings   == Conns # {} /\ Conns \subseteq STRING
ASSUME KappaIsNat        == Kappa \in Nat
ASSUME TriesArePositive  == MaxTries \in Nat \ {0}
ASSUME SwitchesAreBool   == {AllowTimeout, AllowLoss, AllowDup} \subseteq BOOLEAN
ASSUME BoundsAreNat      == {MaxTime, MaxCalls, MaxCrashes} \subseteq Nat

VARIABLES
    \* environment
    now, clock, skew, net,
    \* server: SCMP's part (module SCMP) and the RPC entries (Fig. 3-1)
    ct, upper, latest, stableLatest, up, refuseUntil, recovering,
    rpc,          \* conns with an entry -> [state, reply, replyTime]
    computing,    \* calls [conn, ts] whose user-level computation is running
    \* clients
    client,       \* Conns -> [waiting, ts, acked, tries, outcome]
    \* history (never read by the protocol)
    executed,     \* every computation started, in order: [conn, ts]
    replied,      \* every reply a client accepted: [conn, ts, result]
    rejects,      \* every REJECT sent: [conn, ts, after] (after = Len(executed) then)
    callCount,    \* Conns -> calls made
    crashClocks,  \* server clock at each crash (SCMP's history)
    recoveredUpper, \* SCMP's history: the upper recovery established
    lastAction

envVars    == <<now, clock, skew, net>>
scmpVars   == <<ct, upper, latest, stableLatest, up, refuseUntil, recovering>>
rpcVars    == <<rpc, computing>>
histVars   == <<executed, replied, rejects, callCount, crashClocks, recoveredUpper>>
vars       == <<envVars, scmpVars, rpcVars, client, histVars, lastAction>>

\* The SCMP server of Fig. 2-2.  The SCMP variables RPC does not keep are
\* fixed to constants, which no operator used here reads: SCMP's client
\* (lastSent, sends: RPC's client keeps its last call id in client[c].ts),
\* its network (net: RPC's carries more than [conn, ts]) and its history.
S == INSTANCE SCMP WITH
        lastSent <- [c \in Conns |-> 0],
        net <- {}, accepted <- <<>>, sends <- <<>>, jumps <- 0,
        Mode <- "resilient", AllowClockJump <- FALSE,
        MaxSends <- 0, MaxJumps <- 0, MaxJumpBack <- 0

-----------------------------------------------------------------------------
Max(a, b) == IF a >= b THEN a ELSE b

ActionNames == {"Init", "Call", "Retransmit", "Timeout", "ReceiveAck", "ReceiveReply",
                "ReceiveReject", "ReceiveCall", "Complete", "ReceiveReplyAck", "CollectGarbage",
                "WriteLatest", "Crash", "Recover", "Tick", "Lose"}
States   == {"IDLE", "COMPUTING", "REPLYING"}
Types    == {"CALL", "ACK", "REPLY", "REPLY-ACK", "REJECT"}
Outcomes == {"none", "replied", "rejected", "unknown"}
\* Every message has every field, so TLC compares them without complaint;
\* truncated matters for CALL only, payload for REPLY only (a CALL's
\* arguments are not modelled); the Java records have the same components.
Msg(type, c, t, trunc, res) ==
    [type |-> type, conn |-> c, ts |-> t, truncated |-> trunc, payload |-> res]
CallId(x) == [conn |-> x.conn, ts |-> x.ts]      \* a call id as a record
NoEntries == [c \in {} |-> 0]
\* 3.1: rho' is "the maximum of two values, the period rho specified by the
\* SCMP algorithm, and a constant kappa".
RhoPrime(c) == Max(Rho[ClassOf[c]], Kappa)

TypeOK ==
    /\ now \in Nat /\ clock \in Int
    /\ skew \in [Conns -> -MaxSkew..MaxSkew]
    /\ \A m \in net : m.type \in Types /\ m.conn \in Conns /\ m.ts \in Int
    /\ DOMAIN ct \subseteq Conns /\ upper \in [Classes -> Int]
    /\ latest \in Int /\ stableLatest \in Int /\ up \in BOOLEAN
    /\ DOMAIN rpc = DOMAIN ct
    /\ \A c \in DOMAIN rpc :
         /\ rpc[c].state \in States
         /\ (rpc[c].reply # <<>>) <=> (rpc[c].state = "REPLYING")
    /\ \A c \in Conns :
         /\ client[c].waiting \in BOOLEAN /\ client[c].acked \in BOOLEAN
         /\ client[c].tries \in 0..MaxTries /\ client[c].outcome \in Outcomes
    /\ executed \in Seq([conn : Conns, ts : Int])
    /\ lastAction.name \in ActionNames

-----------------------------------------------------------------------------
(* Initialization: SCMP's (Fig. 2-2), an empty RPC table ("Initialization  *)
(* and Crash Recovery: ... The connection table CT is empty"), idle        *)
(* clients whose last call id is just below their first clock reading.    *)
Init ==
    /\ now = 0
    /\ clock = 0
    /\ skew \in [Conns -> -MaxSkew..MaxSkew]
    /\ net = {}
    /\ ct = NoEntries
    /\ upper = [k \in Classes |-> S!Min(0, clock - Rho[k])]
    /\ latest = clock + Beta
    /\ stableLatest = latest
    /\ up = TRUE
    /\ refuseUntil = 0
    /\ recovering = FALSE
    /\ rpc = NoEntries
    /\ computing = {}
    /\ client = [c \in Conns |-> [waiting |-> FALSE, ts |-> skew[c] - 1, acked |-> FALSE,
                                  tries |-> 0, outcome |-> "none"]]
    /\ executed = <<>>
    /\ replied = {}
    /\ rejects = {}
    /\ callCount = [c \in Conns |-> 0]
    /\ crashClocks = <<>>
    /\ recoveredUpper = 0
    /\ lastAction = [name |-> "Init"]

\* A received message stays in the network when it may be duplicated.
Consume(m) == IF AllowDup THEN net ELSE net \ {m}

-----------------------------------------------------------------------------
(* Client steps (3.1).                                                      *)

\* "The client makes an RPC by sending a CALL message to the server."  The
\* call id is the SCMP timestamp: clock reading, made strictly increasing.
Call(c) ==
    /\ ~client[c].waiting
    /\ callCount[c] < MaxCalls
    \* SCMP's SendTs(c), with RPC's record of the last call id
    /\ LET t == Max(now + skew[c], client[c].ts + 1) IN
         /\ client' = [client EXCEPT ![c] = [waiting |-> TRUE, ts |-> t, acked |-> FALSE,
                                             tries |-> 1, outcome |-> "none"]]
         /\ net' = net \cup {Msg("CALL", c, t, FALSE, 0)}
         /\ lastAction' = [name |-> "Call", conn |-> c, ts |-> t]
    /\ callCount' = [callCount EXCEPT ![c] = @ + 1]
    /\ UNCHANGED <<now, clock, skew, scmpVars, rpcVars, executed, replied, rejects,
                   crashClocks, recoveredUpper>>

\* "clients retransmit CALL messages on a periodic basis ... If the client
\* learns from such an ack that the server has received the CALL message,
\* subsequent retransmissions send a truncated message".
Retransmit(c) ==
    /\ client[c].waiting
    /\ client[c].tries < MaxTries
    /\ client' = [client EXCEPT ![c].tries = @ + 1]
    /\ net' = net \cup {Msg("CALL", c, client[c].ts, client[c].acked, 0)}
    /\ lastAction' = [name |-> "Retransmit", conn |-> c, ts |-> client[c].ts,
                      truncated |-> client[c].acked]
    /\ UNCHANGED <<now, clock, skew, scmpVars, rpcVars, histVars>>

\* "If several retransmissions have occurred without a response from the
\* server, the client times out the call": the outcome is unknown.
Timeout(c) ==
    /\ AllowTimeout
    /\ client[c].waiting
    /\ client[c].tries = MaxTries
    /\ client' = [client EXCEPT ![c].waiting = FALSE, ![c].outcome = "unknown"]
    /\ lastAction' = [name |-> "Timeout", conn |-> c, ts |-> client[c].ts]
    /\ UNCHANGED <<envVars, scmpVars, rpcVars, histVars>>

\* A datagram for the client counts only if it is about the outstanding
\* call (conn and ts): the rule ClientAcceptsOnlyOwnReply checks.
Own(m) == client[m.conn].waiting /\ m.ts = client[m.conn].ts

ClientReceiveWith(m, own) ==
    /\ m \in net
    /\ m.type \in {"ACK", "REPLY", "REJECT"}
    /\ LET c == m.conn IN
       /\ CASE m.type = "ACK" ->
                 /\ client' = IF own THEN [client EXCEPT ![c].acked = TRUE] ELSE client
                 /\ net' = Consume(m)
                 /\ UNCHANGED replied
            [] m.type = "REPLY" ->
                 IF own
                 THEN /\ client' = [client EXCEPT ![c].waiting = FALSE, ![c].outcome = "replied"]
                      /\ replied' = replied \cup {[conn |-> c, ts |-> client[c].ts, result |-> m.payload]}
                      \* the REPLY-ACK hint (3.1)
                      /\ net' = Consume(m) \cup {Msg("REPLY-ACK", c, m.ts, FALSE, 0)}
                 ELSE UNCHANGED <<client, replied>> /\ net' = Consume(m)
            [] OTHER ->
                 /\ client' = IF own THEN [client EXCEPT ![c].waiting = FALSE, ![c].outcome = "rejected"]
                              ELSE client
                 /\ net' = Consume(m)
                 /\ UNCHANGED replied
       /\ lastAction' = [name |-> CASE m.type = "ACK" -> "ReceiveAck"
                                    [] m.type = "REPLY" -> "ReceiveReply"
                                    [] OTHER -> "ReceiveReject",
                         conn |-> c, ts |-> m.ts, payload |-> m.payload, accepted |-> own]
    /\ UNCHANGED <<now, clock, skew, scmpVars, rpcVars, executed, rejects, callCount,
                   crashClocks, recoveredUpper>>

ClientReceive(m) == ClientReceiveWith(m, Own(m))

-----------------------------------------------------------------------------
(* Server steps: Figure 3-1.                                                *)

\* The entry is about exactly this call.
IsEntryCall(m) == m.conn \in DOMAIN ct /\ ct[m.conn] = m.ts

\* Fig. 3-1, 3 (DUPLICATE): COMPUTING -> ACK, REPLYING -> retransmit the
\* stored reply.  "If no connection table entry, ignore message": we send
\* REJECT instead, also when the entry is for a later call.  IDLE: the
\* client acknowledged the reply already; nothing to say.
DupOutcome(m) ==
    IF IsEntryCall(m)
    THEN CASE rpc[m.conn].state = "COMPUTING" -> "ack"
           [] rpc[m.conn].state = "REPLYING"  -> "retransmitReply"
           [] OTHER                           -> "ignore"
    ELSE "reject"

\* Fig. 3-1, 1-3 for a full CALL: the SCMP verdict first.
FullOutcome(m) ==
    LET v == S!Verdict(m) IN
    CASE v = "accepted"  -> "execute"
      [] v = "duplicate" -> DupOutcome(m)
      [] v = "tooEarly"  -> "tooEarly"
      [] OTHER           -> "ignore"

\* A truncated CALL is judged without changing SCMP's state: it cannot start
\* a call (no arguments).  The bound is what SCMP would compare it with.
Bound(m) == IF m.conn \in DOMAIN ct THEN ct[m.conn] ELSE upper[ClassOf[m.conn]]
TruncatedOutcome(m) ==
    IF IsEntryCall(m) THEN DupOutcome(m)
    ELSE IF ~recovering /\ m.ts <= Bound(m) THEN "reject" ELSE "ignore"

CallOutcome(m) == IF m.truncated THEN TruncatedOutcome(m) ELSE FullOutcome(m)

\* The effect of an outcome; mutants reuse it with a different outcome.
ReceiveCallWith(m, o) ==
    /\ up
    /\ m \in net
    /\ m.type = "CALL"
    /\ lastAction' = [name |-> "ReceiveCall", conn |-> m.conn, ts |-> m.ts,
                      truncated |-> m.truncated, outcome |-> o]
    /\ CASE o = "execute" ->
              \* Fig. 3-1, 2: SCMP creates or updates the entry; discard the
              \* stored reply, COMPUTING, begin the user-level computation.
              /\ ct' = [d \in DOMAIN ct \cup {m.conn} |-> IF d = m.conn THEN m.ts ELSE ct[d]]
              /\ rpc' = [d \in DOMAIN rpc \cup {m.conn} |->
                           IF d = m.conn THEN [state |-> "COMPUTING", reply |-> <<>>, replyTime |-> 0]
                           ELSE rpc[d]]
              /\ computing' = computing \cup {CallId(m)}
              /\ executed' = Append(executed, CallId(m))
              /\ net' = Consume(m)
              /\ UNCHANGED rejects
         [] o = "ack" ->
              /\ net' = Consume(m) \cup {Msg("ACK", m.conn, m.ts, FALSE, 0)}
              /\ UNCHANGED <<ct, rpcVars, executed, rejects>>
         [] o = "retransmitReply" ->
              /\ net' = Consume(m) \cup {Msg("REPLY", m.conn, m.ts, FALSE, rpc[m.conn].reply[1])}
              /\ UNCHANGED <<ct, rpcVars, executed, rejects>>
         [] o = "reject" ->
              /\ net' = Consume(m) \cup {Msg("REJECT", m.conn, m.ts, FALSE, 0)}
              /\ rejects' = rejects \cup {[conn |-> m.conn, ts |-> m.ts, after |-> Len(executed)]}
              /\ UNCHANGED <<ct, rpcVars, executed>>
         \* Fig. 2-2: "we need not discard a message that arrives too early;
         \* instead we can just delay processing": it stays in the network.
         [] o = "tooEarly" -> UNCHANGED <<net, ct, rpcVars, executed, rejects>>
         [] OTHER ->
              /\ net' = Consume(m)
              /\ UNCHANGED <<ct, rpcVars, executed, rejects>>
    /\ UNCHANGED <<now, clock, skew, upper, latest, stableLatest, up, refuseUntil,
                   recovering, client, replied, callCount, crashClocks, recoveredUpper>>

ReceiveCall(m) == ReceiveCallWith(m, CallOutcome(m))

\* Fig. 3-1, "Process completion of user-level computation": transmit the
\* REPLY, REPLYING, store results and G.time.  A computation whose entry is
\* gone or moved on to a later call just ends.
Complete(x) ==
    /\ up
    /\ x \in computing
    /\ computing' = computing \ {x}
    /\ IF IsEntryCall(x) /\ rpc[x.conn].state = "COMPUTING"
       THEN /\ rpc' = [rpc EXCEPT ![x.conn] = [state |-> "REPLYING", reply |-> <<x.ts>>,
                                               replyTime |-> clock]]
            /\ net' = net \cup {Msg("REPLY", x.conn, x.ts, FALSE, x.ts)}
            /\ lastAction' = [name |-> "Complete", conn |-> x.conn, ts |-> x.ts, outcome |-> "reply"]
       ELSE /\ UNCHANGED <<rpc, net>>
            /\ lastAction' = [name |-> "Complete", conn |-> x.conn, ts |-> x.ts, outcome |-> "ignore"]
    /\ UNCHANGED <<now, clock, skew, scmpVars, client, histVars>>

\* Fig. 3-1, "Process Incoming REPLY-ACK messages", for the stored reply's
\* call only: a late REPLY-ACK of an earlier call must not end a later one.
ReceiveReplyAck(m) ==
    /\ up
    /\ m \in net
    /\ m.type = "REPLY-ACK"
    /\ net' = Consume(m)
    /\ IF IsEntryCall(m) /\ rpc[m.conn].state = "REPLYING"
       THEN /\ rpc' = [rpc EXCEPT ![m.conn].state = "IDLE", ![m.conn].reply = <<>>]
            /\ lastAction' = [name |-> "ReceiveReplyAck", conn |-> m.conn, ts |-> m.ts, outcome |-> "idle"]
       ELSE /\ UNCHANGED rpc
            /\ lastAction' = [name |-> "ReceiveReplyAck", conn |-> m.conn, ts |-> m.ts, outcome |-> "ignore"]
    /\ UNCHANGED <<now, clock, skew, scmpVars, computing, client, histVars>>

\* Fig. 3-1, "Garbage collection": "If state is COMPUTING, do nothing.  If
\* state is IDLE or REPLYING, discard the entry if e.reply_time < G.time -
\* rho'."  The entry must also be old enough for SCMP (S!CanCollect), and
\* upper rises to the entry's call timestamp: "G.upper is set using the
\* client's call time, not the reply time".
MayCollect(c) ==
    /\ rpc[c].state # "COMPUTING"
    /\ rpc[c].replyTime < clock - RhoPrime(c)

CollectGarbageWith(c, newUpper) ==
    /\ c \in DOMAIN rpc
    /\ S!CanCollect(c)
    /\ S!RemoveEntry(c, newUpper)
    /\ rpc' = [d \in DOMAIN rpc \ {c} |-> rpc[d]]
    /\ UNCHANGED <<net, computing, client, executed, replied, rejects, callCount>>

CollectGarbage(c) ==
    /\ c \in DOMAIN rpc
    /\ MayCollect(c)
    /\ CollectGarbageWith(c, Max(upper[ClassOf[c]], ct[c]))

\* Fig. 2-2 "Maintaining Latest", as SCMP does it.
WriteLatest == S!WriteLatest /\ UNCHANGED <<net, rpcVars, client, executed, replied, rejects, callCount>>

\* A crash loses volatile memory: both parts of the table, and the running
\* computations with the process.  Recovery: "(Re)Initialize SCMP algorithm
\* as in Figure 2-2.  The connection table CT is empty."
Crash ==
    /\ S!Crash
    /\ rpc' = NoEntries
    /\ computing' = {}
    /\ UNCHANGED <<net, client, executed, replied, rejects, callCount>>

Recover == S!Recover /\ UNCHANGED <<net, rpcVars, client, executed, replied, rejects, callCount>>

Tick == S!Tick /\ UNCHANGED <<net, rpcVars, client, executed, replied, rejects, callCount>>

Lose(m) ==
    /\ AllowLoss
    /\ m \in net
    /\ net' = net \ {m}
    /\ lastAction' = [name |-> "Lose", type |-> m.type, conn |-> m.conn, ts |-> m.ts]
    /\ UNCHANGED <<now, clock, skew, scmpVars, rpcVars, client, histVars>>

-----------------------------------------------------------------------------
(* Next is a disjunction of named sub-actions so that a mutant can replace  *)
(* exactly one (see mutants/).                                              *)
ClientNext(c) == Call(c) \/ Retransmit(c) \/ Timeout(c)
ClientReceiveNext(c) == \E m \in net : m.conn = c /\ ClientReceive(m)
ReceiveCallNext == \E m \in net : ReceiveCall(m)
ReplyAckNext    == \E m \in net : ReceiveReplyAck(m)
CompleteNext    == \E x \in computing : Complete(x)
GcNext          == \E c \in DOMAIN rpc : CollectGarbage(c)
EnvNext         == Tick \/ (\E m \in net : Lose(m))

Next ==
    \/ \E c \in Conns : ClientNext(c) \/ ClientReceiveNext(c)
    \/ ReceiveCallNext
    \/ ReplyAckNext
    \/ CompleteNext
    \/ GcNext
    \/ WriteLatest
    \/ Crash
    \/ Recover
    \/ EnvNext

Spec == Init /\ [][Next]_vars

\* The liveness model's assumptions (3.1, "reliable delivery ... provided the
\* server is accessible"): messages are delivered, computations complete,
\* latest keeps up, clients retransmit.  Crashes, loss and timeouts are
\* switched off by that model, not here.
Fairness ==
    /\ WF_vars(ReceiveCallNext)
    /\ WF_vars(ReplyAckNext)
    /\ WF_vars(CompleteNext)
    /\ WF_vars(WriteLatest)
    /\ \A c \in Conns : WF_vars(ClientReceiveNext(c)) /\ WF_vars(Retransmit(c))

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
(* Properties.                                                              *)

\* At-most-once (3: "a call is guaranteed to be executed at most once even
\* when failures occur such as a crash of the receiving module").
AtMostOnceExecution ==
    \A i, j \in DOMAIN executed : i < j => executed[i] # executed[j]

\* A client accepts only the results of its own call: the result it took is
\* the one computed for that call id.
ClientAcceptsOnlyOwnReply ==
    \A r \in replied : r.result = r.ts

\* A REPLY the client accepted was computed: no results out of thin air.
RepliedWasExecuted ==
    \A r \in replied : \E i \in DOMAIN executed : executed[i] = [conn |-> r.conn, ts |-> r.result]

\* What REJECT promises (RpcMessage.Reject): the call is never started after
\* it, across crashes too.
RejectIsFinal ==
    \A r \in rejects : \A i \in (r.after + 1)..Len(executed) :
        executed[i] # [conn |-> r.conn, ts |-> r.ts]

\* A call is not rejected while it is being computed ("COMPUTING connection
\* entries are never deleted", so a duplicate gets an ACK and the client
\* waits for the reply), unless the client has moved on: a later call of
\* the connection was accepted after this one timed out.
NoRejectWhileComputing ==
    \A r \in rejects :
        CallId(r) \in computing =>
            \E i \in DOMAIN executed : executed[i].conn = r.conn /\ executed[i].ts > r.ts

\* The RPC table extends SCMP's: same connections.
TableMatchesScmp == DOMAIN rpc = DOMAIN ct

\* With fair delivery, no loss, no crash and no timeout, every call gets its
\* reply (3.1: "a client can depend on the protocol to deliver the call
\* message ... and similarly we guarantee to deliver the reply").
EventualCompletion ==
    \A c \in Conns : client[c].waiting ~> (~client[c].waiting /\ client[c].outcome = "replied")

-----------------------------------------------------------------------------
(* The argument of 2.3 and 3.1 as an invariant: why the properties hold.    *)
(* Every started call is covered by SCMP (its entry, or upper, which GC and *)
(* recovery raised), so a copy is never NEW again; every entry is about a   *)
(* call that was started; a stored or sent REPLY carries the result of the  *)
(* call it names, so the client's call-id check is enough.                  *)
IInv ==
    /\ TypeOK
    /\ TableMatchesScmp
    /\ AtMostOnceExecution
    /\ RejectIsFinal
    /\ up => \A i \in DOMAIN executed : S!Covered(executed[i])
    /\ \A i \in DOMAIN executed : executed[i].ts <= stableLatest
    /\ latest <= stableLatest
    /\ \A c \in DOMAIN rpc : [conn |-> c, ts |-> ct[c]] \in {executed[i] : i \in DOMAIN executed}
    /\ \A c \in DOMAIN rpc : rpc[c].state = "REPLYING" => rpc[c].reply = <<ct[c]>>
    /\ \A x \in computing : x \in {executed[i] : i \in DOMAIN executed}
    /\ \A m \in net : m.type = "REPLY" => m.payload = m.ts
    /\ ~up => rpc = NoEntries /\ computing = {}

=============================================================================
