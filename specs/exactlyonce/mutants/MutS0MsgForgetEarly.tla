-------------------------- MODULE MutS0MsgForgetEarly --------------------------
(* Mutant of ExactlyOnceS0Msg's compaction rule, forgetting too early: a    *)
(* server forgets a removed id once the others confirmed it, without        *)
(* waiting T_e for the replicas still in rnet (NoReplicaLeft dropped).     *)
(* A replica of the note, still on its way, arrives after the forgetting  *)
(* and enters K again, so the note is offered to the client once more     *)
(* after every server knew it delivered.  Expected: NoResurrection.       *)
EXTENDS MCExactlyOnceS0Msg

MutNext ==
    \/ Next
    \/ \E s \in Servers : \E i \in removed[s] : ForgetWith(s, i, Confirmed(s, i))

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
