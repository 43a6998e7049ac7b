------------------------- MODULE MutS4NoKFilter -------------------------
(* NEGATIVE CONTROL (notes M4-f): A.6's merge without its filter,          *)
(* "D[s] = m.body; D = D + D[s]" instead of "D[s] = D[s] - (D[s] - K)"     *)
(* first ("s may not know that some messages are already purged").  A     *)
(* note the receiver already purged comes back into its D (not its K).    *)
(* That breaks only the hygiene D within K (L211 "D of just the latter"), *)
(* not exactly-once: a note outside K is never delivered, and a D entry    *)
(* only ever stops a delivery.  Two models: MutS4NoKFilter.cfg must PASS   *)
(* NoDuplicateDelivery, NoReattempt, GatherSound, DImpliesProcessed and    *)
(* PurgeSafe; MutS4NoKFilterDWithinK.cfg must violate DWithinK, which      *)
(* shows the mutation is live in these bounds (a control that changes     *)
(* nothing would prove nothing).                                           *)
EXTENDS MCExactlyOnceS4

\* The one change (ExactlyOnceGather: MergeD(s, m) == m.d \cap K[s]).
MutRecvD(s, m) ==
    /\ m \in snet
    /\ m.type = "replyD"
    /\ m.to = s
    /\ sess[s].phase = "gather"
    /\ m.sid = sess[s].sid
    /\ m.from \in sess[s].stale \ sess[s].replied
    /\ snet' = ConsumeS(m)
    /\ D' = [D EXCEPT ![s] = @ \cup m.d]
    /\ sess' = [sess EXCEPT ![s].replied = @ \cup {m.from}, ![s].common = @ \cap m.d]
    /\ lastAction' = [name |-> "RecvD", server |-> s, peer |-> m.from, sid |-> m.sid,
                      d |-> m.d, ts |-> m.ts]
    /\ UNCHANGED <<net, conn, created, delivered, faults, K, connId>>

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ \E m \in snet : MutRecvD(s, m)
         \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
    \/ FaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
