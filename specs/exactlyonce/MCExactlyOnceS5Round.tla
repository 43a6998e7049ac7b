----------------------- MODULE MCExactlyOnceS5Round -----------------------
(* Bounded models of Strategy 5 with asynchronous replication and the round; *)
(* the cfg files set the bounds (and Deliverable <- RoundDeliverable).       *)
EXTENDS ExactlyOnceS5Round

MCNoteIds == <<"n1", "n2", "n3">>

\* The ci narrowing (an ACTION_CONSTRAINT), as MCExactlyOnceS6Round's: the
\* one fault is the client's move (a disconnect), no crash, loss, failed
\* call or gather: the late replica needs nothing else.  The full bounds are
\* the deep model.
MoveOnly ==
    lastAction'.name \notin {"ServerCrash", "ClientCrash", "Lose", "ADeliverErr", "GatherFail"}

\* The mutants' narrowing besides MoveOnly (an ACTION_CONSTRAINT): the note
\* is created at A and the client's first connection is A's.  The servers
\* are alike here (no cut, no offset), so a behaviour with the names
\* swapped is the same run; the violation found narrowed is a behaviour of
\* the unnarrowed model.
AFirst ==
    /\ lastAction'.name = "CreateNote" => lastAction'.server = "A"
    /\ lastAction'.name = "Connect" /\ connId = 0 => lastAction'.server = "A"

\* The mutants' scenario needs one periodic sync, A's (an ACTION_CONSTRAINT
\* with AFirst): B's syncs and PeriodicSync before the clock reads 1 (the
\* end of the first connection is at 0, so a sync at 0 is never fresh at
\* B's session, at 1 or later) only add states.
OneLateSyncFromA ==
    lastAction'.name = "PeriodicSync" => lastAction'.server = "A" /\ now = 1

\* A trap (MCExactlyOnceS5RoundDelivers.cfg, expected to be violated): with
\* the round the mutants' scenario is still reachable: A delivers n1 (D[A]
\* holds it), the client moves to B after T_r, and B's session reaches its
\* delivery phase with n1's replica stored.  So the passing models'
\* NoDuplicateDelivery is not that of a model where nothing can be
\* delivered (a commit that never fires would make it one).
BNeverEndsGatherAfterADelivered ==
    ~("n1" \in D["A"] /\ conn = "B" /\ sess["B"].phase = "deliver" /\ "n1" \in K["B"])
=============================================================================
