----------------------------- MODULE MutNoFreeze -----------------------------
(* Mutant: a survivor that reported keeps delivering the suspected node's  *)
(* events until it installs the view (it only refuses them once excluded). *)
(* n2 and n3 report none of n1's events, n2 then delivers n1's event, both *)
(* install.  Expected: RemovedAgreement.                                   *)
EXTENDS MCCausalMembership

MayDeliverUnfrozen(i, m) ==
    ExcludedAt(i, m.origin) => m.origin \notin members /\ m.seq \in agreed[m.origin]

MutNext ==
    \/ PlainNext \/ MReceiveNext \/ MHbNext \/ MGcNext \/ ViewNext
    \/ \E i \in Node : \E m \in buf[i] :
         MayDeliverUnfrozen(i, m) /\ Deliver(i, m) /\ UNCHANGED memVars

MutSpec == MInit /\ [][MutNext]_mvars
=============================================================================
