------------------------ MODULE MCExactlyOnceS4Msg ------------------------
(* Bounded models of Strategy 4 with purge syncs as messages; the cfg files *)
(* set the bounds.  A cfg cannot write a sequence, so the note ids are      *)
(* here.  SyncBound (a CONSTRAINT) stops a behaviour once MaxSyncMsgs purge *)
(* syncs are on the way at once, as in MCExactlyOnceS3Msg.                 *)
EXTENDS ExactlyOnceS4Msg

CONSTANT MaxSyncMsgs

MCNoteIds == <<"n1", "n2", "n3">>

SyncBound == Cardinality(pnet) <= MaxSyncMsgs

\* The refinement mapping to the atomic spec: every variable of
\* ExactlyOnceS4 is the same variable here; the purge-sync network, the
\* numbering and the reports (pnet, seen, entered, known, knownK,
\* knownSeen) are hidden.
Atomic == INSTANCE ExactlyOnceS4 WITH
    net <- net, conn <- conn, created <- created, delivered <- delivered, faults <- faults,
    lastAction <- lastAction, K <- K, D <- D, sess <- sess, snet <- snet, connId <- connId

\* Atomic!Spec in two parts, so that TLC names the one that fails.
AtomicInit == Atomic!Init
RefinesAtomicS4 == [][Atomic!Next]_(Atomic!vars)
=============================================================================
