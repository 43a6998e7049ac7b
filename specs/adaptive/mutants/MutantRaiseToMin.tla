-------------------------- MODULE MutantRaiseToMin --------------------------
(* Mutant: when one garbage collection removes several entries, upper is    *)
(* raised to the smallest removed timestamp instead of the largest (the     *)
(* loop's max folded the wrong way).  Needs two entries removed in one pass *)
(* with different timestamps; the larger one's copy is then accepted again. *)
(* TLC must report NoDuplicateAccepted.                                     *)
EXTENDS MCAdaptive

SetMin(S) == CHOOSE x \in S : \A y \in S : x <= y

RaisedToMin(e) == IF Old(e) = {} THEN upper
                  ELSE Max(upper, SetMin({ct[c] : c \in Old(e)}))

MutantNext == EnvNext \/ ReceiveNext \/ \E e \in Estimates : CollectWith(e, RaisedToMin(e))
MutantSpec == Init /\ [][MutantNext]_vars
=============================================================================
