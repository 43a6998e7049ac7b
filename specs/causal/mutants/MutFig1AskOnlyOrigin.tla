------------------------- MODULE MutFig1AskOnlyOrigin -------------------------
(* Mutant on the Fig. 1 scenario (MCCausalFig1.tla): the retry after RTO    *)
(* only ever asks the original node (MutAskOnlySender's ExpireRtoOrigin),   *)
(* never the other holder.  When n1 has crashed after n2 delivered A and    *)
(* A's copy to n3 was cut short, n3 learns of A from B and asks the dead n1 *)
(* forever, so it never delivers A, nor B, whose origin n2 is correct.       *)
(* Expected: EventualDelivery, under the scenario's fairness.               *)
EXTENDS MCCausalFig1, MutAskOnlySender

MutFig1Next == Fig1Rest \/ \E i \in Node : \E r \in missing[i] : ExpireRtoOrigin(i, r)

(* The scenario's fairness (Fig1FairRest and WF on the retry, for A), less *)
(* the conditions of the nodes that never miss A and so never wait for it, *)
(* retry or have a request served: A's copy is lost only to n3             *)
(* (Fig1Lose), and n2 issues B only after it delivered A.  A WF or SF      *)
(* condition whose action is never enabled holds vacuously on every        *)
(* behaviour, so dropping them leaves the same fair behaviours: the        *)
(* counterexample is fair under the full fairness.  TLC checks the premise *)
(* in the same run (invariant OthersNeverAsk: a change that enables one of *)
(* them fails there, not on EventualDelivery).  Each SF condition doubles  *)
(* TLC's possible error models, hence the trimming.                        *)
Askers == {"n3"}

MutFig1Fairness ==
    /\ \A i \in Node :
         /\ WF_pvars(\E m \in buf[i] : Deliver(i, m))
         /\ SF_pvars(\E e \in net : e.to = i /\ Receive(i, e))
    /\ WF_pvars(IssueB)
    /\ \A i \in Askers :
         /\ WF_pvars(\E r \in missing[i] : ExpireWait(i, r))
         /\ \A j \in Node \ {i} : SF_pvars(ServeId(j, i, A))
         /\ WF_pvars(\E r \in missing[i] : IdOf(r) = A /\ ExpireRtoOrigin(i, r))

OthersNeverAsk ==
    \A i \in Node \ Askers :
        /\ ~ENABLED <<\E r \in missing[i] : ExpireWait(i, r) \/ ExpireRtoOrigin(i, r)>>_pvars
        /\ ~ENABLED <<\E e \in net : e.type = "req" /\ e.from = i /\ ServeRequest(e.to, e)>>_pvars

MutFig1Spec == Init /\ [][MutFig1Next]_vars /\ MutFig1Fairness
=============================================================================
