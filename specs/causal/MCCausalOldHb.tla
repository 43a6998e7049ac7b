----------------------------- MODULE MCCausalOldHb -----------------------------
(* MCCausal with KeepOldHeartbeats overridden to TRUE (Causal.tla): a      *)
(* heartbeat stays in the network after its sender sent a newer one, as on *)
(* a real network; trace validation found a run that needs it.             *)
EXTENDS MCCausal

MCKeepOldHeartbeats == TRUE
=============================================================================
