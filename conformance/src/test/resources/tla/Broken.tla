---- MODULE Broken ----
\* A parse error on purpose: a dangling conjunction.
VARIABLE x
Init == x = 0 /\ 
Next == x = = 1
====
