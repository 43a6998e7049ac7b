------------------------ MODULE MutRemoveWithoutFlush ------------------------
(* Mutant: the coordinator removes the suspected node without a flush: it  *)
(* decides at once, on no report, that no event of x is agreed, and nobody *)
(* froze.  n2 had delivered n1's event, n3 had not: both install, and they *)
(* disagree on n1's events.  Expected: RemovedAgreement.                   *)
EXTENDS MCCausalMembership

DecideWithoutFlush ==
    /\ flushing # "" /\ ~Decided
    /\ agreed' = [agreed EXCEPT ![flushing] = {}]
    /\ members' = Survivors
    /\ gone' = gone \cup {flushing}
    /\ lastAction' = [name |-> "DecideView", target |-> flushing, seqs |-> {}]
    /\ UNCHANGED <<pvars, view, flushing, reported, report>>

MutNext ==
    \/ PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ MGcNext
    \/ \E i, x \in Node : Suspect(i, x)
    \/ \E i \in Node : InstallView(i)
    \/ DecideWithoutFlush
    \/ \E i, j \in Node : FlushForward(j, i)

MutSpec == MInit /\ [][MutNext]_mvars
=============================================================================
