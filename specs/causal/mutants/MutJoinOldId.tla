----------------------------- MODULE MutJoinOldId -----------------------------
(* Mutant: a node removed by mistake joins again under its old id (with     *)
(* state transfer, as a spare would): the members count it again and       *)
(* deliver an event of it the flush did not agree on.                       *)
(* Expected: ExcludedNotDelivered.                                          *)
EXTENDS MCCausalJoin

MutJoinable == {j \in Spare \cup gone : j \notin members}

MutJoin(d, j) == j \in MutJoinable /\ Hand(d, j, vc[d], dlog[d], store[d])

MutNext == \/ JPlainNext
           \/ JGcNext /\ UNCHANGED <<donorOf, handed, goneAtJoin, joinStart>>
           \/ \E d, j \in Node : MutJoin(d, j)
           \/ \E i, j \in Node : InstallJoin(i, j)

MutSpec == JoinInit /\ [][MutNext]_jvars
=============================================================================
