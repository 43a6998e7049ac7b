----------------------- MODULE MutS4PurgeSyncPairOnly -----------------------
(* Mutant for the guard the gather family's PurgeSafe restates (issue 20   *)
(* item 5): PurgeSync drops every note the two syncing servers know        *)
(* delivered, without asking whether every server does (L213: "messages    *)
(* whose delivery is known to all servers are purged"; ExactlyOnceGather's *)
(* KnownToAll).  With two servers the pair is everyone, so this needs      *)
(* three: A delivers n1, A and B sync and purge it, C never heard of the   *)
(* delivery; the client moves to C, C's gather hears D_A and D_B without   *)
(* n1, and C delivers n1 again.  Expected: NoDuplicateDelivery (not only   *)
(* PurgeSafe, which restates the removed guard).                           *)
EXTENDS MCExactlyOnceS4

\* The one change (ExactlyOnceGather's PurgeSyncG purges {i \in Dn : KnownToAll(i)}).
MutPurgeSync(s, t) ==
    /\ s # t
    /\ Link(s, t)
    /\ LET Kn == K[s] \cap K[t]
           Dn == (D[s] \cup D[t]) \cap Kn
       IN /\ (K[s] # Kn \/ K[t] # Kn \/ D[s] # Dn \/ D[t] # Dn \/ Dn # {})
          /\ K' = [K EXCEPT ![s] = Kn \ Dn, ![t] = Kn \ Dn]
          /\ D' = [D EXCEPT ![s] = {}, ![t] = {}]
          /\ lastAction' = [name |-> "PurgeSync", server |-> s, peer |-> t, purged |-> Dn]
    /\ UNCHANGED <<baseVars, sess, snet, connId>>

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ RecvDNext(s)
         \/ \E t \in Servers : ReqD(s, t) \/ MutPurgeSync(s, t)
    \/ FaultNext

MutSpec == Init /\ [][MutNext]_vars

\* The search narrowed for issue 18's budget (ACTION_CONSTRAINTs): the one
\* fault is the client's disconnect, the first connection is to A and the
\* second to C, and there is no third, which is the scenario above; a
\* violation found narrowed is a behaviour of MutSpec.
OnlyDisconnect == faults' > faults => lastAction'.name = "Disconnect"

ConnectAThenC ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "C"
=============================================================================
