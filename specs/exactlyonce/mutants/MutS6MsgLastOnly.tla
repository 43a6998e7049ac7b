-------------------------- MODULE MutS6MsgLastOnly --------------------------
(* Mutant (Strategy 6's twin of notes M5-e) at the message level: the      *)
(* server checks only the other server the client was connected to last,  *)
(* as if the client uploaded one entry of H instead of "the complete       *)
(* connection history" (L244; A.8 "foreach s in S").  Three servers: A     *)
(* delivers n1, the client moves to B and leaves before B has heard from   *)
(* A, then connects to C, which pulls only from B (D_B without n1) and     *)
(* delivers n1 again.  It is the control of the three-server simulation    *)
(* (MCExactlyOnceS6MsgThreeSim.cfg): the same seeded run must find this    *)
(* duplicate, or the run's pass on the unmodified spec is no evidence.     *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS6Msg

VARIABLE
    lastAt   \* ghost: the id of the client's latest connection to each server (0: none)

MutInit == MsgInit /\ lastAt = [t \in Servers |-> 0]

\* The other server the client was connected to last, as a set ({} if none).
PrevOther(s) ==
    {t \in Servers \ {s} : lastAt[t] > 0 /\ \A u \in Servers \ {s} : lastAt[u] <= lastAt[t]}

\* The one change (ExactlyOnceS6's StartSession gathers from all of Stale6(s)).
LastStale(s) == Stale6(s) \cap PrevOther(s)

MutStartSession(s) ==
    /\ StartSessionG(s, LastStale(s))
    /\ lastAction' = [name |-> "StartSession", server |-> s, sid |-> connId,
                      stale |-> LastStale(s), h |-> H]
    /\ UNCHANGED <<timedVars, H, msgVars, lastAt>>

\* Connect records the ghost history the mutated check reads.
MutConnect(s) == Same(Connect(s)) /\ lastAt' = [lastAt EXCEPT ![s] = connId + 1]

\* ExactlyOnceS6Msg's MsgNext with the two steps above for its own.
MutNext ==
    \/ \E s \in Servers : MutConnect(s) \/ MutStartSession(s)
    \/ /\ \/ CreateNoteM
          \/ Same(Tick)
          \/ \E s \in Servers :
               \/ Same(GatherFail(s)) \/ Same(EndGather(s))
               \/ Same(ADeliverNext(s)) \/ Same(ReplyDNext(s)) \/ \E m \in snet : RecvDM(s, m)
               \/ PushSyncM(s)
               \/ \E m \in pnet : RecvPeerSync(s, m)
               \/ \E t \in Servers : Same(ReqD(s, t))
          \/ Same(Disconnect \/ ClientCrash \/ ClientLoseHM \/ \E m \in snet : LoseMsg(m))
          \/ \E s \in Servers : ServerCrashM(s) \/ IdleCrashM(s) \/ Same(\E i \in K[s] : ADeliverErr(s, i))
          \/ \E m \in pnet : LosePeerSync(m)
       /\ UNCHANGED lastAt

\* The three-server simulation's spec (MCExactlyOnceS6Msg's ThreeSimSpec)
\* with this check.
MutThreeSimSpec == MutInit /\ [][MutNext /\ ThreeSimNarrowing]_<<allVars, lastAt>>
=============================================================================
