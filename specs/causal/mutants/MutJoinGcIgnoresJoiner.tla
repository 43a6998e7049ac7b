------------------------ MODULE MutJoinGcIgnoresJoiner ------------------------
(* Mutant: stability counts the rows of the view without the joiner (as if *)
(* the view had not grown): an event the joiner has not delivered yet is   *)
(* collected.  Expected: MCollectedOnlyIfStable.                           *)
EXTENDS MCCausalJoin

MutStable(i, d) == \A k \in view[i] \ Joined : d.seq <= Row(i, k)[d.origin]

MutCollectGarbage(i) ==
    /\ Collecting
    /\ up[i]
    /\ \E m \in store[i] : MutStable(i, IdOf(m))
    /\ store' = [store EXCEPT ![i] = {m \in @ : ~MutStable(i, IdOf(m))}]
    /\ lastAction' = [name |-> "CollectGarbage", node |-> i]
    /\ UNCHANGED <<vc, buf, missing, up, dlog, known, net, sent, memVars, donorOf, handed, goneAtJoin, joinStart>>

MutNext == \/ JPlainNext
           \/ \E i \in Node : MutCollectGarbage(i)
           \/ JoinNext

MutSpec == JoinInit /\ [][MutNext]_jvars
=============================================================================
