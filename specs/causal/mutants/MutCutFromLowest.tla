-------------------------- MODULE MutCutFromLowest --------------------------
(* Mutant: the flush agrees on what every survivor reported (the           *)
(* intersection of the reports) instead of what any survivor reported (the *)
(* union): an event one survivor delivered before the suspicion is dropped *)
(* by the others.  Expected: RemovedAgreement.                             *)
EXTENDS MCCausalMembership

Lowest == {s \in UNION {report[i] : i \in Survivors} : \A i \in Survivors : s \in report[i]}

DecideLowest ==
    /\ flushing # "" /\ ~Decided
    /\ reported = Survivors
    /\ agreed' = [agreed EXCEPT ![flushing] = Lowest]
    /\ members' = Survivors
    /\ gone' = gone \cup {flushing}
    /\ lastAction' = [name |-> "DecideView", target |-> flushing, seqs |-> Lowest]
    /\ UNCHANGED <<pvars, view, flushing, reported, report>>

MutNext ==
    \/ PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ MGcNext
    \/ \E i, x \in Node : Suspect(i, x)
    \/ \E i \in Node : FlushReport(i) \/ InstallView(i)
    \/ DecideLowest
    \/ \E i, j \in Node : FlushForward(j, i)

MutSpec == MInit /\ [][MutNext]_mvars
=============================================================================
