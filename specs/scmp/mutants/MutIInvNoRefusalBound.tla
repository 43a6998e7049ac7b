----------------------- MODULE MutIInvNoRefusalBound ------------------------
(* Mutant of the inductive check, not of the protocol: IInv without its  *)
(* part IInvRefusal (while a monotonic server refuses after a restart,    *)
(* everything accepted is <= refuseUntil).  That weaker invariant holds   *)
(* in every reachable state but is not inductive: from a state where an   *)
(* acceptance lies above refuseUntil, FinishRecovery sets upper to the    *)
(* clock and the acceptance is no longer covered.  Shows that             *)
(* MCScmpInductive really checks IInv /\ Next => IInv'.                   *)
(* Expected: IInvNoRefusalBound is violated.                              *)
EXTENDS MCScmpInductive

IInvNoRefusalBound ==
    /\ IInvHistory
    /\ IInvSameEpoch
    /\ IInvEarlierEpochs
    /\ IInvShape
    /\ IInvResilient
    /\ IInvMonotonic

MutSpec == IndInitFor(IInvNoRefusalBound) /\ [][IndNext]_<<vars, stepped>>
=============================================================================
