---- MODULE Unbounded ----
\* A state space without end, for the runner's timeout test.
EXTENDS Naturals
VARIABLE x
Init == x = 0
Next == x' = x + 1
====
