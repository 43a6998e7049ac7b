------------------ MODULE MCExactlyOnceS0MsgTimedTrace ------------------
(* Models that make traces of ExactlyOnceS0MsgTimed (Strategy 0's forget  *)
(* rule with its T_e wait as a clock wait) for replay on the Java cores   *)
(* (specs/CONVENTIONS.md).  The targeted cfg has one invariant, a trap    *)
(* NotX == ~X, so TLC's shortest (BFS) counterexample is a trace of X.    *)
EXTENDS MCExactlyOnceS0MsgTimed

\* A forget refused for T_e, then made: the id was confirmed by every other
\* server at some tick but the wait was not over (the clock gate refused:
\* the states after the confirmation, before T_e ticks), and after the ticks
\* the server forgets it.  Every timed Forget needs such states (at least
\* one Tick lies between a confirmation and the Forget), so the shortest
\* trace of Forgot is one of a refusal too; replay compares the core's gate
\* with the spec's Confirmed /\ Waited in each of them.
Forgot == lastAction.name = "Forget"
NotForgot == ~Forgot
\* 3.1, the Deliver outcome "timeout, message lost": the note is lost and the
\* server's Deliver times out; the note stays in K.
LostThenTimeout ==
    lastAction.name = "Timeout" /\ ~Processed(lastAction.note) /\ NoCopy(lastAction.note)
NotLostThenTimeout == ~LostThenTimeout
========================================================================
