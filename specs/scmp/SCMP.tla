-------------------------------- MODULE SCMP ---------------------------------
(***************************************************************************)
(* The Synchronized Clock Message Protocol (SCMP) of Liskov, Shrira and    *)
(* Wroclawski, "Efficient At-Most-Once Messages Based on Synchronized      *)
(* Clocks" (MIT/LCS/TR-476, 1990), section 2.                              *)
(*                                                                         *)
(* One server G receives at-most-once messages [conn, ts] from clients.    *)
(* A client stamps each message with its (skewed) clock; the server keeps  *)
(* a connection table ct (conn -> ts of the last accepted message) and,    *)
(* per class of clients, a bound upper that summarizes every entry it has  *)
(* thrown away.  Three server variants share the message rules:            *)
(*                                                                         *)
(*   "nonresilient"  Fig. 2-1: the server never survives a crash.          *)
(*   "resilient"     Fig. 2-2: latest on stable storage bounds accepted    *)
(*                   timestamps (rule 1) and re-initializes upper after a  *)
(*                   crash.                                                *)
(*   "monotonic"     end of 2.2: no stable storage; a monotonic server     *)
(*                   clock, "too early" above clock + epsilon, and a       *)
(*                   refusal period of epsilon after a restart.            *)
(*                                                                         *)
(* Time is discrete: one Tick advances real time (now) and the server      *)
(* clock together.  Client c's clock reads now + skew[c].  The network is  *)
(* a set of messages: a message stays in it after being received, so it   *)
(* can be received again (duplication), in any order (reordering) and at   *)
(* any later time (unbounded delay); Lose removes it.                      *)
(*                                                                         *)
(* Names follow specs/CONVENTIONS.md: every variable is also a field of    *)
(* the traces, and the server variables are the Java core's state.         *)
(* Bounds (MaxTime, MaxSends, ...) are set only in the MC*.tla/.cfg files. *)
(***************************************************************************)
EXTENDS Integers, Sequences, FiniteSets

CONSTANTS
    Conns,          \* connection ids (strings); one client per connection
    Classes,        \* client classes (strings), end of 2.4
    ClassOf,        \* Conns -> Classes
    Rho,            \* Classes -> Nat: per-class rho, end of 2.4
    Beta,           \* the increment written with latest, 2.2 ("G.time + beta")
    Epsilon,        \* the clock skew the protocol is tuned for, 2.1
    MaxSkew,        \* the skew clients actually have; may exceed Epsilon
    Mode,           \* "nonresilient" | "resilient" | "monotonic"
    AllowClockJump, \* may the server clock jump backwards? (2.3, last part)
    MaxTime,        \* model bound: real time stops at MaxTime
    MaxSends,       \* model bound: total messages sent
    MaxCrashes,     \* model bound: server crashes
    MaxJumps,       \* model bound: backward clock jumps
    MaxJumpBack     \* model bound: how far one jump goes back

Modes == {"nonresilient", "resilient", "monotonic"}

ASSUME ConnsAreStrings    == Conns # {} /\ Conns \subseteq STRING
ASSUME ClassesAreStrings  == Classes # {} /\ Classes \subseteq STRING
ASSUME ClassOfIsTotal     == ClassOf \in [Conns -> Classes]
\* 2.4: rho >= epsilon + delta with a positive network delay delta; in
\* integer time delta >= 1, so rho > epsilon leaves a window in which a
\* message counts as arriving "in time" (InTime below).
ASSUME RhoCoversSkew      == Rho \in [Classes -> Nat] /\ \A k \in Classes : Rho[k] > Epsilon
ASSUME ParametersAreNat   == {Beta, Epsilon, MaxSkew} \subseteq Nat
ASSUME ModeIsKnown        == Mode \in Modes
\* 2.2: the alternative without stable storage needs a monotonic clock.
ASSUME MonotonicMeansNoJump == AllowClockJump \in BOOLEAN /\ (Mode = "monotonic" => ~AllowClockJump)
ASSUME BoundsAreNat       == {MaxTime, MaxSends, MaxCrashes, MaxJumps, MaxJumpBack} \subseteq Nat

VARIABLES
    \* environment
    now,          \* real time
    clock,        \* the server's clock G.time
    skew,         \* Conns -> offset of the client's clock from real time
    lastSent,     \* Conns -> the client's last timestamp (2.2: strictly increasing)
    net,          \* set of messages [conn |-> c, ts |-> t] in transit
    \* server (the Java core's abstract state, CONVENTIONS.md)
    ct,           \* G.CT: conns with an entry -> ts of the last accepted message
    upper,        \* Classes -> G.upper of the class (end of 2.4)
    latest,       \* G.latest (resilient); 0 and unused in the other modes
    stableLatest, \* latest on stable storage (resilient); 0 and unused otherwise
    up,           \* the server is running
    refuseUntil,  \* monotonic: restart refuses messages until clock reaches it
    recovering,   \* monotonic: restarted, FinishRecovery has not run yet
    \* history (never read by the protocol)
    accepted,     \* every acceptance in order: [conn, ts, epoch]
    sends,        \* every send in order: [conn, ts, at] (at = real time)
    crashClocks,  \* server clock at each crash; epoch = Len(crashClocks)
    jumps,        \* number of backward clock jumps so far
    recoveredUpper, \* the value recovery gave upper (stableLatest or clock)
    lastAction    \* the step just taken, CONVENTIONS.md

envVars    == <<now, clock, skew, lastSent, net>>
serverVars == <<ct, upper, latest, stableLatest, up, refuseUntil, recovering>>
histVars   == <<accepted, sends, crashClocks, jumps, recoveredUpper>>
vars       == <<envVars, serverVars, histVars, lastAction>>

-----------------------------------------------------------------------------
Max(a, b) == IF a >= b THEN a ELSE b
Min(a, b) == IF a <= b THEN a ELSE b
Abs(a)    == IF a >= 0 THEN a ELSE -a

Msg       == [conn : Conns, ts : Int]
NoEntries == [c \in {} |-> 0]          \* the empty table; TLC prints it as <<>>
Epoch     == Len(crashClocks)
Verdicts  == {"accepted", "duplicate", "tooEarly", "recovering"}
ActionNames == {"Init", "Tick", "ClockJump", "Send", "Lose", "Receive",
                "CollectGarbage", "WriteLatest", "Crash", "Recover",
                "FinishRecovery"}

TypeOK ==
    /\ now \in Nat /\ clock \in Int
    /\ skew \in [Conns -> -MaxSkew..MaxSkew]
    /\ lastSent \in [Conns -> Int]
    /\ net \subseteq Msg
    /\ DOMAIN ct \subseteq Conns /\ \A c \in DOMAIN ct : ct[c] \in Int
    /\ upper \in [Classes -> Int]
    /\ latest \in Int /\ stableLatest \in Int
    /\ up \in BOOLEAN /\ recovering \in BOOLEAN /\ refuseUntil \in Int
    /\ accepted \in Seq([conn : Conns, ts : Int, epoch : Nat])
    /\ sends \in Seq([conn : Conns, ts : Int, at : Nat])
    /\ crashClocks \in Seq(Int)
    /\ jumps \in Nat /\ recoveredUpper \in Int
    /\ lastAction.name \in ActionNames
    /\ lastAction.name = "Receive" => lastAction.verdict \in Verdicts

-----------------------------------------------------------------------------
(* Initialization, Fig. 2-1 and 2-2: the table is empty and upper is the   *)
(* minimum of zero and G.time - rho (per class, end of 2.4).  A resilient  *)
(* server writes G.time + beta to stable storage and sets latest to it.    *)
(* Every client's clock is off by at most MaxSkew.                         *)
Init ==
    /\ now = 0
    /\ clock = 0
    /\ skew \in [Conns -> -MaxSkew..MaxSkew]
    \* as if each client had sent just before its clock read its first value
    /\ lastSent = [c \in Conns |-> skew[c] - 1]
    /\ net = {}
    /\ ct = NoEntries
    /\ upper = [k \in Classes |-> Min(0, clock - Rho[k])]
    /\ latest = IF Mode = "resilient" THEN clock + Beta ELSE 0
    /\ stableLatest = latest
    /\ up = TRUE
    /\ refuseUntil = 0
    /\ recovering = FALSE
    /\ accepted = <<>>
    /\ sends = <<>>
    /\ crashClocks = <<>>
    /\ jumps = 0
    /\ recoveredUpper = 0
    /\ lastAction = [name |-> "Init"]

-----------------------------------------------------------------------------
(* Environment steps.                                                      *)

\* Time passes; the server clock runs at the rate of real time.
Tick ==
    /\ now < MaxTime
    /\ now' = now + 1
    /\ clock' = clock + 1
    /\ lastAction' = [name |-> "Tick"]
    /\ UNCHANGED <<skew, lastSent, net, serverVars, histVars>>

\* 2.3 (last part): correctness must not depend on a monotonic clock in
\* the scheme that keeps latest on stable storage, so the server clock may
\* be set back (by a clock-synchronization step, say).
ClockJump ==
    /\ AllowClockJump
    /\ jumps < MaxJumps
    /\ \E d \in 1..MaxJumpBack :
         /\ clock' = clock - d
         /\ lastAction' = [name |-> "ClockJump", to |-> clock - d]
    /\ jumps' = jumps + 1
    /\ UNCHANGED <<now, skew, lastSent, net, serverVars, accepted, sends,
                   crashClocks, recoveredUpper>>

\* 2.2: a client stamps a message with its clock; a counter in the low bits
\* makes timestamps of one connection strictly increasing, which here is
\* max(clock reading, last timestamp + 1).
SendTs(c) == Max(now + skew[c], lastSent[c] + 1)

Send(c) ==
    /\ Len(sends) < MaxSends
    /\ LET ts == SendTs(c) IN
         /\ lastSent' = [lastSent EXCEPT ![c] = ts]
         /\ net' = net \cup {[conn |-> c, ts |-> ts]}
         /\ sends' = Append(sends, [conn |-> c, ts |-> ts, at |-> now])
         /\ lastAction' = [name |-> "Send", conn |-> c, ts |-> ts]
    /\ UNCHANGED <<now, clock, skew, serverVars, accepted, crashClocks, jumps,
                   recoveredUpper>>

\* 2.1: the network may lose a message (every copy of it).
Lose(m) ==
    /\ m \in net
    /\ net' = net \ {m}
    /\ lastAction' = [name |-> "Lose", conn |-> m.conn, ts |-> m.ts]
    /\ UNCHANGED <<now, clock, skew, lastSent, serverVars, histVars>>

-----------------------------------------------------------------------------
(* Server steps.                                                           *)

\* Rule 1 of Fig. 2-2 (resilient) and the monotonic alternative of 2.2.
TooEarly(m) ==
    CASE Mode = "resilient" -> m.ts > latest
      [] Mode = "monotonic" -> m.ts > clock + Epsilon
      [] OTHER              -> FALSE

\* Rules 1-2 of Fig. 2-1, rules 1-3 of Fig. 2-2: the table entry of the
\* connection is the bound if there is one, else the class's upper.
TableVerdict(m) ==
    IF m.conn \in DOMAIN ct
    THEN IF m.ts <= ct[m.conn] THEN "duplicate" ELSE "accepted"      \* 2a / 2b
    ELSE IF m.ts <= upper[ClassOf[m.conn]] THEN "duplicate" ELSE "accepted" \* 3a / 3b

Verdict(m) ==
    IF recovering THEN "recovering"        \* 2.2: refuse all for epsilon
    ELSE IF TooEarly(m) THEN "tooEarly"
    ELSE TableVerdict(m)

\* The effect of a verdict; mutants reuse it with a different verdict.
ReceiveWith(m, v) ==
    /\ up
    /\ m \in net
    /\ lastAction' = [name |-> "Receive", conn |-> m.conn, ts |-> m.ts, verdict |-> v]
    /\ IF v = "accepted"
       THEN /\ ct' = [d \in DOMAIN ct \cup {m.conn} |-> IF d = m.conn THEN m.ts ELSE ct[d]]
            /\ accepted' = Append(accepted, [conn |-> m.conn, ts |-> m.ts, epoch |-> Epoch])
       ELSE UNCHANGED <<ct, accepted>>
    /\ UNCHANGED <<envVars, upper, latest, stableLatest, up, refuseUntil, recovering,
                   sends, crashClocks, jumps, recoveredUpper>>

\* Processing of message m (Fig. 2-1 / 2-2).  A too-early message is not
\* lost: it stays in net and may be received again later (2.2: "we can just
\* delay processing of such a message").
Receive(m) == ReceiveWith(m, Verdict(m))

\* Garbage collection (Fig. 2-1 / 2-2): only an entry whose timestamp is
\* <= G.time - rho may go, and upper of its class rises to cover it.  The
\* paper lets the server pick when and which; here one entry per step.
CanCollect(c) ==
    /\ up
    /\ c \in DOMAIN ct
    /\ ct[c] <= clock - Rho[ClassOf[c]]

RemoveEntry(c, newUpper) ==
    /\ ct' = [d \in DOMAIN ct \ {c} |-> ct[d]]
    /\ upper' = [upper EXCEPT ![ClassOf[c]] = newUpper]
    /\ lastAction' = [name |-> "CollectGarbage", conn |-> c]
    /\ UNCHANGED <<envVars, latest, stableLatest, up, refuseUntil, recovering, histVars>>

CollectGarbage(c) ==
    /\ CanCollect(c)
    /\ RemoveEntry(c, Max(upper[ClassOf[c]], ct[c]))

\* Maintaining latest (Fig. 2-2): write G.time + beta to stable storage,
\* then set latest to it.  2.3: the stored value must be monotonic, so a
\* write that would lower it (after the clock went back) is not made.
WriteLatest ==
    /\ up
    /\ Mode = "resilient"
    /\ clock + Beta > stableLatest
    /\ stableLatest' = clock + Beta
    /\ latest' = clock + Beta
    /\ lastAction' = [name |-> "WriteLatest"]
    /\ UNCHANGED <<envVars, ct, upper, up, refuseUntil, recovering, histVars>>

\* A crash loses volatile state (footnote 1): the table is gone.  upper,
\* latest and refuseUntil keep their stale values but are not read while
\* the server is down; Recover overwrites them.  A non-resilient server
\* does not survive crashes (Fig. 2-1), so it is modelled without them.
Crash ==
    /\ up
    /\ Mode # "nonresilient"
    /\ Len(crashClocks) < MaxCrashes
    /\ up' = FALSE
    /\ ct' = NoEntries
    /\ recovering' = FALSE
    /\ crashClocks' = Append(crashClocks, clock)
    /\ lastAction' = [name |-> "Crash"]
    /\ UNCHANGED <<envVars, upper, latest, stableLatest, refuseUntil, accepted,
                   sends, jumps, recoveredUpper>>

\* Crash recovery.
\*  resilient (Fig. 2-2): upper := latest on stable storage, for every
\*    class; then a new latest is established by writing G.time + beta
\*    (not below the stored value, 2.3).
\*  monotonic (2.2): refuse every message for epsilon; FinishRecovery
\*    then sets upper.
Recover ==
    /\ ~up
    /\ up' = TRUE
    /\ ct' = NoEntries
    /\ lastAction' = [name |-> "Recover"]
    /\ IF Mode = "resilient"
       THEN /\ upper' = [k \in Classes |-> stableLatest]
            /\ recoveredUpper' = stableLatest
            /\ stableLatest' = Max(stableLatest, clock + Beta)
            /\ latest' = Max(stableLatest, clock + Beta)
            /\ UNCHANGED <<refuseUntil, recovering>>
       ELSE /\ refuseUntil' = clock + Epsilon
            /\ recovering' = TRUE
            /\ UNCHANGED <<upper, latest, stableLatest, recoveredUpper>>
    /\ UNCHANGED <<envVars, accepted, sends, crashClocks, jumps>>

\* 2.2, monotonic alternative: after refusing for epsilon, "sets G.upper to
\* G.time and begins normal processing".  Every message accepted before the
\* crash had ts <= (clock then) + epsilon <= refuseUntil <= clock now.
FinishRecovery ==
    /\ up
    /\ recovering
    /\ clock >= refuseUntil
    /\ upper' = [k \in Classes |-> clock]
    /\ recoveredUpper' = clock
    /\ recovering' = FALSE
    /\ lastAction' = [name |-> "FinishRecovery"]
    /\ UNCHANGED <<envVars, ct, latest, stableLatest, up, refuseUntil, accepted,
                   sends, crashClocks, jumps>>

-----------------------------------------------------------------------------
(* Next is a disjunction of named sub-actions so that a mutant can         *)
(* recombine them with exactly one replaced (see mutants/).                *)
EnvNext     == Tick \/ ClockJump \/ (\E c \in Conns : Send(c)) \/ (\E m \in net : Lose(m))
ReceiveNext == \E m \in net : Receive(m)
GcNext      == \E c \in DOMAIN ct : CollectGarbage(c)

Next ==
    \/ EnvNext
    \/ ReceiveNext
    \/ GcNext
    \/ WriteLatest
    \/ Crash
    \/ Recover
    \/ FinishRecovery

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
(* Safety: at-most-once (2.3).                                             *)

\* No message (conn, ts) is accepted twice, across any number of crashes.
NoDuplicateAccepted ==
    \A i, j \in DOMAIN accepted :
        (i < j /\ accepted[i].conn = accepted[j].conn) => accepted[i].ts # accepted[j].ts

\* Per connection, distinct accepted timestamps increase in the order of
\* acceptance, across crashes: an older message is never accepted after a
\* newer one.  (A duplicate is reported by NoDuplicateAccepted instead; the
\* two together say accepted timestamps strictly increase per connection.)
NoOutOfOrderAccept ==
    \A i, j \in DOMAIN accepted :
        (i < j /\ accepted[i].conn = accepted[j].conn /\ accepted[i].ts # accepted[j].ts)
            => accepted[i].ts < accepted[j].ts

(* The bounds of 2.2.                                                      *)

\* 2.2 ("since G.upper <= G.time - rho"): holds for every class while the
\* clock does not go back.  After a recovery, upper starts at the recovered
\* value (stored latest, or the clock when the monotonic server resumed)
\* and only garbage collection raises it, to at most G.time - rho; so it
\* is bounded by the larger of the two.
UpperBelowHorizon ==
    ~AllowClockJump =>
        \A k \in Classes :
            \/ upper[k] <= clock - Rho[k]
            \/ Epoch > 0 /\ upper[k] <= recoveredUpper

\* 2.2 plan item 1: every accepted timestamp is bounded by the estimate a
\* crash would establish, i.e. by latest on stable storage.
AcceptedBelowStable ==
    Mode = "resilient" => \A i \in DOMAIN accepted : accepted[i].ts <= stableLatest

\* Fig. 2-2 "Maintaining Latest": latest is only ever a value already on
\* stable storage.
LatestBelowStable ==
    Mode = "resilient" => latest <= stableLatest

(* The promise side (2.2 and 2.4): which messages are accepted.            *)

SentAt(m) ==
    LET i == CHOOSE i \in DOMAIN sends : sends[i].conn = m.conn /\ sends[i].ts = m.ts
    IN sends[i].at

\* 2.4: rho >= epsilon + delta.  A message arrives "in time" if its delay
\* in the network is below rho - epsilon of its class.
InTime(m) == now - SentAt(m) < Rho[ClassOf[m.conn]] - Epsilon

\* The client's clock is within the skew the protocol assumes (2.1).
SkewOK(m) == Abs(skew[m.conn]) <= Epsilon

\* Not a duplicate and not reordered: the message was never accepted and no
\* later timestamp was accepted on its connection.
Fresh(m) == ~\E i \in DOMAIN accepted : accepted[i].conn = m.conn /\ accepted[i].ts >= m.ts

\* The conditions every promise below assumes about the step just taken
\* (Receive leaves now, clock, latest and the history of other steps as
\* they were, so they can be read in the state after it).
PromiseCase(m) ==
    /\ jumps = 0
    /\ SkewOK(m)
    /\ InTime(m)
    /\ ~TooEarly(m)
    /\ Fresh(m)

\* 2.2 / 2.4: without a crash, a fresh message from a client whose clock is
\* within epsilon, arriving within rho - epsilon and not too early, is
\* accepted ("we rule out the chance of incorrectly flagging").
PromiseNoCrash ==
    (lastAction.name = "Receive" /\ Epoch = 0 /\ PromiseCase(lastAction))
        => lastAction.verdict = "accepted"

\* 2.4: after a crash "we will accept all messages sent after t_cr + beta"
\* (resilient; t_cr is the server clock at the latest crash).  For the
\* monotonic alternative the bound is the clock at which recovery finished.
\* Conditions as for PromiseNoCrash, and the server is not still refusing.
AfterCrashBound ==
    IF Mode = "resilient" THEN crashClocks[Epoch] + Beta ELSE recoveredUpper

PromiseAfterCrash ==
    (/\ lastAction.name = "Receive"
     /\ Epoch > 0
     /\ ~recovering
     /\ PromiseCase(lastAction)
     /\ lastAction.ts > AfterCrashBound)
        => lastAction.verdict = "accepted"

-----------------------------------------------------------------------------
(* Inductive invariant, mirroring the argument of 2.3.  TLC checks that it *)
(* holds initially, implies the safety properties, and is preserved by     *)
(* Next on a bounded domain (MCScmpInductive.tla).                         *)

\* The bound the server would compare a copy of a with (rules 2a / 3a).
Covered(a) ==
    IF a.conn \in DOMAIN ct THEN a.ts <= ct[a.conn] ELSE a.ts <= upper[ClassOf[a.conn]]

\* IInv is a conjunction of named parts, so that a mutant of the inductive
\* check (mutants/MutIInvNoRefusalBound.tla) can leave exactly one out.

\* The history is well formed and already satisfies the safety properties.
IInvHistory ==
    /\ TypeOK
    /\ NoDuplicateAccepted
    /\ NoOutOfOrderAccept
    /\ \A i \in DOMAIN accepted : accepted[i].epoch <= Epoch

\* 2.3, no crash between the copies: an accepted copy is covered by the
\* table entry, or (entry discarded) by upper, which GC raised.
IInvSameEpoch ==
    up /\ ~recovering =>
        \A i \in DOMAIN accepted : accepted[i].epoch = Epoch => Covered(accepted[i])

\* 2.3, a crash in between: latest_precrash <= upper_postcrash, so copies
\* accepted in earlier epochs are covered by upper (and by the entry of
\* their connection, accepted later with a larger timestamp).
IInvEarlierEpochs ==
    up /\ ~recovering =>
        \A i \in DOMAIN accepted :
            accepted[i].epoch < Epoch =>
                /\ accepted[i].ts <= upper[ClassOf[accepted[i].conn]]
                /\ Covered(accepted[i])

\* Which server states exist in which mode: a crash empties the table, a
\* non-resilient server never crashes, only the monotonic one refuses.
IInvShape ==
    /\ ~up => ct = NoEntries
    /\ Mode = "nonresilient" => up /\ Epoch = 0 /\ ~recovering
    /\ Mode = "resilient" => ~recovering
    /\ recovering => up /\ ct = NoEntries

\* 2.2 plan item 1 and "Maintaining Latest".
IInvResilient ==
    Mode = "resilient" => AcceptedBelowStable /\ LatestBelowStable

\* Monotonic: rule "too early above G.time + epsilon" with a clock that
\* never goes back bounds everything accepted so far ...
IInvMonotonic ==
    Mode = "monotonic" => \A i \in DOMAIN accepted : accepted[i].ts <= clock + Epsilon

\* ... and while refusing after a restart, refuseUntil bounds it too, which
\* is why FinishRecovery may set upper to the clock once it reaches it.
IInvRefusal ==
    recovering => \A i \in DOMAIN accepted : accepted[i].ts <= refuseUntil

IInv ==
    /\ IInvHistory
    /\ IInvSameEpoch
    /\ IInvEarlierEpochs
    /\ IInvShape
    /\ IInvResilient
    /\ IInvMonotonic
    /\ IInvRefusal

=============================================================================
