--------------------- MODULE MutRestartLosesReportsOnly ---------------------
(* Mutant: the new coordinator decides before every survivor of the new   *)
(* set reported to it: a restart loses the old coordinator's reports but   *)
(* not its list of who reported, so the new coordinator decides at once,   *)
(* on no report.  n3 delivered n1's event and reported it to n2, the       *)
(* coordinator of n1's removal; n3 suspects n2 and the new round agrees on *)
(* none of n1's events.  Expected: ExcludedNotDelivered.                   *)
EXTENDS MCCausalMembershipRestart

SuspectKeepingReported(i, x) ==
    /\ up[i]
    /\ i \in Survivors /\ x \in Survivors \ {i}
    /\ x \in Suspectable
    /\ flushing' = flushing \cup {x}
    /\ reported' = reported \ {x}
    /\ report' = [j \in Node |-> {}]
    /\ lastAction' = [name |-> "Suspect", node |-> i, target |-> x, restart |-> flushing # {}]
    /\ UNCHANGED <<pvars, view, members, frozen, awaiting, agreed, gone>>

MutNext ==
    \/ PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ MGcNext
    \/ \E i, x \in Node : SuspectKeepingReported(i, x)
    \/ \E i \in Node : FlushReport(i) \/ InstallView(i)
    \/ DecideView
    \/ \E i, j \in Node : FlushForward(j, i)

MutSpec == MInit /\ [][MutNext]_mvars
=============================================================================
