---- MODULE Slow ----
\* A state space of (N+1)^2 states that a single worker needs several seconds for: the model of
\* the runner's budget and checkpoint tests, which stop it after a second and let it go on later.
\* Never is never enabled, so a coverage report names it as an action never taken.
EXTENDS Naturals
CONSTANT N
VARIABLES x, y
Init == x = 0 /\ y = 0
IncX == x < N /\ x' = x + 1 /\ UNCHANGED y
IncY == y < N /\ y' = y + 1 /\ UNCHANGED x
Never == x > N /\ UNCHANGED <<x, y>>
Next == IncX \/ IncY \/ Never
====
