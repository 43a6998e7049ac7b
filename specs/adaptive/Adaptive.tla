------------------------------ MODULE Adaptive ------------------------------
(***************************************************************************)
(* Standard-form at-most-once delivery with an adaptive lifetime estimate: *)
(* Chaudhuri, Coan and Welch, "Using Adaptive Timeouts to Achieve          *)
(* At-Most-Once Message Delivery" (1995), Fig. 1.                          *)
(*                                                                         *)
(* Fig. 1 is the skeleton of every standard-form algorithm: a connection   *)
(* table CT, one bound upper, and garbage collection that first sets       *)
(* ltime-est to "any function of the state variables" and then removes     *)
(* every entry at or below clock - ltime-est, raising upper to cover it.   *)
(* The unlimited horizon (Fig. 2) and limited horizon (Fig. 3) algorithms  *)
(* only add auxiliary variables whose sole dataflow back into the skeleton *)
(* is ltime-est (Section 3.1).  So here every CollectGarbage picks its     *)
(* estimate nondeterministically from Estimates: the behaviours of this    *)
(* spec include those of every estimator whose values lie in Estimates,    *)
(* and TLC checking Condition 1 here checks Theorem 2 for all of them at   *)
(* once on a bounded model.                                                *)
(*                                                                         *)
(* The environment is that of specs/scmp/SCMP.tla: discrete time, client   *)
(* c's clock reads now + skew[c], timestamps of one client strictly        *)
(* increase (Assumption 4 and one message per clock value), and the       *)
(* network is a set, so a message can be received any number of times, in *)
(* any order, after any delay, or lost.  Lifetimes (clock - stamp) may be  *)
(* zero or negative: Assumption 5 is needed only for Conditions 2 and 3,   *)
(* not for the safety checked here.  The server clock may be set back      *)
(* (ClockJump): Theorem 2 assumes nothing about it either.                 *)
(*                                                                         *)
(* Names follow the figure and specs/CONVENTIONS.md (section Adaptive):    *)
(* CT is ct, ltime-est is ltimeEst.                                        *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Conns,          \* client ids (strings), the paper's 1..n
    Estimates,      \* the values a garbage collection may give ltime-est
    InitEst,        \* ltime-est before the first collection
    MaxSkew,        \* client clocks are within MaxSkew of real time
    AllowClockJump, \* may the server clock be set back?
    AllowLose,      \* may the network lose messages?  (A loss only removes
                    \* receptions, so safety models may leave it out.)
    MaxTime,        \* model bound: real time stops here
    MaxSends,       \* model bound: messages sent in all
    MaxJumps,       \* model bound: backward jumps of the server clock
    MaxJumpBack     \* model bound: how far one jump goes back

ASSUME ConnsAreStrings   == Conns # {} /\ Conns \subseteq STRING
\* Fig. 1: "ltime-est: integer"; any integer is allowed, even 0 or negative
\* (then collection removes entries younger than the clock).
ASSUME EstimatesAreInts  == Estimates # {} /\ Estimates \subseteq Int /\ InitEst \in Int
ASSUME SkewIsNat         == MaxSkew \in Nat
ASSUME FlagsAreBoolean   == {AllowClockJump, AllowLose} \subseteq BOOLEAN
ASSUME BoundsAreNat      == {MaxTime, MaxSends, MaxJumps, MaxJumpBack} \subseteq Nat

VARIABLES
    \* environment
    now,        \* real time
    clock,      \* the server's clock (Fig. 1 "clock")
    skew,       \* Conns -> offset of the client's clock from real time
    lastSent,   \* Conns -> the client's last timestamp
    net,        \* set of messages [conn |-> c, ts |-> t] in transit
    \* server: Fig. 1's state variables, the Java core's abstract state
    ct,         \* CT: conns with a non-nil entry -> its timestamp
    upper,      \* bound on every timestamp ever removed from ct
    ltimeEst,   \* ltime-est, set at each garbage collection
    \* history (never read by the protocol)
    accepted,   \* every acceptance in order: [conn, ts]
    sent,       \* number of messages sent so far (for the MaxSends bound)
    jumps,      \* number of backward clock jumps so far
    lastAction  \* the step just taken, CONVENTIONS.md

envVars    == <<now, clock, skew, lastSent, net>>
serverVars == <<ct, upper, ltimeEst>>
histVars   == <<accepted, sent, jumps>>
vars       == <<envVars, serverVars, histVars, lastAction>>

-----------------------------------------------------------------------------
Max(a, b) == IF a >= b THEN a ELSE b
Min(a, b) == IF a <= b THEN a ELSE b
SetMax(S) == CHOOSE x \in S : \A y \in S : y <= x

Msg       == [conn : Conns, ts : Int]
NoEntries == [c \in {} |-> 0]
ActionNames == {"Init", "Tick", "ClockJump", "Send", "Lose", "Receive",
                "CollectGarbage"}

\* lim_i of Section 3.1: CT[i] if it is not nil, upper otherwise.  A
\* message from i is accepted exactly when its timestamp is above lim_i.
Lim(c) == IF c \in DOMAIN ct THEN ct[c] ELSE upper

TypeOK ==
    /\ now \in Nat /\ clock \in Int
    /\ skew \in [Conns -> -MaxSkew..MaxSkew]
    /\ lastSent \in [Conns -> Int]
    /\ net \subseteq Msg
    /\ DOMAIN ct \subseteq Conns /\ \A c \in DOMAIN ct : ct[c] \in Int
    /\ upper \in Int
    /\ ltimeEst \in Estimates \cup {InitEst}
    /\ accepted \in Seq([conn : Conns, ts : Int])
    /\ sent \in Nat /\ jumps \in Nat
    /\ lastAction.name \in ActionNames

-----------------------------------------------------------------------------
(* Fig. 1 says "upper: integer, initially 0".  The Java core initializes   *)
(* upper as Liskov et al. Fig. 2-1 do, min(0, clock - estimate); the two   *)
(* agree whenever the clock starts at or above the estimate, and the safety *)
(* argument (Lemma 1) does not depend on the initial value, so we write     *)
(* the core's form and spec and core agree from any start.                  *)
Init ==
    /\ now = 0
    /\ clock = 0
    /\ skew \in [Conns -> -MaxSkew..MaxSkew]
    /\ lastSent = [c \in Conns |-> skew[c] - 1]
    /\ net = {}
    /\ ct = NoEntries
    /\ ltimeEst = InitEst
    /\ upper = Min(0, clock - InitEst)
    /\ accepted = <<>>
    /\ sent = 0
    /\ jumps = 0
    /\ lastAction = [name |-> "Init"]

-----------------------------------------------------------------------------
(* Environment steps, as in SCMP.tla.                                      *)

Tick ==
    /\ now < MaxTime
    /\ now' = now + 1
    /\ clock' = clock + 1
    /\ lastAction' = [name |-> "Tick"]
    /\ UNCHANGED <<skew, lastSent, net, serverVars, histVars>>

\* Nothing in Section 3.1 assumes a monotonic server clock.
ClockJump(d) ==
    /\ AllowClockJump
    /\ jumps < MaxJumps
    /\ clock' = clock - d
    /\ jumps' = jumps + 1
    /\ lastAction' = [name |-> "ClockJump", to |-> clock - d]
    /\ UNCHANGED <<now, skew, lastSent, net, serverVars, accepted, sent>>

\* Section 2: "each message is sent at a different time and the times are
\* monotonically increasing"; Assumption 4: clocks never go back.
SendTs(c) == Max(now + skew[c], lastSent[c] + 1)

Send(c) ==
    /\ sent < MaxSends
    /\ sent' = sent + 1
    /\ LET ts == SendTs(c) IN
         /\ lastSent' = [lastSent EXCEPT ![c] = ts]
         /\ net' = net \cup {[conn |-> c, ts |-> ts]}
         /\ lastAction' = [name |-> "Send", conn |-> c, ts |-> ts]
    /\ UNCHANGED <<now, clock, skew, serverVars, accepted, jumps>>

Lose(m) ==
    /\ AllowLose
    /\ m \in net
    /\ net' = net \ {m}
    /\ lastAction' = [name |-> "Lose", conn |-> m.conn, ts |-> m.ts]
    /\ UNCHANGED <<now, clock, skew, lastSent, serverVars, histVars>>

-----------------------------------------------------------------------------
(* Server steps: the two transitions of Fig. 1.                            *)

\* "if ((CT[i] # nil) and (stamp > CT[i])) or ((CT[i] = nil) and
\* (stamp > upper)) then accept": i.e. stamp > lim_i.  A rejection with
\* CT[i] = nil is a summary-rejection (Section 2): the estimators of Figs.
\* 2 and 3 count those in numrej, so the step records it.
Verdict(m) == IF m.ts > Lim(m.conn) THEN "accepted" ELSE "duplicate"

\* The effect of a verdict; mutants reuse it with a different verdict.
ReceiveWith(m, v) ==
    /\ m \in net
    /\ lastAction' = [name |-> "Receive", conn |-> m.conn, ts |-> m.ts, verdict |-> v,
                      summaryRejected |-> (v # "accepted" /\ m.conn \notin DOMAIN ct)]
    /\ IF v = "accepted"
       THEN /\ ct' = [d \in DOMAIN ct \cup {m.conn} |-> IF d = m.conn THEN m.ts ELSE ct[d]]
            /\ accepted' = Append(accepted, [conn |-> m.conn, ts |-> m.ts])
       ELSE UNCHANGED <<ct, accepted>>
    /\ UNCHANGED <<envVars, upper, ltimeEst, sent, jumps>>

Receive(m) == ReceiveWith(m, Verdict(m))

\* Garbage collection, Fig. 1: "ltime-est := any function of the state
\* variables" -- here any e in Estimates, which the step records so that a
\* trace carries the estimator's choice -- then, for every i, "if (CT[i] #
\* nil) and (CT[i] <= clock - ltime-est) then upper := max(upper, CT[i]);
\* CT[i] := nil".  (The extracted Fig. 3 prints "<" in that test; Figs. 1
\* and 2 print "<=", as does Liskov et al.'s rule, and the Java core uses
\* "<=": we read "<=" throughout.  Theorem 2 holds for either.)  The loop
\* is one atomic step: the core runs a whole pass between two messages.
Old(e)  == {c \in DOMAIN ct : ct[c] <= clock - e}
Kept(e) == DOMAIN ct \ Old(e)

\* The bound after removing Old(e): max(upper, CT[i]) over the removed i.
RaisedUpper(e) == SetMax({upper} \cup {ct[c] : c \in Old(e)})

CollectWith(e, newUpper) ==
    /\ ltimeEst' = e
    /\ ct' = [c \in Kept(e) |-> ct[c]]
    /\ upper' = newUpper
    /\ lastAction' = [name |-> "CollectGarbage", est |-> e]
    /\ UNCHANGED <<envVars, histVars>>

CollectGarbage(e) == CollectWith(e, RaisedUpper(e))

-----------------------------------------------------------------------------
(* Next is a disjunction of named sub-actions so that a mutant can         *)
(* recombine them with exactly one replaced (see mutants/).                *)
EnvNext     == \/ Tick
               \/ \E d \in 1..MaxJumpBack : ClockJump(d)
               \/ \E c \in Conns : Send(c)
               \/ \E m \in net : Lose(m)
ReceiveNext == \E m \in net : Receive(m)
GcNext      == \E e \in Estimates : CollectGarbage(e)

Next == EnvNext \/ ReceiveNext \/ GcNext

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* Condition 1 (Theorem 2): "No duplicate or out-of-order messages are     *)
(* accepted by the server in any execution."  The same two invariants as  *)
(* SCMP.tla, so a counterexample reads the same in both families.          *)

NoDuplicateAccepted ==
    \A i, j \in DOMAIN accepted :
        (i < j /\ accepted[i].conn = accepted[j].conn) => accepted[i].ts # accepted[j].ts

\* A message sent earlier than one already accepted from the same client is
\* never accepted: accepted timestamps of a client increase.
NoOutOfOrderAccept ==
    \A i, j \in DOMAIN accepted :
        (i < j /\ accepted[i].conn = accepted[j].conn /\ accepted[i].ts # accepted[j].ts)
            => accepted[i].ts < accepted[j].ts

Condition1 == NoDuplicateAccepted /\ NoOutOfOrderAccept

\* Lemma 1: "for any i, the sequence of values taken on by lim_i is
\* non-decreasing" -- checked on every step, whatever the estimate.
Lemma1 == [][\A c \in Conns : Lim(c)' >= Lim(c)]_vars

\* upper only rises (Case 2 and 3 of the proof of Lemma 1).
UpperNeverFalls == [][upper' >= upper]_vars

-----------------------------------------------------------------------------
(* Inductive invariant, mirroring the proof of Theorem 2: when a message   *)
(* is accepted, lim_i becomes its timestamp, and lim_i never decreases, so *)
(* every accepted timestamp stays at or below lim_i -- a copy or an older  *)
(* message is then rejected.  The last accepted timestamp of a client      *)
(* equals its entry while the entry exists.                                 *)
IInv ==
    /\ TypeOK
    /\ Condition1
    /\ \A i \in DOMAIN accepted : accepted[i].ts <= Lim(accepted[i].conn)
    /\ \A c \in DOMAIN ct : \E i \in DOMAIN accepted :
           accepted[i].conn = c /\ accepted[i].ts = ct[c]

=============================================================================
