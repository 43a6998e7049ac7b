-------------------- MODULE MCCausalMembershipLateForward --------------------
(***************************************************************************)
(* Does the runtime's install wait matter for safety?  CausalUdpNode's     *)
(* survivors (ViewMember) install only once every other survivor's         *)
(* FORWARDED marker arrived, so a survivor's forwards to i all happen      *)
(* before i installs; CausalMembership's InstallView has no such guard,    *)
(* but its FlushForward(j, i) is enabled only while i has not installed.   *)
(* A runtime without the wait would forward to a survivor that installed.  *)
(* This model is that runtime: FlushForward without ~ExcludedAt(i, x).     *)
(* With every safety property of the membership models holding here       *)
(* (MCCausalSafetyLateForward*.cfg), and a late forward reachable          *)
(* (MCCausalReachLateForward.cfg violates NoLateForward, so the models do  *)
(* take it), dropping the wait would be harmless to safety: the forwarded  *)
(* copy is of an agreed event, which the installed survivor has delivered  *)
(* (InstallView's guard), so it is received as a duplicate.  The wait     *)
(* stays in the runtime for the logs: without it a survivor's forward can *)
(* follow the receiver's install and its broadcasts in real time, and no   *)
(* order of the logs is a behaviour of CausalMembership (CausalMerge).     *)
(***************************************************************************)
EXTENDS MCCausalMembership

\* FlushForward less its guard that i has not installed the view without x.
LateFlushForward(j, i) ==
    /\ up[j]
    /\ Decided
    /\ i # j /\ {i, j} \subseteq members
    /\ ~(Forwards(j, i) \subseteq net)
    /\ net' = net \cup Forwards(j, i)
    /\ lastAction' = [name |-> "FlushForward", node |-> j, to |-> i, target |-> flushing]
    /\ UNCHANGED <<nodeVars, sent, memVars>>

LateViewNext == \/ \E i, x \in Node : Suspect(i, x)
                \/ \E i \in Node : FlushReport(i) \/ InstallView(i)
                \/ DecideView
                \/ \E i, j \in Node : LateFlushForward(j, i)

LateNext == PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ MGcNext \/ LateViewNext

LateSpec == MInit /\ [][LateNext]_mvars

\* Reachability (the model must violate it): the last step forwarded to a
\* survivor that had already installed the view without the removed node.
NoLateForward ==
    ~(lastAction.name = "FlushForward" /\ ExcludedAt(lastAction.to, lastAction.target))
=============================================================================
