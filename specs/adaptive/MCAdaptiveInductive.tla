------------------------- MODULE MCAdaptiveInductive ------------------------
(* IInv is inductive (the proof of Theorem 2, step by step): every state   *)
(* of a bounded domain that satisfies IInv -- reachable or not -- has only *)
(* successors that satisfy IInv again.  IndInit enumerates that domain;   *)
(* IndNext takes exactly one step from it (the flag stepped), and TLC      *)
(* checks IInv on every successor.  Together with Init => IInv (checked by *)
(* other models) this is the induction of Lemma 1 / Theorem 2 on a bounded *)
(* domain, for every estimate in Estimates.                                *)
EXTENDS MCAdaptive

CONSTANTS TsDomain, ClockDomain, MaxAccepted

VARIABLE stepped   \* FALSE in the domain's states, TRUE after the one step

MsgDomain == [conn : Conns, ts : TsDomain]

\* Sequences of at most MaxAccepted acceptances over the domain.
AcceptedDomain == UNION {[1..n -> [conn : Conns, ts : TsDomain]] : n \in 0..MaxAccepted}

\* Partial tables conn -> ts.
TableDomain == UNION {[D -> TsDomain] : D \in SUBSET Conns}

IndInit ==
    /\ now \in ClockDomain
    /\ clock = now
    /\ skew = [c \in Conns |-> 0]
    \* lastSent only feeds Send; any value at or above the domain will do.
    /\ lastSent = [c \in Conns |-> SetMax(TsDomain)]
    /\ net \in SUBSET MsgDomain
    /\ ct \in TableDomain
    /\ upper \in TsDomain \cup {-1}
    /\ ltimeEst \in Estimates
    /\ accepted \in AcceptedDomain
    /\ sent = 0
    /\ jumps = 0
    /\ lastAction = [name |-> "Init"]
    /\ stepped = FALSE
    /\ IInv

IndNext == ~stepped /\ Next /\ stepped' = TRUE

IndSpec == IndInit /\ [][IndNext]_<<vars, stepped>>
=============================================================================
