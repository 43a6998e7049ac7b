------------------------ MODULE MCExactlyOnceS3Msg ------------------------
(* Bounded models of Strategy 3 with syncs as messages; the cfg files set   *)
(* the bounds.  A cfg cannot write a sequence, so the note ids are here.    *)
(* Each sync snapshot is a message of its own, so a network that keeps     *)
(* every stale one (duplication) grows past what TLC can walk; SyncBound   *)
(* (a CONSTRAINT) stops a behaviour once MaxSyncMsgs sync messages are on  *)
(* the way at once.  One late request is all the stale-sync scenarios need.*)
EXTENDS ExactlyOnceS3Msg

CONSTANT MaxSyncMsgs

MCNoteIds == <<"n1", "n2", "n3">>

SyncBound == Cardinality(snet) <= MaxSyncMsgs

\* The refinement mapping to the atomic spec: every variable of
\* ExactlyOnceS3 is the same variable here; the network of syncs and the
\* numbering (snet, seen, entered) are hidden.
Atomic == INSTANCE ExactlyOnceS3 WITH
    net <- net, conn <- conn, created <- created, delivered <- delivered, faults <- faults,
    lastAction <- lastAction, K <- K, D <- D, known <- known, sess <- sess, R <- R

\* Atomic!Spec (Init /\ [][Next]_vars) in two parts, so that TLC names the
\* one that fails: the initial states, and every step an atomic step or a
\* stutter of ExactlyOnceS3's variables.
AtomicInit == Atomic!Init
RefinesAtomicS3 == [][Atomic!Next]_(Atomic!vars)
=============================================================================
