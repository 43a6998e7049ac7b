------------------- MODULE MCExactlyOnceS2TimedTrace -------------------
(* Models that make traces of ExactlyOnceS2Timed (Condition 1's T_e wait  *)
(* as a clock wait) for replay on the Java cores (specs/CONVENTIONS.md).  *)
(* The targeted cfgs have one invariant, a trap NotX == ~X, so TLC's      *)
(* shortest (BFS) counterexample is a trace of X.                         *)
EXTENDS MCExactlyOnceS2Timed

\* A creation under Condition 1 refused for T_e, then made: every other
\* server confirmed the successor gone at some tick, but the wait was not
\* over (the clock gate refused: the states after the confirmation, before
\* T_e ticks), and after the ticks the note is created.  At least one Tick
\* lies between the last confirmation and the creation, so the shortest
\* trace of one is a trace of a refusal too; replay compares the core's gate
\* (S2Server.mayCreate) with the spec's MayUseTimed in each state.
NotGated == NeverGated

\* 3.1, the Deliver outcome "timeout, message lost", with the clock.
LostThenTimeout ==
    lastAction.name = "Timeout" /\ ~Processed(lastAction.note) /\ NoCopy(lastAction.note)
NotLostThenTimeout == ~LostThenTimeout
=============================================================================
