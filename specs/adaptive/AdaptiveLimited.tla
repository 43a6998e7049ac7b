----------------------------- MODULE AdaptiveLimited ------------------------
(***************************************************************************)
(* The limited horizon algorithm, Chaudhuri, Coan and Welch (1995), Fig. 3: *)
(* the skeleton of Adaptive.tla (Fig. 1) plus the asterisked lines, with    *)
(* constants S, H and P (the figure's p, fixed: delta = 1/P).  Garbage      *)
(* collection happens exactly when ltimes holds S lifetimes, before the     *)
(* next message is taken (Section 3.3: "after every S-th message arrival"). *)
(* TLC checks that it is a standard-form algorithm (StandardForm) and its   *)
(* invariants; its traces are replayed on the Java LimitedHorizonEstimator. *)
(***************************************************************************)
EXTENDS Adaptive

CONSTANTS S, H, P, MaxExp

ASSUME InitEstIsOne   == InitEst = 1
\* Fig. 3 needs S > H >= 0 and p a positive integer "at most (S-H)/H"
\* (Assumption 3 with delta = 1/p; the extracted figure reads "(S H)/H").
ASSUME ParametersOK   == /\ S \in Nat /\ H \in Nat /\ P \in Nat /\ MaxExp \in Nat
                         /\ S > H /\ P >= 1 /\ P * H <= S - H

VARIABLES numacc, numrej, maxltime, ltimes

auxVars == <<numacc, numrej, maxltime, ltimes>>
allVars == <<vars, auxVars>>

Pow2Ceil(x) == 2^(CHOOSE j \in 0..MaxExp : 2^j >= x /\ (j = 0 \/ 2^(j-1) < x))

\* "the (H + 1)-st largest element in ltimes": at most H elements are above
\* it and at least H + 1 are at or above it.
Rank(s, h) ==
    CHOOSE v \in {s[i] : i \in DOMAIN s} :
        /\ Cardinality({i \in DOMAIN s : s[i] > v}) <= h
        /\ Cardinality({i \in DOMAIN s : s[i] >= v}) >= h + 1

LimitedInit ==
    /\ Init
    /\ numacc = 0 /\ numrej = 0 /\ maxltime = 0 /\ ltimes = <<>>

LimitedReceive(m) ==
    /\ Len(ltimes) < S
    /\ Receive(m)
    /\ ltimes' = Append(ltimes, clock - m.ts)
    /\ numacc' = IF lastAction'.verdict = "accepted" THEN numacc + 1 ELSE numacc
    /\ numrej' = IF lastAction'.summaryRejected THEN numrej + 1 ELSE numrej
    /\ UNCHANGED maxltime

LimitedCollect ==
    LET mx == Rank(ltimes, H) IN
    /\ Len(ltimes) = S
    /\ maxltime' = mx
    /\ ltimes' = <<>>
    /\ IF mx > ltimeEst
       THEN /\ CollectGarbage(Pow2Ceil(mx))
            /\ UNCHANGED <<numacc, numrej>>
       ELSE IF numacc > P * numrej /\ ltimeEst > mx /\ mx > 0
       THEN /\ CollectGarbage(Pow2Ceil(mx))
            /\ numacc' = numacc - P * numrej - 1
            /\ numrej' = 0
       ELSE /\ CollectGarbage(ltimeEst)
            /\ UNCHANGED <<numacc, numrej>>

LimitedNext ==
    \/ EnvNext /\ UNCHANGED auxVars
    \/ \E m \in net : LimitedReceive(m)
    \/ LimitedCollect

LimitedSpec == LimitedInit /\ [][LimitedNext]_allVars

-----------------------------------------------------------------------------
StandardForm == Spec

EstimateIsPowerOfTwo == \E j \in 0..MaxExp : ltimeEst = 2^j
\* The "- 1" keeps numacc >= 0: a decrease needs numacc > P * numrej.
NumaccNonNegative    == numacc >= 0 /\ numrej >= 0
PeriodBounded        == Len(ltimes) <= S
=============================================================================
