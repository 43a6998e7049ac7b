---------------------------- MODULE MCScmpTrace -----------------------------
(* Models that make traces for replay on the Java core (CONVENTIONS.md).   *)
(*                                                                         *)
(* MCScmpTraceSim*.cfg: random simulation, one per mode.                   *)
(* The other cfgs are targeted: their only invariant is a trap NotX == ~X  *)
(* and TLC's shortest (BFS) counterexample is a trace of scenario X, one   *)
(* of those the paper argues about.  No VIEW here: lastAction is part of   *)
(* every state so each trace step says which core method to call.         *)
EXTENDS MCScmp

Rcv == lastAction.name = "Receive"

\* Simulation only (SPECIFICATION of the Sim cfgs): TLC picks the next
\* action at random, and losing every message as soon as it is sent makes
\* traces with few receptions; lose a message only from a fuller network.
\* SimNext implies Next, so every simulated trace is a behavior of Spec.
SimNext == Next /\ (lastAction'.name = "Lose" => Cardinality(net) >= 3)
SimSpec == Init /\ [][SimNext]_vars

\* Fig. 2-2 / 2.3: a message is accepted, the server crashes and recovers,
\* and a later message is accepted in the new epoch.
CrashRecovery ==
    \E i, j \in DOMAIN accepted : accepted[i].epoch = 0 /\ accepted[j].epoch = 1
NotCrashRecovery == ~CrashRecovery

\* Fig. 2-1 garbage collection: an entry was collected (upper raised to its
\* timestamp), and a copy of the message it recorded is then flagged a
\* duplicate by rule 2a, upper alone (the connection has no entry).
GcDuplicate ==
    /\ Rcv
    /\ lastAction.verdict = "duplicate"
    /\ lastAction.conn \notin DOMAIN ct
    /\ \E i \in DOMAIN accepted : /\ accepted[i].conn = lastAction.conn
                                  /\ accepted[i].ts = lastAction.ts
                                  /\ accepted[i].epoch = Epoch
NotGcDuplicate == ~GcDuplicate

\* 2.3, clocks not synchronized: a client whose clock is fast by more than
\* epsilon has a message refused as too early (resilient rule 1) ...
SkewTooEarly ==
    Rcv /\ lastAction.verdict = "tooEarly" /\ skew[lastAction.conn] > Epsilon
NotSkewTooEarly == ~SkewTooEarly

\* ... and a client whose clock is slow by more than epsilon has a message
\* that was never accepted flagged as a duplicate by upper.
SkewLateDuplicate ==
    /\ Rcv
    /\ lastAction.verdict = "duplicate"
    /\ skew[lastAction.conn] < -Epsilon
    /\ ~\E i \in DOMAIN accepted : accepted[i].conn = lastAction.conn /\ accepted[i].ts = lastAction.ts
NotSkewLateDuplicate == ~SkewLateDuplicate

\* 2.3, G crashes between two copies: the copy accepted before the crash
\* arrives again after recovery and is flagged a duplicate (rule 3a, upper
\* set from the stored latest).
DuplicateAfterCrash ==
    /\ Rcv
    /\ lastAction.verdict = "duplicate"
    /\ \E i \in DOMAIN accepted : /\ accepted[i].conn = lastAction.conn
                                  /\ accepted[i].ts = lastAction.ts
                                  /\ accepted[i].epoch < Epoch
NotDuplicateAfterCrash == ~DuplicateAfterCrash

\* 2.2 monotonic alternative: a message accepted, a crash, a restart that
\* refuses a message, FinishRecovery, then a message accepted again.  The
\* cfg's ACTION_CONSTRAINT lets FinishRecovery happen only right after a
\* refusal, so the shortest trace contains one.
MonotonicRestart == CrashRecovery
NotMonotonicRestart == ~MonotonicRestart
FinishRightAfterRefusal ==
    lastAction'.name = "FinishRecovery" =>
        lastAction.name = "Receive" /\ lastAction.verdict = "recovering"

\* 2.3 (last part): the server clock goes back; latest on stable storage may
\* not (WriteLatest cannot raise it: clock + beta is not above it), so a
\* client within epsilon has a message refused as too early.
ClockJumpTooEarly ==
    /\ jumps > 0
    /\ Rcv
    /\ lastAction.verdict = "tooEarly"
    /\ SkewOK(lastAction)
    /\ stableLatest > Beta          \* WriteLatest did raise it once
    /\ clock + Beta <= stableLatest
NotClockJumpTooEarly == ~ClockJumpTooEarly
=============================================================================
