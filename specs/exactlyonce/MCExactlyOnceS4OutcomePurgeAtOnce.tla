------------------- MODULE MCExactlyOnceS4OutcomePurgeAtOnce -------------------
(* Control for DeferPurgeSync (issue 20 item 2): MCExactlyOnceS4Outcome     *)
(* with the cfg's PurgeMayGo <- AtOnce, a PurgeSync that goes while an      *)
(* outcome at either side is unknown.  MCExactlyOnceS4OutcomePurgeAtOnce.cfg *)
(* checks the safety properties (they hold); ...PurgeAtOnceReached.cfg      *)
(* shows, with the trap below, that such a PurgeSync is reached at all.     *)
EXTENDS MCExactlyOnceS4Outcome

PurgeWhileUnknown ==
    /\ lastAction.name = "PurgeSync"
    /\ Unknown(lastAction.server) \/ Unknown(lastAction.peer)
NotPurgeWhileUnknown == ~PurgeWhileUnknown
=============================================================================
