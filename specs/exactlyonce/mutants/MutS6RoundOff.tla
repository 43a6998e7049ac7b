---------------------------- MODULE MutS6RoundOff ----------------------------
(* Mutant of the acknowledged replication round (ExactlyOnceS6Round with    *)
(* Round = FALSE, MutS6RoundOff.cfg): the cores before the round, which     *)
(* deliver a note wherever it is in K.  Must violate NoDuplicateDelivery:   *)
(* the late-replica duplicate GatherLateReplicaTest shows on the cores.    *)
EXTENDS MCExactlyOnceS6Round
=============================================================================
