--------------------- MODULE MutS4PurgeOmitsServer ---------------------
(* Mutant: A.6's purge intersection "P = D[1] intersect ... intersect      *)
(* D[N]" leaves out one server's reply (an off-by-one over the replies;   *)
(* Omitted, fixed below; TLC's CHOOSE picks "A").  A session at another    *)
(* server purges a note only its own D holds.  TLC's trace: B delivers n1; *)
(* B crashes and its next session hears D_A = {} but leaves it out of P,   *)
(* so P = D_B = {n1} and B forgets n1 (K_B, D_B).  The client moves to A:  *)
(* A's gather hears D_B = {}, n1 is in K_A \ D_A and A delivers it again.  *)
(* L213: "messages whose delivery is known to all servers are purged" --  *)
(* only those; the analogue of Strategy 3's MutS3AuthorizeOwnD.            *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS4

\* The server whose reply the loop misses.
Omitted == CHOOSE t \in Servers : TRUE

\* ExactlyOnceGather's RecvDG with one change: Omitted's reply is merged
\* into D but left out of the intersection `common`.
MutRecvD(s, m) ==
    /\ m \in snet
    /\ m.type = "replyD"
    /\ m.to = s
    /\ sess[s].phase = "gather"
    /\ m.sid = sess[s].sid
    /\ m.from \in sess[s].stale \ sess[s].replied
    /\ snet' = ConsumeS(m)
    /\ D' = [D EXCEPT ![s] = @ \cup MergeD(s, m)]
    /\ sess' = [sess EXCEPT ![s].replied = @ \cup {m.from},
                            ![s].common = IF m.from = Omitted THEN @ ELSE @ \cap m.d]
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

\* The search narrowed for issue 18's budget (ACTION_CONSTRAINTs): the two
\* faults are a server crash and the client's disconnect, the first
\* connection is to B and the second to A (not the other way: Omitted is A,
\* so the servers are not alike here), and there is no third, which is the
\* scenario above; a violation found narrowed is a behaviour of MutSpec.
CrashOrDisconnect == faults' > faults => lastAction'.name \in {"ServerCrash", "Disconnect"}

ConnectBThenA ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "B"
        \/ connId = 1 /\ lastAction'.server = "A"

=============================================================================
