--------------------- MODULE MutS4SessionNotTied ---------------------
(* Mutant (notes M4-g, Z12): aDeliver is not tied to the session id; any  *)
(* session of s may call it while the client is connected to s, so an     *)
(* older session, left over from an earlier connection, delivers on the   *)
(* current one: two live sessions for one client at one server.  A       *)
(* gathers for connection 1 (D_B without n1) and reaches its delivery     *)
(* loop; the client leaves before any delivery, connects to B, whose      *)
(* gather hears D_A without n1, and B delivers n1; the client comes back  *)
(* to A, and A's session of connection 1, whose gather knew nothing of    *)
(* B's delivery, hands n1 over again before the new connection's request  *)
(* starts a session.  ExactlyOnceGather's ADeliverOKG needs Live(s): the  *)
(* session's id is the current connection's (Z12 "aDeliver/Deliver to c  *)
(* is tied to a session id"), and passes these bounds                     *)
(* (exactlyonce-control-s4-at-mutant-bounds).                            *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS4

\* The one change (ExactlyOnceGather's ADeliverOKG: Live(s), i.e. conn = s
\* /\ sess[s].sid = connId): only conn = s.
MutADeliverOK(s, i) ==
    /\ sess[s].phase = "deliver"
    /\ conn = s
    /\ i \in Deliverable(s)
    /\ MayReceive
    /\ delivered' = Append(delivered, i)
    /\ D' = [D EXCEPT ![s] = @ \cup {i}]
    /\ lastAction' = [name |-> "ADeliverOK", server |-> s, note |-> i, sid |-> sess[s].sid]
    /\ UNCHANGED <<net, conn, created, faults, K, sess, snet, connId>>

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s)
         \/ \E i \in K[s] : MutADeliverOK(s, i)
         \/ ReplyDNext(s) \/ RecvDNext(s)
         \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
    \/ FaultNext

MutSpec == Init /\ [][MutNext]_vars
\* The search narrowed for issue 18's budget (ACTION_CONSTRAINTs) to the
\* counterexample's faults and connection order; a violation found narrowed
\* is a behaviour of the unnarrowed spec.
OnlyDisconnect == faults' > faults => lastAction'.name = "Disconnect"

ConnectABA ==
    lastAction'.name = "Connect" =>
        \/ connId \in {0, 2} /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"
=============================================================================
