------------------------- MODULE MutS6NoHCheck -------------------------
(* Mutant, Example 6's counterfactual (L248, L250): the server takes the   *)
(* client's history but never compares it with its sync timestamps, and   *)
(* starts delivering at once (stale set empty unless the history is lost). *)
(* A delivers n1 at t1; the client, H(A) = t1, connects to B, which has    *)
(* not synced with A after t1 and does not pull, so n1 is in K_B \ D_B and *)
(* B delivers it again: what "Server B makes sure it has synchronized with *)
(* A after time t1, thus ensuring that B knows about m1's delivery" rules  *)
(* out.  Breaks A.8's "if (TS[s] < H(s))" pull.                            *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS6

\* The one change (ExactlyOnceS6: {t : MustPull(s, t)}).
MutStale6(s) == IF HistoryLost THEN Servers \ {s} ELSE {}

MutStartSession(s) ==
    /\ StartSessionG(s, MutStale6(s))
    /\ lastAction' = [name |-> "StartSession", server |-> s, sid |-> connId,
                      stale |-> MutStale6(s), h |-> H]
    /\ UNCHANGED <<timedVars, H>>

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ Tick
    \/ \E s \in Servers :
         \/ MutStartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ RecvDNext(s) \/ PushSync(s)
         \/ \E m \in snet : RecvSync(s, m)
         \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
    \/ FaultNext

MutSpec == Init /\ [][MutNext]_vars
\* The search narrowed for issue 18's budget (ACTION_CONSTRAINTs) to the
\* scenario above: the one fault is the client's disconnect, it connects to
\* A and then to B; a violation found narrowed is a behaviour of MutSpec.
OnlyDisconnect == faults' > faults => lastAction'.name = "Disconnect"

ConnectAThenB ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"
=============================================================================
