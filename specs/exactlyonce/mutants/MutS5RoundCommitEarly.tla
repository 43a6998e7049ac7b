------------------------ MODULE MutS5RoundCommitEarly ------------------------
(* Mutant of the acknowledged replication round for Strategy 5: the origin   *)
(* commits a note without waiting for every server's ack (CommitMayGo        *)
(* dropped: stored at the origin is enough), so the note is deliverable at   *)
(* the origin while its replica is still on its way.  Must violate           *)
(* NoDuplicateDelivery, the late-replica duplicate of MutS5RoundOff, with    *)
(* the ready guard in place.                                                 *)
EXTENDS MCExactlyOnceS5Round

CommitEarly(s, i) == CommitWith(s, i, stored[i] # {})

MutSpec == RoundInit /\ [][RoundNextWith(CommitEarly)]_allVars
=============================================================================
