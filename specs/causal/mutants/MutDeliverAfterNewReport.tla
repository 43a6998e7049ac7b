----------------------- MODULE MutDeliverAfterNewReport -----------------------
(* Mutant: after a restart a survivor delivers by the decision the restart *)
(* superseded, also after its report to the new coordinator (MayDeliver    *)
(* without awaiting: CausalNode's awaitingDecision seam).  n3 holds n1's   *)
(* event, frozen; n2 delivered it and reported it, the decision agreed on  *)
(* it; n3 suspects n2, reports to the new round that it delivered none of  *)
(* n1's events, then delivers the held one by the old decision; the new    *)
(* round agrees on none.  Expected: ExcludedNotDelivered.                  *)
EXTENDS MCCausalMembershipRestart

MayDeliverByOldDecision(i, m) ==
    (ExcludedAt(i, m.origin) \/ m.origin \in frozen[i])
        => m.origin \notin members /\ m.seq \in agreed[m.origin]

MutNext ==
    \/ PlainNext \/ MReceiveNext \/ MHbNext \/ MGcNext \/ ViewNext
    \/ \E i \in Node : \E m \in buf[i] :
         MayDeliverByOldDecision(i, m) /\ Deliver(i, m) /\ UNCHANGED memVars

MutSpec == MInit /\ [][MutNext]_mvars
=============================================================================
