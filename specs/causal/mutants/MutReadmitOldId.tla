--------------------------- MODULE MutReadmitOldId ---------------------------
(* Mutant: a node removed by mistake (it never crashed) is admitted again  *)
(* under its old id once the view change ended, and the members accept its *)
(* events again: one the flush did not agree on is then delivered.         *)
(* Expected: ExcludedNotDelivered.                                          *)
EXTENDS MCCausalMembership

Readmit(x) ==
    /\ flushing = ""
    /\ x \in gone \ members
    /\ up[x]
    /\ members' = members \cup {x}
    /\ view' = [i \in Node |-> view[i] \cup {x}]
    /\ lastAction' = [name |-> "Readmit", target |-> x]
    /\ UNCHANGED <<pvars, flushing, reported, report, agreed, gone>>

MutNext == MNext \/ \E x \in Node : Readmit(x)

MutSpec == MInit /\ [][MutNext]_mvars
=============================================================================
