--------------------- MODULE MutTakeOverForgetsReported ---------------------
(* Mutant of TakeOver's guard: the survivor that takes over forgets every  *)
(* target of the running round, those it reported on too (its round is    *)
(* the suspected coordinator alone).  n3 broadcast an event, n1 delivered  *)
(* it; n1 coordinated n3's removal, both survivors reported, n1 decided    *)
(* on the event; n2 suspected n1 and took over with a round on n1 alone,   *)
(* which decided, and n2 installed a view without n3 (and n1) without n3's *)
(* agreed event.  Expected: InstalledDeliveredAgreed (11 steps).           *)
EXTENDS MCCausalMembershipRestart

TakeOverForgettingAll(i) ==
    LET x == Coord IN
    /\ up[i]
    /\ i \in Survivors \ {x} /\ x \in Suspectable
    /\ flushing # {}
    /\ \A d \in members \ {x} : Pos(i) <= Pos(d)
    /\ flushing' = {x}
    /\ reported' = {}
    /\ report' = [j \in Node |-> {}]
    /\ lastAction' = [name |-> "Suspect", node |-> i, target |-> x, restart |-> FALSE]
    /\ UNCHANGED <<pvars, view, members, frozen, awaiting, agreed, gone>>

MutNext ==
    \/ PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ MGcNext
    \/ \E i, x \in Node : Suspect(i, x)
    \/ \E i \in Node : TakeOverForgettingAll(i)
    \/ \E i \in Node : FlushReport(i) \/ InstallView(i)
    \/ DecideView
    \/ \E i, j \in Node : FlushForward(j, i)

MutSpec == MInit /\ [][MutNext]_mvars
=============================================================================
