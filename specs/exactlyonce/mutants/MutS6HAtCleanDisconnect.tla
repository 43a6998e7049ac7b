------------------- MODULE MutS6HAtCleanDisconnect -------------------
(* Mutant (notes M6-b, Z17): the client writes H(s) only when a connection *)
(* ends cleanly (L248 "the time when the last connection to server A      *)
(* ended"), not also when it starts.  The client connects to A, A delivers *)
(* n1, the client crashes in mid-connection: H(A) keeps its old value      *)
(* (here Never: "never connected to A").  It connects to B, whose check    *)
(* sees no reason to pull from A, and B delivers n1 again.  ExactlyOnceS6  *)
(* writes H(s) := Open at connect, which forces the pull; L254 assumes a   *)
(* lost history is detected, and a stale one is not.                      *)
(* Expected: NoDuplicateDelivery.                                          *)
EXTENDS MCExactlyOnceS6

\* The one change (ExactlyOnceS6's Connect also sets H' = [H EXCEPT ![s] = Open]).
MutConnect(s) == ConnectG(s) /\ UNCHANGED <<timedVars, H>>

MutNext ==
    \/ CreateNote
    \/ \E s \in Servers : MutConnect(s)
    \/ Tick
    \/ \E s \in Servers :
         \/ StartSession(s) \/ GatherFail(s) \/ EndGather(s) \/ ADeliverNext(s)
         \/ ReplyDNext(s) \/ RecvDNext(s) \/ PushSync(s)
         \/ \E m \in snet : RecvSync(s, m)
         \/ \E t \in Servers : ReqD(s, t) \/ PurgeSync(s, t)
    \/ FaultNext

MutSpec == Init /\ [][MutNext]_vars
\* The search narrowed for issue 18's budget (ACTION_CONSTRAINTs) to the
\* scenario above: the one fault is the client's crash, it connects to A
\* and then to B; a violation found narrowed is a behaviour of MutSpec.
OnlyClientCrash == faults' > faults => lastAction'.name = "ClientCrash"

ConnectAThenB ==
    lastAction'.name = "Connect" =>
        \/ connId = 0 /\ lastAction'.server = "A"
        \/ connId = 1 /\ lastAction'.server = "B"
=============================================================================
