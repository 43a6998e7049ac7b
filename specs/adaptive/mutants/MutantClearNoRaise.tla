------------------------- MODULE MutantClearNoRaise -------------------------
(* Mutant: garbage collection clears the old entries but leaves upper as    *)
(* it was (Fig. 1 without "upper := max(upper, CT[i])").  Case 3 of Lemma 1 *)
(* breaks: lim_i falls from CT[i] to upper, so a late copy of an accepted   *)
(* message is accepted again.  TLC must report NoDuplicateAccepted (and,    *)
(* with the Lemma 1 cfg, Lemma1).                                           *)
EXTENDS MCAdaptive

CollectNoRaise(e) == CollectWith(e, upper)

MutantNext == EnvNext \/ ReceiveNext \/ \E e \in Estimates : CollectNoRaise(e)
MutantSpec == Init /\ [][MutantNext]_vars
=============================================================================
