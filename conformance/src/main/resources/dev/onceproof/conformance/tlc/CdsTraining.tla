---- MODULE CdsTraining ----
\* Not a protocol: a warm-up model that makes TLC load the classes the project's models use
\* (integers, sequences, sets, records, functions, CHOOSE, an invariant, a liveness property that
\* fails with a printed behaviour), so the class archive made from this run covers most of them.
EXTENDS Integers, Sequences, FiniteSets, TLC

CONSTANTS N, Procs

VARIABLES x, q, seen, f, lastAction

vars == <<x, q, seen, f, lastAction>>

Init == /\ x = 0
        /\ q = <<>>
        /\ seen = {}
        /\ f = [p \in Procs |-> 0]
        /\ lastAction = [name |-> "Init"]

Send(p) == /\ x < N
           /\ q' = Append(q, [from |-> p, n |-> x])
           /\ x' = x + 1
           /\ UNCHANGED <<seen, f>>
           /\ lastAction' = [name |-> "Send", p |-> p]

Recv == /\ q /= <<>>
        /\ LET m == Head(q) IN
             /\ seen' = seen \cup {m.n}
             /\ f' = [f EXCEPT ![m.from] = @ + 1]
        /\ q' = Tail(q)
        /\ UNCHANGED x
        /\ lastAction' = [name |-> "Recv"]

Drop == /\ Len(q) > 1
        /\ \E i \in 1..Len(q) : q' = SubSeq(q, 1, i - 1) \o SubSeq(q, i + 1, Len(q))
        /\ UNCHANGED <<x, seen, f>>
        /\ lastAction' = [name |-> "Drop"]

Next == \/ \E p \in Procs : Send(p)
        \/ Recv
        \/ Drop

Spec == Init /\ [][Next]_vars /\ WF_vars(Recv)

TypeOK == /\ x \in 0..N
          /\ Cardinality(seen) <= x
          /\ \A p \in Procs : f[p] <= x
          /\ (CHOOSE v \in {x} : TRUE) = x

\* Fails: Drop loses a message for good, so this makes TLC search for a fair cycle and print one.
AllSeen == <>(\A n \in 0..(N - 1) : n \in seen)
====
