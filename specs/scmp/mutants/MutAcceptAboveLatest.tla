------------------------ MODULE MutAcceptAboveLatest ------------------------
(* Mutant: the resilient server skips rule 1 of Fig. 2-2 ("If m.ts >      *)
(* G.latest, refuse the message since it is too early") and accepts a     *)
(* timestamp above latest.  A crash then sets upper below it, and a copy  *)
(* is accepted again.                                                      *)
(* Expected: NoDuplicateAccepted (cfg MutAcceptAboveLatest.cfg) and, the  *)
(* paper's own bound, AcceptedBelowStable (MutAcceptAboveLatestBound.cfg). *)
EXTENDS MCScmp

ReceiveIgnoringLatest(m) ==
    ReceiveWith(m, IF recovering THEN "recovering" ELSE TableVerdict(m))

MutNext ==
    \/ EnvNext
    \/ \E m \in net : ReceiveIgnoringLatest(m)
    \/ GcNext
    \/ WriteLatest
    \/ Crash
    \/ Recover
    \/ FinishRecovery

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
