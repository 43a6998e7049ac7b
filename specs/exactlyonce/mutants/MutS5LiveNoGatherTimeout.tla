------------------- MODULE MutS5LiveNoGatherTimeout -------------------
(* Liveness control for MCExactlyOnceS5LiveCrash.cfg: the same model with *)
(* no fairness on GatherFail, i.e. a gather whose request or reply was   *)
(* lost waits forever instead of aborting (A.6-A.7 `{abort;}`, L703) and *)
(* the client, still connected, never gets a new session.  TLC finds a   *)
(* lost D request after which n1 is never delivered, so the ci liveness  *)
(* model's fault is live and its fairness is what delivers.              *)
(* Expected: EventualDelivery.                                             *)
EXTENDS MCExactlyOnceS5

\* The one change (ExactlyOnceS5's Fairness: WF_vars(GatherFail(s)) gone).
MutFairness ==
    /\ WF_vars(ConnectNext) /\ WF_vars(Tick)
    /\ \A s \in Servers :
         /\ WF_vars(StartSession(s)) /\ WF_vars(EndGather(s))
         /\ WF_vars(ADeliverNext(s)) /\ WF_vars(ReplyDNext(s)) /\ WF_vars(RecvDNext(s))
         /\ \A t \in Servers : WF_vars(ReqD(s, t))

MutSpec == Spec /\ MutFairness
=============================================================================
