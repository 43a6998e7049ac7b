------------------------- MODULE MutFig1AskOnlyOrigin -------------------------
(* Mutant on the Fig. 1 scenario (MCCausalFig1.tla): the retry after RTO    *)
(* only ever asks the original node (MutAskOnlySender's ExpireRtoOrigin),   *)
(* never the other holder.  When n1 has crashed after n2 delivered A and    *)
(* A's copy to n3 was cut short, n3 learns of A from B and asks the dead n1 *)
(* forever, so it never delivers A, nor B, whose origin n2 is correct.       *)
(* Expected: EventualDelivery, under the scenario's fairness.               *)
EXTENDS MCCausalFig1, MutAskOnlySender

MutFig1Next == Fig1Rest \/ \E i \in Node : \E r \in missing[i] : ExpireRtoOrigin(i, r)

MutFig1Spec ==
    /\ Init /\ [][MutFig1Next]_vars /\ Fig1FairRest
    /\ \A i \in Node : WF_pvars(\E r \in missing[i] : IdOf(r) = A /\ ExpireRtoOrigin(i, r))
=============================================================================
