--------------------- MODULE MCExactlyOnceS5PurgeTrace ---------------------
(* A targeted trace of Strategy 5's PurgeSync (L213) for replay on the Java *)
(* cores.  Until the atomic spec gained ClientCrashAway, the seeded         *)
(* simulations exactlyonce-s5-sim happened to take it; their new draws do  *)
(* not, and ExactlyOnceTraceCoverageTest wants every action of the spec in *)
(* a stored trace, so the purge gets a trace of its own.  A module of its  *)
(* own so that MCExactlyOnceS5Trace's traces keep their inputs.            *)
EXTENDS MCExactlyOnceS5

\* A purge sync drops a note both servers have in D.
Purged == lastAction.name = "PurgeSync" /\ lastAction.purged # {}
NotPurged == ~Purged
=============================================================================
