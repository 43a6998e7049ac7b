------------------------ MODULE MutRestartKeepsReports ------------------------
(* Mutant: the new coordinator decides from the old round's reports: a    *)
(* restart keeps what the survivors reported before it.  n3 delivered n1's *)
(* event; n1 suspected n2 and coordinated its removal, n3 reported on n2;  *)
(* then n3 suspected n1, the coordinator: the new round decides on n3's    *)
(* old report, which says nothing of n1, and agrees on none of n1's        *)
(* events, one of which n3 delivered.  Expected: ExcludedNotDelivered.     *)
EXTENDS MCCausalMembershipRestart

SuspectKeepingReports(i, x) ==
    /\ up[i]
    /\ i \in Survivors /\ x \in Survivors \ {i}
    /\ x \in Suspectable
    /\ flushing' = flushing \cup {x}
    /\ reported' = reported \ {x}
    /\ lastAction' = [name |-> "Suspect", node |-> i, target |-> x, restart |-> flushing # {}]
    /\ UNCHANGED <<pvars, view, members, frozen, awaiting, report, agreed, gone>>

MutNext ==
    \/ PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ MGcNext
    \/ \E i, x \in Node : SuspectKeepingReports(i, x)
    \/ \E i \in Node : FlushReport(i) \/ InstallView(i)
    \/ DecideView
    \/ \E i, j \in Node : FlushForward(j, i)

MutSpec == MInit /\ [][MutNext]_mvars
=============================================================================
