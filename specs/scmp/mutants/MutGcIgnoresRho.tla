-------------------------- MODULE MutGcIgnoresRho ---------------------------
(* Mutant: garbage collection removes entries younger than rho (drops     *)
(* "Only entries with timestamps <= G.time - rho are removed", Fig. 2-1). *)
(* At-most-once survives (correctness does not depend on rho, 2.3), but   *)
(* upper overtakes fresh in-time messages, which are then flagged as      *)
(* duplicates: the promise of 2.2/2.4 fails.                               *)
(* Expected: PromiseNoCrash is violated (MutGcIgnoresRho.cfg), and      *)
(* UpperBelowHorizon (MutGcIgnoresRhoHorizon.cfg).                        *)
EXTENDS MCScmp

CollectGarbageEarly(c) ==
    /\ up
    /\ c \in DOMAIN ct
    /\ RemoveEntry(c, Max(upper[ClassOf[c]], ct[c]))

MutNext ==
    \/ EnvNext
    \/ ReceiveNext
    \/ \E c \in DOMAIN ct : CollectGarbageEarly(c)
    \/ WriteLatest
    \/ Crash
    \/ Recover
    \/ FinishRecovery

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
