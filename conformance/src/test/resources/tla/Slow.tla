---- MODULE Slow ----
\* A state space of (N+1)^2 states made slow on purpose: the model of the runner's budget and
\* checkpoint tests, which stop it after a second and let it go on later. Heavy is evaluated for
\* every successor, so the run takes several seconds of CPU whatever the machine: without it,
\* 40,401 states took an idle 2-core machine less than the one-second budget and the tests that
\* need the budget to stop the run failed there (they had passed only under load). Measured idle:
\* 4.3 s with 200 terms, 9.3 s with 600.
\* Never is never enabled, so a coverage report names it as an action never taken.
EXTENDS Naturals
CONSTANT N
VARIABLES x, y
Heavy == \A k \in 1..300 : k + x + y > 0
Init == x = 0 /\ y = 0
IncX == x < N /\ Heavy /\ x' = x + 1 /\ UNCHANGED y
IncY == y < N /\ Heavy /\ y' = y + 1 /\ UNCHANGED x
Never == x > N /\ UNCHANGED <<x, y>>
Next == IncX \/ IncY \/ Never
====
