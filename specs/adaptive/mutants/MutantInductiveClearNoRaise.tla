--------------------- MODULE MutantInductiveClearNoRaise --------------------
(* Mutant of the inductive check (MCAdaptiveInductive): one step from every *)
(* IInv state of the domain, but with the collection of MutantClearNoRaise  *)
(* (entries cleared, upper not raised).  IInv must then fail to be          *)
(* inductive: a cleared entry's accepted timestamp is left above lim_i.     *)
(* TLC must report IInv.                                                    *)
EXTENDS MCAdaptiveInductive

MutantNext == EnvNext \/ ReceiveNext \/ \E e \in Estimates : CollectWith(e, upper)

MutantIndNext == ~stepped /\ MutantNext /\ stepped' = TRUE
MutantIndSpec == IndInit /\ [][MutantIndNext]_<<vars, stepped>>
=============================================================================
