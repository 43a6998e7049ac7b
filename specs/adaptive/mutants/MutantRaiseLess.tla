-------------------------- MODULE MutantRaiseLess ---------------------------
(* Mutant: garbage collection raises upper, but only to one below the      *)
(* cleared timestamp (an off-by-one in "upper := max(upper, CT[i])").       *)
(* lim_i falls by one when the entry goes, so the copy whose timestamp is   *)
(* exactly the cleared entry passes "stamp > upper".  TLC must report       *)
(* NoDuplicateAccepted.                                                     *)
EXTENDS MCAdaptive

RaisedLess(e) == SetMax({upper} \cup {ct[c] - 1 : c \in Old(e)})

MutantNext == EnvNext \/ ReceiveNext \/ \E e \in Estimates : CollectWith(e, RaisedLess(e))
MutantSpec == Init /\ [][MutantNext]_vars
=============================================================================
