-------------------------- MODULE MutJoinEmptyPrefix --------------------------
(* Mutant: the joiner gets the donor's application state (its log) but      *)
(* starts from an empty delivered prefix: the copies of old events still in *)
(* the network look new to it, and it delivers again what its application  *)
(* already applied.  Expected: JoinerSkipsHanded.                          *)
EXTENDS MCCausalJoin

MutJoin(d, j) == j \in Joinable /\ InstallJoin(d, j, NoVc, dlog[d], store[d])

MutNext == \/ (PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ ViewNext \/ JGcNext)
              /\ UNCHANGED <<donorOf, handed, goneAtJoin>>
           \/ \E d, j \in Node : MutJoin(d, j)

MutSpec == JoinInit /\ [][MutNext]_jvars
=============================================================================
