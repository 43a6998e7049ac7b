------------------------------- MODULE MCCausal -------------------------------
(* Bounded models of Causal.  The cfg files choose mode, recovery, loss and *)
(* the faulty nodes; this module builds what a cfg cannot write: the node   *)
(* sequence and the per-node event bounds, from a small menu.               *)
EXTENDS Causal

\* NodeCount nodes (2 or 3); the ring order n1, n2, n3.
CONSTANT NodeCount
MCNodes == IF NodeCount = 2 THEN <<"n1", "n2">> ELSE <<"n1", "n2", "n3">>

\* Events per node.  Bounds == "a2b1": n1 broadcasts two, n2 one, n3 none
\* (the smallest shape with a cross-origin dependency after a FIFO gap);
\* "a1b1": one each for n1 and n2; "a1": n1 only (crash and heartbeat
\* scenarios); "a2": n1 two (a FIFO gap); "a2b1c1": the deep shape.
CONSTANT Bounds
MCMaxSeq ==
    CASE Bounds = "a1"     -> [n \in Node |-> IF n = "n1" THEN 1 ELSE 0]
      [] Bounds = "a2"     -> [n \in Node |-> IF n = "n1" THEN 2 ELSE 0]
      [] Bounds = "a1b1"   -> [n \in Node |-> IF n = "n3" THEN 0 ELSE 1]
      [] Bounds = "a2b1"   -> [n \in Node |-> IF n = "n1" THEN 2 ELSE IF n = "n2" THEN 1 ELSE 0]
      [] Bounds = "a2b1c1" -> [n \in Node |-> IF n = "n1" THEN 2 ELSE 1]
=============================================================================
