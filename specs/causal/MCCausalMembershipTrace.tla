----------------------- MODULE MCCausalMembershipTrace -----------------------
(* Targeted traces of the view change for replay on the Java core          *)
(* (CausalNode's flushReport, decideView, flushForward, installView and    *)
(* ViewChange): each cfg's only invariant is a trap NotX == ~X, and TLC's  *)
(* shortest counterexample is a run of scenario X.  As in MCCausalTrace, a *)
(* loss or a crash removes only copies their receiver never got.           *)
EXTENDS MCCausalMembership

NeverGot(e) == e.type \in {"data", "resend"} => ~Has(e.to, IdOf(e))
MTraceNext ==
    /\ MNext
    /\ lastAction'.name = "Lose" => \A e \in net \ net' : NeverGot(e)
    /\ lastAction'.name = "Crash" => \A e \in net \ net' : NeverGot(e)
MTraceSpec == MInit /\ [][MTraceNext]_mvars

\* A crashed node's removal: the last survivor installs the view, and the
\* flush agreed on an event (one survivor had it, the other got it forwarded).
RemovedWithFlush ==
    /\ lastAction.name = "InstallView" /\ flushing = ""
    /\ \E x \in gone : agreed[x] # {} /\ ~up[x]
    /\ \E e \in net : e.type = "resend"
NotRemovedWithFlush == ~RemovedWithFlush

\* A false suspicion: the node never crashed, was removed, and its event
\* is then refused as excluded.
FalseSuspicionExcluded ==
    /\ lastAction.name = "Receive" /\ lastAction.outcome = "excluded"
    /\ up[lastAction.origin]
NotFalseSuspicionExcluded == ~FalseSuspicionExcluded

\* Collection goes on after the removal: a node collects an event the
\* removed node never delivered.
CollectedAfterRemoval ==
    /\ lastAction.name = "CollectGarbage"
    /\ \E x \in gone : \E d \in SentIds : ~Dlv(x, d) /\ ~\E m \in store[lastAction.node] : IdOf(m) = d
NotCollectedAfterRemoval == ~CollectedAfterRemoval

\* The freeze: a survivor that reported holds an event of the suspected node
\* that the causal guard would let it deliver, and does not deliver it
\* until the decision agrees on it.
FrozenHeld ==
    \E i \in reported : \E m \in buf[i] :
        m.origin = flushing /\ Deliverable(i, m) /\ ~MayDeliver(i, m)
NotFrozenHeld == ~FrozenHeld
=============================================================================
