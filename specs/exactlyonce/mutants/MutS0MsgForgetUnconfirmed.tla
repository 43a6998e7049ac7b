----------------------- MODULE MutS0MsgForgetUnconfirmed -----------------------
(* Mutant of ExactlyOnceS0Msg's compaction rule: a server forgets a removed *)
(* id once no replica is left (T_e passed) but before the other servers   *)
(* confirmed it (Confirmed dropped).  The server that never heard of the    *)
(* delivery keeps the note in K and, since nobody remembers it any more,   *)
(* never learns: the compacted level purges less than the unbounded one,  *)
(* and the mapped step is not one of its steps.  Safety of S0 itself       *)
(* (at-least-once) does not see it: the price is one more redelivery.      *)
(* Expected: RefinesUnboundedNext.                                         *)
EXTENDS MCExactlyOnceS0Msg

MutNext ==
    \/ Next
    \/ \E s \in Servers : \E i \in removed[s] : ForgetWith(s, i, NoReplicaLeft(i))

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
