------------------------- MODULE MCCausalJoinTrace -------------------------
(* Targeted traces of the rejoin under a new id for replay on the Java     *)
(* core (CausalNode's join, installJoin and joining, ViewChange's join and *)
(* joinInstalled):                                                         *)
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

\* The join in two steps (issue 21): a member installs the join after it
\* learnt that the donor delivered more than it handed, so its row of the
\* donor is above the handed prefix, and its row of the joiner starts from
\* the handed prefix (replay compares known: a core that starts it from its
\* row of the donor, MutJoinRowFromDonor, differs here).
JoinInstalledLate ==
    /\ lastAction.name = "InstallJoin"
    /\ \E k \in Node : Row(lastAction.node, donorOf[lastAction.target])[k] > joinStart[lastAction.target][k]
NotJoinInstalledLate == ~JoinInstalledLate
=============================================================================
