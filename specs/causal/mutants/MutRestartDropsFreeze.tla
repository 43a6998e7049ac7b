------------------------ MODULE MutRestartDropsFreeze ------------------------
(* Mutant: a restart drops the freeze: survivors that reported before it   *)
(* may deliver the removed node's events again until they report anew.    *)
(* Four nodes: n2, n3 and n4 report none of n1's event, the decision       *)
(* agrees on none, n4 installs, n2 (the coordinator) is suspected; n3,     *)
(* unfrozen, delivers n1's event and reports it, the new round agrees on   *)
(* it, n3 installs, and n4, which installed without it, disagrees.         *)
(* Expected: RemovedAgreement.                                             *)
EXTENDS MCCausalMembershipRestart

\* Suspect with frozen in place of UNCHANGED frozen.
SuspectUnfrozen(i, x) ==
    /\ up[i]
    /\ i \in Survivors /\ x \in Survivors \ {i}
    /\ x \in Suspectable
    /\ flushing' = flushing \cup {x}
    /\ reported' = {}
    /\ report' = [j \in Node |-> {}]
    /\ frozen' = [j \in Node |-> {}]
    /\ lastAction' = [name |-> "Suspect", node |-> i, target |-> x, restart |-> flushing # {}]
    /\ UNCHANGED <<pvars, view, members, awaiting, agreed, gone>>

MutNext ==
    \/ PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ MGcNext
    \/ \E i, x \in Node : SuspectUnfrozen(i, x)
    \/ \E i \in Node : FlushReport(i) \/ InstallView(i)
    \/ DecideView
    \/ \E i, j \in Node : FlushForward(j, i)

MutSpec == MInit /\ [][MutNext]_mvars
=============================================================================
