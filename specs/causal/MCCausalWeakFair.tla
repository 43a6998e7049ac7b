--------------------------- MODULE MCCausalWeakFair ---------------------------
(***************************************************************************)
(* The passing liveness models of Causal under a weaker fairness than      *)
(* Causal's Fairness: a property that holds under a weaker fairness holds  *)
(* on more behaviours, so a pass here is a stronger result than a pass     *)
(* under FairSpec (every FairSpec behaviour is a WeakFairSpec behaviour).  *)
(* Init and Next are Causal's, untouched.  Two weakenings:                 *)
(*  - WF instead of SF everywhere (SF_v(A) implies WF_v(A)).  Fit only for *)
(*    models whose network loses nothing (Lossy = {}): there a receive or  *)
(*    serve step, once enabled, stays enabled until it is taken or its     *)
(*    sender crashes, so nothing needs the strong form; a lossy model      *)
(*    (causal-live) keeps SF where Lose can disable a step infinitely      *)
(*    often (ListenerFairSpec, at the end).                                *)
(*  - conditions only on the nodes in Correct: a node in Faulty gets no    *)
(*    fairness at all (it may also stay up and do nothing), so the         *)
(*    correct nodes must manage without it, as they must once it crashed.  *)
(* Why: each SF condition doubles the "possible error models" TLC searches *)
(* the behaviour graph for (SF is a disjunction, <>[]~ENABLED \/ []<>A),   *)
(* and every condition is evaluated on every edge of the graph:            *)
(* causal-live-crash took 40.0 s of TLC user CPU under FairSpec and 11.8 s *)
(* under WeakFairSpec (same 512 states, same verdict; -lncheck final, one  *)
(* run each at load 30).  The liveness mutants keep Causal's Fairness      *)
(* (their counterexamples must be fair under the real one).                *)
(***************************************************************************)
EXTENDS MCCausal

WeakFairness ==
    /\ \A i \in Correct :
         /\ WF_pvars(\E m \in buf[i] : Deliver(i, m))
         /\ WF_pvars(\E r \in missing[i] : ExpireWait(i, r))
         /\ WF_pvars(\E e \in net : e.to = i /\ Receive(i, e))
         /\ WF_pvars(SendHeartbeat(i))
         /\ WF_pvars(\E e \in net : ReceiveHeartbeat(i, e))
    /\ \A i \in Correct, d \in AllIds :
         /\ WF_pvars(RtoId(i, d))
         /\ \A j \in Correct \ {i} : WF_pvars(ServeId(j, i, d))

WeakFairSpec == Spec /\ WeakFairness

(* For a model whose network may lose (causal-live): Causal's Fairness,    *)
(* strong where Lose can disable a step, without the receive-side          *)
(* conditions of the nodes no other node broadcasts to (in causal-live,    *)
(* n1, the only origin).  Dropping conditions weakens the fairness, so a   *)
(* pass is again the stronger result.  causal-live took 4.7 s of TLC user  *)
(* CPU under FairSpec and 3.5 s under ListenerFairSpec (load 30).          *)
Listeners == {i \in Node : \E k \in Node \ {i} : MaxSeq[k] > 0}

ListenerFairness ==
    /\ \A i \in Node : WF_pvars(SendHeartbeat(i))
    /\ \A i \in Listeners :
         /\ WF_pvars(\E m \in buf[i] : Deliver(i, m))
         /\ WF_pvars(\E r \in missing[i] : ExpireWait(i, r))
         /\ SF_pvars(\E e \in net : e.to = i /\ Receive(i, e))
         /\ SF_pvars(\E e \in net : ReceiveHeartbeat(i, e))
    /\ \A i \in Listeners, d \in AllIds :
         /\ WF_pvars(RtoId(i, d))
         /\ \A j \in Node \ {i} : SF_pvars(ServeId(j, i, d))

ListenerFairSpec == Spec /\ ListenerFairness
=============================================================================
