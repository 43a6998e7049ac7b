----------------------- MODULE MCExactlyOnceS6Round -----------------------
(* Bounded models of Strategy 6 with asynchronous replication and the round; *)
(* the cfg files set the bounds (and Deliverable <- RoundDeliverable).       *)
EXTENDS ExactlyOnceS6Round

MCNoteIds == <<"n1", "n2", "n3">>

\* The ci pair's narrowing (an ACTION_CONSTRAINT): the one fault is the
\* client's move (a disconnect), no crash, loss, lost history or failed call:
\* the late replica needs nothing else.  The full bounds are the deep pair.
MoveOnly ==
    lastAction'.name \notin {"ServerCrash", "ClientCrash", "ClientLoseH", "Lose", "ADeliverErr", "GatherFail"}
\* A trap (MCExactlyOnceS6RoundDelivers.cfg), expected to be violated: the
\* round commits a note and the client processes it.  Until it was added, the
\* round's Commit left lastAction UNCHANGED while setting it (vars holds it),
\* so it never fired, nothing was ever deliverable, and the two passing
\* models passed vacuously (41,665 states with no commit).
NothingDelivered == delivered = <<>>
=============================================================================
