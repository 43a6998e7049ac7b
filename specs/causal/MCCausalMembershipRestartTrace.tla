-------------------- MODULE MCCausalMembershipRestartTrace --------------------
(* Targeted traces of the flush restart for replay on the Java core        *)
(* (CausalNode's flushReport, decideView, flushForward and installView on  *)
(* sets of removed nodes, ViewChange's restart): each cfg's only invariant *)
(* is a trap NotX == ~X, and TLC's shortest counterexample is a run of     *)
(* scenario X.  As in MCCausalMembershipTrace, a loss or a crash removes   *)
(* only copies their receiver never got.  heldAcross is history for the   *)
(* trap only (never read by a step).                                       *)
EXTENDS MCCausalMembershipRestart

VARIABLE heldAcross

\* A survivor (up: it is one) reported to a restarted round while it held, deliverable by
\* the causal guard and agreed by the decision the restart superseded, an
\* event of a removed node: the freeze holds it back until the new decision.
HeldAcrossRestart ==
    \E i \in Survivors : \E m \in buf[i] :
        /\ m.origin \in (flushing \ members) \cap awaiting[i]
        /\ m.seq \in agreed[m.origin] /\ Deliverable(i, m) /\ ~MayDeliver(i, m)

NeverGot(e) == e.type \in {"data", "resend"} => ~Has(e.to, IdOf(e))
RTraceNext ==
    /\ MNext
    /\ lastAction'.name = "Lose" => \A e \in net \ net' : NeverGot(e)
    /\ lastAction'.name = "Crash" => \A e \in net \ net' : NeverGot(e)
    /\ heldAcross' = (heldAcross \/ HeldAcrossRestart')
RTraceSpec == MInit /\ heldAcross = FALSE /\ [][RTraceNext]_<<mvars, heldAcross>>

\* Random walks (MCCausalMembershipRestartTraceSim.cfg): as MCCausalTrace's
\* SimNext, a loss only while the network holds 8 envelopes or more, and a
\* suspicion only once some node delivered another's event, so that walks
\* reach deliveries and recovery before and during the view change rather
\* than removing nodes at once.  RSimNext implies MNext.
RSimNext ==
    /\ RTraceNext
    /\ lastAction'.name = "Lose" => Cardinality(net) >= 8
    /\ lastAction'.name = "Suspect" => \E i \in Node : \E d \in Range(dlog[i]) : d.origin # i
RSimSpec == MInit /\ heldAcross = FALSE /\ [][RSimNext]_<<mvars, heldAcross>>

\* The coordinator crashed mid-flush: n1 crashed and was suspected, n2
\* coordinated its removal, decided (agreeing on n1's event, which n2 had
\* delivered) and crashed; n3 suspected n2, the flush restarted with n3 as
\* coordinator, n3 reported while holding n1's event, decided without it
\* (n2 alone had delivered it) and installed the view {n3}.
CoordinatorCrashRestarted ==
    /\ lastAction.name = "InstallView" /\ flushing = {}
    /\ {"n1", "n2"} \subseteq gone /\ ~up["n2"] /\ ~up["n1"]
    /\ heldAcross
NotCoordinatorCrashRestarted == ~CoordinatorCrashRestarted
=============================================================================
