------------------------- MODULE MCExactlyOnceS2Msg -------------------------
(* Bounded models of ExactlyOnceS2Msg (Strategy 2's sync as messages); the  *)
(* cfg files set the bounds.  Also its relation to the atomic ExactlyOnceS2, *)
(* checked by TLC as properties.                                            *)
EXTENDS ExactlyOnceS2Msg

\* ExactlyOnceS2 with every one of its variables mapped to itself (ctr, K,
\* conf, sess, R and the base); the message state (removed, round, issued,
\* seen, entered, snet) is hidden.
Atomic == INSTANCE ExactlyOnceS2

\* Not a refinement, for the reason MCExactlyOnceS1Msg gives for Strategy 1:
\* the atomic Sync(s, t) leaves both servers with K[s] \cap K[t] and both
\* confirmations in one step, while here a message is merged by its receiver
\* alone, with the knowledge its sender had when it built it (the sender may
\* have delivered more since), and the confirmations arrive with the reply
\* only.  TLC refutes SyncIsAtomicSync (MCExactlyOnceS2MsgAtomic.cfg).  What
\* holds instead:
\* - every step other than a sync step is a step of ExactlyOnceS2, with the
\*   same lastAction (StepsRefineAtomic), so Condition 1 and CreateNote are
\*   ExactlyOnceS2's exactly;
\* - a sync step changes nothing of ExactlyOnceS2 but K and conf; K only
\*   shrinks and loses processed notes only, conf only grows (SyncOnlyPurges);
\* - every confirmation is true: the confirming server holds no note of that
\*   number (ConfTruthful, an invariant), which is what the atomic Sync's
\*   Gone gives Condition 1.
\* Together: every behaviour here is an ExactlyOnceS2 behaviour whose Sync
\* is weakened to "drop some processed notes from one K and add true
\* confirmations to one conf".
SyncStep == lastAction'.name \in {"StartSync", "HandleSync", "ReceiveSyncReply", "LoseSync"}
StepsRefineAtomic == [][~SyncStep => Atomic!Next]_vars
SyncOnlyPurges ==
    [][SyncStep =>
         /\ UNCHANGED <<net, conn, created, delivered, ctr, sess, R>>
         /\ \A s \in Servers : K'[s] \subseteq K[s] /\ \A i \in K[s] \ K'[s] : Processed(i)
         /\ \A x, y \in Servers : conf[x][y] \subseteq conf'[x][y]]_vars
SyncIsAtomicSync == [][SyncStep => (UNCHANGED <<K, conf>> \/ \E s, t \in Servers : Atomic!Sync(s, t))]_vars
=============================================================================
