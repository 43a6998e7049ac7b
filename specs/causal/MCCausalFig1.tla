----------------------------- MODULE MCCausalFig1 -----------------------------
(***************************************************************************)
(* The paper's Fig. 1 case as a liveness model (issue 19 item 3): n1       *)
(* issues A, n2 delivers A and then issues B, which depends on A; A's copy *)
(* to n3 may be lost, and n1 may crash (its copies in transit go with it), *)
(* so n3 learns that A is missing only from B's metadata (5.1: "when the   *)
(* message B arrives at N3, it is seen that the message A is not there      *)
(* yet"), waits w, asks n1, and after every RTO the next holder: n1 (dead, *)
(* or its resend lost) and n2 in turn, since requests and resends may be   *)
(* lost too.  Once a copy of A arrives, n3 delivers A and then B.          *)
(*                                                                         *)
(* The behaviours are Causal's, narrowed to the scenario so that TLC's     *)
(* liveness check stays small (a whole 3-node, 2-event model spent 17      *)
(* minutes setting up the check without a first state):                    *)
(*  - n2 broadcasts B only after it delivered A (B depends on A);          *)
(*  - the losses are A's data copy to n3, requests and resends;            *)
(*  - n1 crashes only once n2 delivered A (so the crash cuts A's copy to   *)
(*    n3 at most: a crash that leaves nobody but n3 with A is the gap of a *)
(*    lost last message, heartbeats' business, causal-live-crash);         *)
(*  - no heartbeats: B reveals the loss, as in the paper, and heartbeats   *)
(*    are the subject of causal-live and the trace causal-heartbeat-lost-  *)
(*    last;                                                                *)
(*  - fairness as Causal's Fairness, without its heartbeat conjuncts (no   *)
(*    heartbeat step is taken) and with the per-id retry and serve         *)
(*    conjuncts for A only, the one event that can go missing here: fewer  *)
(*    fair behaviours, so a pass is still a pass of every fair behaviour   *)
(*    of the narrowed next-state relation.                                 *)
(*  - and n2 does issue B once it delivered A (weak fairness on that       *)
(*    Broadcast): without heartbeats, B is what reveals A to n3; if n2     *)
(*    never spoke, n3 would never learn of A (TLC shows it: n1 crashes     *)
(*    after n2 delivered A, then nothing), the gap the paper hides behind  *)
(*    its assumption 3 and heartbeats close (causal-faithful, causal-live).*)
(* Lose and Crash carry no fairness, so narrowing them removes behaviours  *)
(* without making any fairness condition vacuous.                          *)
(*                                                                         *)
(* The mutant that only ever asks the origin runs on the same scenario     *)
(* (mutants/MutFig1AskOnlyOrigin.tla), through Fig1Rest, the steps but     *)
(* the retry.                                                              *)
(***************************************************************************)
EXTENDS MCCausal

A == [origin |-> "n1", seq |-> 1]

Fig1Lose(e) == e.type \in {"req", "resend"} \/ (e.type = "data" /\ IdOf(e) = A /\ e.to = "n3")

\* Every step of the scenario but the retry after RTO.
IssueB == Broadcast("n2") /\ vc["n2"]["n1"] >= 1
Fig1Rest ==
    \/ Broadcast("n1") \/ IssueB
    \/ ReceiveNext \/ DeliverNext \/ ServeNext
    \/ \E i \in Node : \E r \in missing[i] : ExpireWait(i, r)
    \/ \E e \in net : Lose(e) /\ Fig1Lose(e)
    \/ Crash("n1") /\ vc["n2"]["n1"] >= 1

Fig1Next == Fig1Rest \/ \E i \in Node : \E r \in missing[i] : ExpireRto(i, r)

\* Fairness but the retry's.
Fig1FairRest ==
    /\ \A i \in Node :
         /\ WF_pvars(\E m \in buf[i] : Deliver(i, m))
         /\ WF_pvars(\E r \in missing[i] : ExpireWait(i, r))
         /\ SF_pvars(\E e \in net : e.to = i /\ Receive(i, e))
         /\ \A j \in Node \ {i} : SF_pvars(ServeId(j, i, A))
    /\ WF_pvars(IssueB)

Fig1Spec == Init /\ [][Fig1Next]_vars /\ Fig1FairRest /\ \A i \in Node : WF_pvars(RtoId(i, A))

\* A trap (MCCausalFig1Reached.cfg, expected to be violated): the scenario
\* the liveness model is about happens, so its pass is not vacuous: n3
\* receives A as a resend from n2, the second holder, while n1 is down and
\* before n3 delivered A.
Fig1NotReached ==
    ~ /\ lastAction.name = "Receive" /\ lastAction.node = "n3" /\ lastAction.type = "resend"
      /\ lastAction.from = "n2" /\ lastAction.origin = "n1" /\ ~up["n1"] /\ ~Dlv("n3", A)

=============================================================================
