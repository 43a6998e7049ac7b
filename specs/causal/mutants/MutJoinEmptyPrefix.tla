-------------------------- MODULE MutJoinEmptyPrefix --------------------------
(* Mutant: the joiner gets the donor's application state (its log) but      *)
(* starts from an empty delivered prefix: the copies of old events still in *)
(* the network look new to it, and it delivers again what its application  *)
(* already applied.  Expected: JoinerSkipsHanded.                          *)
EXTENDS MCCausalJoin

MutJoin(d, j) == j \in Joinable /\ Hand(d, j, NoVc, dlog[d], store[d])

MutNext == \/ JPlainNext
           \/ JGcNext /\ UNCHANGED <<donorOf, handed, goneAtJoin, joinStart>>
           \/ \E d, j \in Node : MutJoin(d, j)
           \/ \E i, j \in Node : InstallJoin(i, j)

MutSpec == JoinInit /\ [][MutNext]_jvars
=============================================================================
