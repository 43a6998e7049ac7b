---------------------------- MODULE MutS5RoundOff ----------------------------
(* Mutant of the acknowledged replication round for Strategy 5               *)
(* (ExactlyOnceS5Round with Round = FALSE, MutS5RoundOff.cfg): the cores     *)
(* before the round, which deliver a note wherever it is in K.  Must violate *)
(* NoDuplicateDelivery: the late-replica duplicate, with A's periodic sync   *)
(* fresh enough that B does not pull.                                        *)
EXTENDS MCExactlyOnceS5Round
=============================================================================
