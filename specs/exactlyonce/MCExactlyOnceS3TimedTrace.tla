-------------------- MODULE MCExactlyOnceS3TimedTrace --------------------
(* Models that make traces of ExactlyOnceS3Timed for replay on the Java     *)
(* cores, with the spec's clock (specs/CONVENTIONS.md).  Targeted: the only *)
(* invariant is a trap NotX == ~X, and TLC's shortest (BFS) counterexample  *)
(* is a trace of scenario X.                                                *)
EXTENDS MCExactlyOnceS3Timed

\* L131 with the clock: the note is in every D at tick 0, the gate stays
\* shut through the ticks before T_e has passed, then it opens and the note
\* is authorized and purged.  Every purge of this spec passes through that
\* wait, so the shortest one is the scenario.
TimedPurgeDone == lastAction.name = "ReceivePurgeAck"
NotTimedPurgeDone == ~TimedPurgeDone

\* A server crashes after a sync confirmed a note at both ends and T_e has
\* passed (its gate was open): its confirmedAt is volatile (S3Server.crash
\* clears it), so its gate shuts and the wait starts over at its next merge.
CrashAfterConfirm ==
    /\ lastAction.name = "ServerCrash"
    /\ now >= Te
    /\ \E i \in D[lastAction.server] : \E t \in Servers \ {lastAction.server} :
         confirmedAt[t][i] # NotConfirmed
NotCrashAfterConfirm == ~CrashAfterConfirm

\* A lone server crashes after the client acknowledged a note, restarts,
\* reconfirms the note (S3Server.reconfirm: no peer's sync will ever do it)
\* and, T_e later, purges it.  The action constraint OnlyServerCrash makes
\* the crash the run's one fault, so the trap's purge follows a restart.
PurgeAfterCrash == lastAction.name = "ReceivePurgeAck" /\ faults = 1
NotPurgeAfterCrash == ~PurgeAfterCrash
OnlyServerCrash == faults' > faults => lastAction'.name = "ServerCrash"

\* The network loses a message (a fault), beside the expiries of Tick.
Lost == lastAction.name = "Lose"
NotLost == ~Lost
=============================================================================
