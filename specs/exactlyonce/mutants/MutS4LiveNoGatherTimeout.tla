------------------- MODULE MutS4LiveNoGatherTimeout -------------------
(* Liveness control for exactlyonce-s4-liveness (MCExactlyOnceS4Live.cfg), as *)
(* MutS5LiveNoGatherTimeout is for Strategy 5: the same model with no      *)
(* fairness on GatherFail, so a gather whose request or reply was lost     *)
(* waits for ever instead of aborting (A.6 {abort;}, L703), and the        *)
(* client, still connected, never gets a new session.  The fault of the    *)
(* ci liveness model is live: its fairness is what delivers.               *)
(* Expected: EventualDelivery.                                             *)
EXTENDS MCExactlyOnceS4

\* The one change (ExactlyOnceS4's Fairness: WF_vars(GatherFail(s)) gone).
MutFairness ==
    /\ WF_vars(ConnectNext)
    /\ \A s \in Servers :
         /\ WF_vars(StartSession(s)) /\ WF_vars(EndGather(s))
         /\ WF_vars(ADeliverNext(s)) /\ WF_vars(ReplyDNext(s)) /\ WF_vars(RecvDNext(s))
         /\ \A t \in Servers : WF_vars(ReqD(s, t))

MutSpec == Spec /\ MutFairness
=============================================================================
