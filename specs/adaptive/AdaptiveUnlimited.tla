---------------------------- MODULE AdaptiveUnlimited -----------------------
(***************************************************************************)
(* The unlimited horizon algorithm, Chaudhuri, Coan and Welch (1995),      *)
(* Fig. 2: the skeleton of Adaptive.tla (Fig. 1) plus the asterisked      *)
(* lines -- the auxiliary variables p, numacc, numrej, maxltime, ltimes   *)
(* and the computation of ltime-est at each garbage collection.           *)
(*                                                                         *)
(* Two things TLC checks here: that the algorithm is a standard-form one  *)
(* (every step is a step of Adaptive's Next, property StandardForm), so   *)
(* Theorem 2 applies; and the invariants the figure's state implies       *)
(* (powers of two, numacc >= 0).  The traces of this spec are replayed on *)
(* the Java UnlimitedHorizonEstimator, variable by variable.              *)
(***************************************************************************)
EXTENDS Adaptive

CONSTANT MaxExp   \* estimates are 2^0 .. 2^MaxExp (bounds the CHOOSE below)
\* Which reading of Fig. 2's second branch (the update when maxltime is
\* below the estimate):
\*   "decrease"  the proof of Theorem 6: an interval ends when the estimate
\*               decreases ("At this time, numrej and numacc are reset and p
\*               is incremented"), so the branch is taken only when the
\*               rounded maxltime is below ltime-est.  The default.
\*   "literal"   the figure as printed: the guard is ltime-est > maxltime > 0,
\*               so a collection whose maxltime rounds to the same estimate
\*               still subtracts p * numrej, resets numrej and increments p.
CONSTANT Reading

ASSUME InitEstIsOne == InitEst = 1     \* Fig. 2: "ltime-est: powers of 2, initially 1"
ASSUME MaxExpIsNat  == MaxExp \in Nat
ASSUME ReadingIsKnown == Reading \in {"decrease", "literal"}

VARIABLES
    p,         \* "p: integer, initially 1"
    numacc,    \* accepted messages (less p * numrej at each decrease)
    numrej,    \* summary-rejected messages since the last decrease
    maxltime,  \* the largest lifetime of the last period, as last computed
    ltimes     \* this period's lifetimes, in arrival order (the multiset)

auxVars == <<p, numacc, numrej, maxltime, ltimes>>
allVars == <<vars, auxVars>>

SeqMax0(s) == SetMax({0} \cup {s[i] : i \in DOMAIN s})   \* largest of (ltimes U {0})

\* "2^j, where j = min{k : 2^k >= maxltime}", for maxltime >= 1.
Pow2Ceil(x) == 2^(CHOOSE j \in 0..MaxExp : 2^j >= x /\ (j = 0 \/ 2^(j-1) < x))

UnlimitedInit ==
    /\ Init
    /\ p = 1 /\ numacc = 0 /\ numrej = 0 /\ maxltime = 0 /\ ltimes = <<>>

\* "ltimes := ltimes U {clock - stamp}"; numacc on acceptance, numrej on a
\* summary-rejection (CT[i] = nil and stamp <= upper), both read from the
\* skeleton's step record.
UnlimitedReceive(m) ==
    /\ Receive(m)
    /\ ltimes' = Append(ltimes, clock - m.ts)
    /\ numacc' = IF lastAction'.verdict = "accepted" THEN numacc + 1 ELSE numacc
    /\ numrej' = IF lastAction'.summaryRejected THEN numrej + 1 ELSE numrej
    /\ UNCHANGED <<p, maxltime>>

\* Garbage collection, Fig. 2: the asterisked update, then the skeleton's
\* loop with the new estimate.
UnlimitedCollect ==
    LET mx == SeqMax0(ltimes) IN
    /\ maxltime' = mx
    /\ ltimes' = <<>>
    /\ IF mx > ltimeEst
       THEN /\ CollectGarbage(Pow2Ceil(mx))
            /\ UNCHANGED <<p, numacc, numrej>>
       ELSE IF numacc > p * numrej /\ ltimeEst > mx /\ mx > 0
               /\ (Reading = "literal" \/ Pow2Ceil(mx) < ltimeEst)
       THEN /\ CollectGarbage(Pow2Ceil(mx))
            /\ numacc' = numacc - p * numrej
            /\ numrej' = 0
            /\ p' = p + 1
       ELSE /\ CollectGarbage(ltimeEst)
            /\ UNCHANGED <<p, numacc, numrej>>

UnlimitedNext ==
    \/ EnvNext /\ UNCHANGED auxVars
    \/ \E m \in net : UnlimitedReceive(m)
    \/ UnlimitedCollect

UnlimitedSpec == UnlimitedInit /\ [][UnlimitedNext]_allVars

-----------------------------------------------------------------------------
\* Section 3.1: the algorithm only adds to the skeleton, so each of its steps
\* is a step of Adaptive's Next (with the estimate it computed).
StandardForm == Spec

EstimateIsPowerOfTwo == \E j \in 0..MaxExp : ltimeEst = 2^j
NumaccNonNegative    == numacc >= 0 /\ numrej >= 0 /\ p >= 1

\* The proof of Theorem 6 counts intervals that end when the estimate
\* decreases: p grows only then.  Holds for Reading "decrease"; the literal
\* figure violates it (model adaptive-unlimited-literal-p-without-decrease).
PGrowsOnlyOnDecrease == [][p' # p => ltimeEst' < ltimeEst]_allVars
=============================================================================
