------------------------------ MODULE MCCausalJoin ------------------------------
(* Bounded models of CausalJoin: n1, n2 members, n3 a spare id; n2 may be  *)
(* suspected (falsely: nobody crashes) and comes back as n3.  n1 and n2    *)
(* broadcast one event each: n2's is the one a false removal may leave     *)
(* undelivered (the old id's event the members must refuse), n1's may come *)
(* before or after the join (the joiner gets it handed, or delivers it).   *)
(* Two members and a spare, not three and a spare: with four ids the first *)
(* safety model ran past ten minutes on 2 loaded cores (stopped), far over *)
(* the ci budget; the removal needs only a coordinator and the suspect.    *)
EXTENDS CausalJoin

JNodes  == <<"n1", "n2", "n3">>
\* JBounds "a1b1": n1 and n2 one event each (14,150 states: the deep
\* shape); "b1": n2 only, the old id's event (the ci safety shape); "a1":
\* n1 only (the control and the collection models: an event of a member
\* the joiner gets handed or delivers); "a1c1": n1 and the joiner n3 one
\* event each (the install window: n2 refuses n3's event until it installs).
CONSTANT JBounds
JMaxSeq == [n \in Node |-> IF (n = "n1" /\ JBounds \in {"a1", "a1b1", "a1c1"})
                               \/ (n = "n2" /\ JBounds \in {"b1", "a1b1"})
                               \/ (n = "n3" /\ JBounds = "a1c1") THEN 1 ELSE 0]
JSuspectable == {"n2"}
JSpare == {"n3"}
=============================================================================
