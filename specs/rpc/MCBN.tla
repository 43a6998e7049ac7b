--------------------------------- MODULE MCBN ---------------------------------
(* Bounded models of BN.tla.  The cfg files set the bounds; this module adds *)
(* the reachability fact of 3.2 about crashes, as a trap (NotX == ~X; TLC   *)
(* must report it violated, and its counterexample is the scenario).        *)
EXTENDS BN

\* 3.2: "Birrell and Nelson will reject recent messages too": a call sent after
\* or after the latest crash, by a client still bound to the old
\* incarnation, is rejected by rule 1; the client binds again and its next
\* call is executed.
RecentCallRejectedUntilRebind ==
    /\ Len(crashTimes) > 0
    /\ lastAction.name = "ReceiveCall" /\ lastAction.outcome = "execute"
    /\ \E r \in staleRejects : r.conn = lastAction.conn /\ r.at > crashTimes[Len(crashTimes)]
NotRecentCallRejectedUntilRebind == ~RecentCallRejectedUntilRebind
=============================================================================
