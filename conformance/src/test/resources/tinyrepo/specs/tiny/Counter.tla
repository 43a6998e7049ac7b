---------------------------- MODULE Counter ----------------------------
(* A tiny spec for the conformance toolchain's own tests: a counter that   *)
(* grows by 1 or 2 up to Max and resets, recording each step in lastAction *)
(* as specs/CONVENTIONS.md asks. hist bounds the state space.              *)
EXTENDS Naturals, Sequences
CONSTANT Max
VARIABLES x, hist, flags, lastAction
vars == <<x, hist, flags, lastAction>>

Init == /\ x = 0
        /\ hist = <<>>
        /\ flags = [k \in {"a", "b"} |-> FALSE]
        /\ lastAction = [name |-> "Init"]

Inc(n) == /\ x + n <= Max
          /\ Len(hist) < 3
          /\ x' = x + n
          /\ hist' = Append(hist, n)
          /\ flags' = [flags EXCEPT !["a"] = TRUE]
          /\ lastAction' = [name |-> "Inc", n |-> n]

Reset == /\ x > 0
         /\ x' = 0
         /\ UNCHANGED <<hist, flags>>
         /\ lastAction' = [name |-> "Reset"]

\* Never enabled: lets the coverage report show an action no trace takes.
Never == /\ x > Max
         /\ UNCHANGED <<x, hist, flags>>
         /\ lastAction' = [name |-> "Never"]

Next == (\E n \in 1..2 : Inc(n)) \/ Reset \/ Never
Spec == Init /\ [][Next]_vars

Small == x < 3
Grow == [][x' >= x]_vars
ReachedTwo == x = 2
NotReachedTwo == ~ReachedTwo
=============================================================================
