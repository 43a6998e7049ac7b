---------------------------- MODULE MutGcNoRaise ----------------------------
(* Mutant: garbage collection removes an entry without raising upper      *)
(* (drops "Then G.upper is set to the maximum of its former value and the *)
(* timestamps of the removed entries", Fig. 2-1).  A copy of a message    *)
(* whose entry was collected is then accepted again.                       *)
(* Expected: NoDuplicateAccepted is violated.                              *)
EXTENDS MCScmp

CollectGarbageNoRaise(c) ==
    /\ CanCollect(c)
    /\ RemoveEntry(c, upper[ClassOf[c]])

MutNext ==
    \/ EnvNext
    \/ ReceiveNext
    \/ \E c \in DOMAIN ct : CollectGarbageNoRaise(c)
    \/ WriteLatest
    \/ Crash
    \/ Recover
    \/ FinishRecovery

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
