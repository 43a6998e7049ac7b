------------------------- MODULE MCCausalJoinTrace -------------------------
(* Targeted traces of the rejoin under a new id for replay on the Java     *)
(* core (CausalNode's join, installJoin and joining, ViewChange's join):   *)
(* the cfg's only invariant is a trap NotX == ~X, and TLC's shortest       *)
(* counterexample is a run of scenario X.                                  *)
EXTENDS MCCausalJoin

\* A node removed by mistake comes back under a new id: after a removal a
\* spare joins from a member that had delivered an event, and the copy of
\* that event still on its way to the joiner is a duplicate there (it got
\* the event with the state and never delivers it).
RejoinerSkipsHanded ==
    /\ lastAction.name = "Receive" /\ lastAction.outcome = "duplicate"
    /\ lastAction.node \in Joined
    /\ goneAtJoin[lastAction.node] # {}
NotRejoinerSkipsHanded == ~RejoinerSkipsHanded
=============================================================================
