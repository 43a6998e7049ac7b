---- MODULE CounterLive ----
\* Counter without fairness: nothing makes it ever reach Max, so TLC finds a behaviour that stutters
\* short of it (a liveness violation, for the runner's tests).
EXTENDS Counter
ReachesMax == <>(x = Max)
====
