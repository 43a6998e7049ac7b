------------------------- MODULE MutJoinSnapshotEarly -------------------------
(* Mutant: the state transfer is not atomic with the view install.  The    *)
(* donor takes its snapshot (prefix, log, store) in one step and the view  *)
(* with the joiner is installed in a later one; in between the donor may   *)
(* deliver an event, so the members' row for the joiner (their row of the  *)
(* donor, at the install) covers an event the joiner lacks, and it is      *)
(* collected.  Expected: MCollectedOnlyIfStable.                           *)
EXTENDS MCCausalJoin

VARIABLE snap   \* snap[j]: the donor and the state it took for j ({} before: a set, so the
                \* comparison with a record never mixes types)

MutInit == JoinInit /\ snap = [j \in Node |-> {}]

TakeSnapshot(d, j) ==
    /\ flushing = "" /\ up[d] /\ d \in members
    /\ j \in Joinable /\ snap[j] = {}
    /\ snap' = [snap EXCEPT ![j] = {[donor |-> d, vc |-> vc[d], log |-> dlog[d], store |-> store[d]]}]
    /\ lastAction' = [name |-> "TakeSnapshot", node |-> d, target |-> j]
    /\ UNCHANGED <<pvars, jVars>>

LateInstall(j) ==
    /\ j \in Joinable /\ snap[j] # {}
    /\ LET s == CHOOSE x \in snap[j] : TRUE
       IN Hand(s.donor, j, s.vc, s.log, s.store)
    /\ UNCHANGED snap

MutNext == \/ JPlainNext /\ UNCHANGED snap
           \/ JGcNext /\ UNCHANGED <<donorOf, handed, goneAtJoin, joinStart, snap>>
           \/ \E i, j \in Node : InstallJoin(i, j) /\ UNCHANGED snap
           \/ \E d, j \in Node : TakeSnapshot(d, j)
           \/ \E j \in Node : LateInstall(j)

mutView == <<jpvars, snap>>

MutSpec == MutInit /\ [][MutNext]_<<jvars, snap>>
=============================================================================
