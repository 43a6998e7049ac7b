------------------------- MODULE MutS5PreviousOnly -------------------------
(* Mutant (notes M5-e): the freshness check of A.7 skips a server.  The    *)
(* server checks only the other server the client was last connected to   *)
(* (as if the client named it) instead of "foreach s in S" (A.7; L223: the *)
(* server checks its latest sync "for each other server"; L236: "the      *)
(* union of all servers' synchronization messages").  With two servers    *)
(* that is the only other server, and a server the client never visited   *)
(* never delivered, so the mutant is safe there (MutS5PreviousOnlyTwo.cfg, *)
(* the S5 ci safety bounds, must PASS).  With three it is not: A delivers  *)
(* n1, the client moves to B and leaves before B has heard from A, then    *)
(* connects to C, which pulls only from B (D_B without n1) and delivers    *)
(* n1 again.  The paper's examples have two servers; a third is what tells *)
(* "every other server" from "the previous server" (issue 20).             *)
(* Expected: NoDuplicateDelivery (MutS5PreviousOnly.cfg).                  *)
EXTENDS CtlS5MovesOnly

VARIABLE
    lastAt   \* ghost: the id of the client's latest connection to each server (0: none)

mutVars == <<vars, lastAt>>

MutInit == Init /\ lastAt = [t \in Servers |-> 0]

\* The other server the client was connected to last, as a set ({} if none).
PrevOther(s) ==
    {t \in Servers \ {s} : lastAt[t] > 0 /\ \A u \in Servers \ {s} : lastAt[u] <= lastAt[t]}

\* The one change (ExactlyOnceS5's StartSession gathers from all of Stale5(s)).
PrevStale(s) == Stale5(s) \cap PrevOther(s)

MutStartSession(s) ==
    /\ StartSessionG(s, PrevStale(s))
    /\ lastAction' = [name |-> "StartSession", server |-> s, sid |-> connId,
                      stale |-> PrevStale(s), now |-> now]
    /\ UNCHANGED <<timedVars, lastEnd, lastAt>>

\* Connect records the ghost history the mutated check reads.
MutConnect(s) == Connect(s) /\ lastAt' = [lastAt EXCEPT ![s] = connId + 1]

MutNext ==
    \/ \E s \in Servers : MutConnect(s) \/ MutStartSession(s)
    \/ /\ \/ CreateNote
          \/ Tick
          \/ \E s \in Servers :
               \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
               \/ ReplyDNext(s) \/ RecvDNext(s) \/ PeriodicSync(s)
               \/ \E m \in snet : RecvSync(s, m)
               \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
          \/ FaultNext
       /\ UNCHANGED lastAt

MutSpec == MutInit /\ [][MutNext]_mutVars
=============================================================================
