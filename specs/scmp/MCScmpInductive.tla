--------------------------- MODULE MCScmpInductive --------------------------
(* Checks that IInv (SCMP.tla, mirroring 2.3) is inductive on a bounded    *)
(* domain: every state of the domain that satisfies IInv is an initial     *)
(* state, TLC takes exactly one step from each, and IInv must hold after   *)
(* it.  So IInv /\ Next => IInv' is checked for every state of the domain, *)
(* not only the reachable ones; and IInv implies NoDuplicateAccepted and   *)
(* NoOutOfOrderAccept by its first conjuncts.                              *)
(*                                                                         *)
(* The domain is TypeOK with every set made small:                        *)
(*   timestamps in TsVals; clock, upper, latest, stableLatest and          *)
(*   refuseUntil in BoundVals; up to MaxAccepted acceptances in up to      *)
(*   MaxCrashes - 1 crashes (so one more crash is possible);              *)
(*   the network holds every message over TsVals, so every Receive is     *)
(*   tried; variables the protocol never reads (now, skew, lastSent,      *)
(*   sends, jumps, recoveredUpper, lastAction) are fixed, which only      *)
(*   leaves out states that behave the same for IInv.                     *)
EXTENDS MCScmp

CONSTANTS TsVals, BoundVals, MaxAccepted

VARIABLE stepped   \* FALSE in the initial states, TRUE after the one step

BSeq(S, n) == UNION {[1..i -> S] : i \in 0..n}
Tables     == UNION {[D -> TsVals] : D \in SUBSET Conns}

\* Every state of the domain that satisfies Inv (IInv, or a mutant's weaker one).
IndInitFor(Inv) ==
    /\ stepped = FALSE
    /\ now = 0
    /\ skew = [c \in Conns |-> 0]
    /\ lastSent = [c \in Conns |-> 0]
    /\ net = [conn : Conns, ts : TsVals]
    /\ sends = <<>>
    /\ jumps = 0
    /\ recoveredUpper = 0
    /\ lastAction = [name |-> "Init"]
    \* conjuncts of IInv are repeated early so TLC prunes while enumerating
    \* (a weaker Inv passed in must still imply them)
    /\ crashClocks \in {[i \in 1..e |-> 0] : e \in 0..Max(MaxCrashes - 1, 0)}
    /\ accepted \in BSeq([conn : Conns, ts : TsVals, epoch : 0..Epoch], MaxAccepted)
    /\ NoDuplicateAccepted
    /\ NoOutOfOrderAccept
    /\ IF Mode = "resilient"
       THEN /\ stableLatest \in BoundVals
            /\ AcceptedBelowStable
            /\ latest \in BoundVals
            /\ LatestBelowStable
       ELSE latest = 0 /\ stableLatest = 0
    /\ up \in IF Mode = "nonresilient" THEN {TRUE} ELSE BOOLEAN
    /\ IF Mode = "monotonic"
       THEN /\ recovering \in IF up THEN BOOLEAN ELSE {FALSE}
            /\ refuseUntil \in IF recovering THEN BoundVals ELSE {0}
       ELSE recovering = FALSE /\ refuseUntil = 0
    /\ ct \in IF up /\ ~recovering THEN Tables ELSE {NoEntries}
    /\ upper \in [Classes -> BoundVals]
    /\ clock \in BoundVals
    /\ Inv

IndInit == IndInitFor(IInv)

IndNext == ~stepped /\ Next /\ stepped' = TRUE

IndSpec == IndInit /\ [][IndNext]_<<vars, stepped>>
=============================================================================
