------------------------- MODULE MutS4NoGather -------------------------
(* Mutant, Example 4's counterfactual (L211, L215): the server starts      *)
(* delivering without gathering D from the other servers (its stale set   *)
(* is empty).  A delivers n1 (D_A = {n1}); the client moves to B, which    *)
(* never obtains D_A, so n1 is in K_B \ D_B and B delivers it again: what  *)
(* "it obtains D_A and merges with D_B.  This will guarantee that any      *)
(* previously delivered note ... will not be delivered again" rules out.   *)
(* Breaks the gather of A.6 ("foreach s in S, in parallel { Deliver(s,     *)
(* 'Request for list D')").  Expected: NoDuplicateDelivery.                *)
EXTENDS MCExactlyOnceS4

\* The one-line change: gather from nobody (ExactlyOnceS4: Stale4(s)).
MutStartSession(s) ==
    /\ StartSessionG(s, {})
    /\ lastAction' = [name |-> "StartSession", server |-> s, sid |-> connId, stale |-> {}]

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ MutStartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ RecvDNext(s)
         \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
    \/ FaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
