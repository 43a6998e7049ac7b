----------------------------- MODULE MutJoinOldId -----------------------------
(* Mutant: a node removed by mistake joins again under its old id (with     *)
(* state transfer, as a spare would): the members count it again and       *)
(* deliver an event of it the flush did not agree on.                       *)
(* Expected: ExcludedNotDelivered.                                          *)
EXTENDS MCCausalJoin

MutJoinable == {j \in Spare \cup gone : j \notin members}

MutJoin(d, j) == j \in MutJoinable /\ InstallJoin(d, j, vc[d], dlog[d], store[d])

MutNext == \/ (PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ ViewNext \/ JGcNext)
              /\ UNCHANGED <<donorOf, handed, goneAtJoin>>
           \/ \E d, j \in Node : MutJoin(d, j)

MutSpec == JoinInit /\ [][MutNext]_jvars
=============================================================================
