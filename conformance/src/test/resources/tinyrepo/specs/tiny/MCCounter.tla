---- MODULE MCCounter ----
(* The tiny family's model module: the trace generator follows EXTENDS from *)
(* here to Counter, which is the spec name in trace headers.               *)
EXTENDS Counter
====
