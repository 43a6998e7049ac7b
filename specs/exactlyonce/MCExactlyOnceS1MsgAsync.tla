---------------------- MODULE MCExactlyOnceS1MsgAsync ----------------------
(* Bounded models of ExactlyOnceS1MsgAsync (Strategy 1 with the cores'     *)
(* asynchronous replication); the cfg files set the bounds and the rules.  *)
EXTENDS ExactlyOnceS1MsgAsync
=============================================================================
