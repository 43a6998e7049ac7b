------------------------ MODULE MutS5MsgPreviousOnly ------------------------
(* Mutant (notes M5-e) at the message level: MutS5PreviousOnly's check on  *)
(* ExactlyOnceS5Msg.  The server checks only the other server the client   *)
(* was last connected to (as if the client named it) instead of "foreach s *)
(* in S" (A.7; L223 "for each of the other servers"; L236 "the union of    *)
(* all servers' synchronization messages").  Three servers: A delivers n1, *)
(* the client moves to B and leaves before B has heard from A, then        *)
(* connects to C, which pulls only from B (D_B without n1) and delivers n1 *)
(* again.  The unmodified spec passes the same bounds                      *)
(* (exactlyonce-s5msg-quiet-moves-three).                                  *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS5Msg

VARIABLE
    lastAt   \* ghost: the id of the client's latest connection to each server (0: none)

MutInit == MsgInit /\ lastAt = [t \in Servers |-> 0]

\* The other server the client was connected to last, as a set ({} if none).
PrevOther(s) ==
    {t \in Servers \ {s} : lastAt[t] > 0 /\ \A u \in Servers \ {s} : lastAt[u] <= lastAt[t]}

\* The one change (ExactlyOnceS5's StartSession gathers from all of Stale5(s)).
PrevStale(s) == Stale5(s) \cap PrevOther(s)

MutStartSession(s) ==
    /\ StartSessionG(s, PrevStale(s))
    /\ lastAction' = [name |-> "StartSession", server |-> s, sid |-> connId,
                      stale |-> PrevStale(s), now |-> now]
    /\ UNCHANGED <<timedVars, lastEnd, msgVars, lastAt>>

\* Connect records the ghost history the mutated check reads.
MutConnect(s) == Same(Connect(s)) /\ lastAt' = [lastAt EXCEPT ![s] = connId + 1]

\* ExactlyOnceS5Msg's MsgNext with the two steps above for its own.
MutNext ==
    \/ \E s \in Servers : MutConnect(s) \/ MutStartSession(s)
    \/ /\ \/ CreateNoteM
          \/ Same(Tick)
          \/ \E s \in Servers :
               \/ Same(GatherFail(s)) \/ Same(EndGather(s))
               \/ Same(ADeliverNext(s)) \/ Same(ReplyDNext(s)) \/ \E m \in snet : RecvDM(s, m)
               \/ PeriodicSyncM(s)
               \/ \E m \in pnet : RecvPeerSync(s, m)
               \/ \E t \in Servers : Same(ReqD(s, t))
          \/ Same(Disconnect \/ ClientCrashM \/ \E m \in snet : LoseMsg(m))
          \/ \E s \in Servers : ServerCrashM(s) \/ IdleCrashM(s) \/ Same(\E i \in K[s] : ADeliverErr(s, i))
          \/ \E m \in pnet : LosePeerSync(m)
       /\ UNCHANGED lastAt

MutSpec == MutInit /\ [][MutNext]_<<allVars, lastAt>>

\* The three-server simulation's spec (MCExactlyOnceS5Msg's ThreeSimSpec)
\* with this check: its seeded run must find the duplicate, or the same run
\* of the unmodified spec is no evidence.
MutThreeSimSpec == MutInit /\ [][MutNext /\ ThreeSimNarrowing]_<<allVars, lastAt>>
=============================================================================
