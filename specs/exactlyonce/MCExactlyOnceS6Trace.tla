----------------------- MODULE MCExactlyOnceS6Trace -----------------------
(* Models that make traces of Strategy 6 for replay on the Java cores        *)
(* (specs/CONVENTIONS.md).  The Sim cfg is a random simulation; the other    *)
(* cfgs are targeted: their only invariant is a trap NotX == ~X, and TLC's   *)
(* shortest (BFS) counterexample is a trace of scenario X.                   *)
EXTENDS MCExactlyOnceS6

\* Example 6 (L250): A delivered m1; c connects to B with H(A) = t1; B makes
\* sure it has synchronized with A after t1 (here: it pulls D_A).
Example6 ==
    /\ lastAction.name = "EndGather"
    /\ lastAction.server = "B"
    /\ "A" \in sess["B"].stale /\ H["A"] >= 0
    /\ \E i \in created : Processed(i) /\ i \in D["A"] /\ i \in D["B"]
NotExample6 == ~Example6

\* L254, Z17: the client lost H (detectably) after a delivery; the next
\* server pulls from every other server, as in S4.
LostHistory ==
    /\ lastAction.name = "EndGather"
    /\ HistoryLost
    /\ Len(delivered) >= 1
NotLostHistory == ~LostHistory

\* Z17: the client crashed in mid-connection, H(A) stays Open, and the next
\* server must pull from A.
CrashOpen ==
    /\ lastAction.name = "StartSession"
    /\ \E t \in lastAction.stale : H[t] = Open
NotCrashOpen == ~CrashOpen

\* L252: c connected to A, then to B, never to C; B cannot talk to C but
\* delivers.
IrrelevantPartition ==
    /\ lastAction.name = "ADeliverOK"
    /\ Cut # {}
    /\ \E t \in Servers \ {lastAction.server} : H[t] >= 0
NotIrrelevantPartition == ~IrrelevantPartition
\* Coverage of the fault steps, each the replayer must map: aDeliver returns
\* error (L193); a server crashes during a session (Z13: K, D, TS durable);
\* the client crashes during a connection; a message between servers is
\* lost.
ADeliverFailed == lastAction.name = "ADeliverErr"
NotADeliverFailed == ~ADeliverFailed
ServerCrashed == lastAction.name = "ServerCrash"
NotServerCrashed == ~ServerCrashed
ClientCrashed == lastAction.name = "ClientCrash" /\ TRUE
NotClientCrashed == ~ClientCrashed
LostMessage == lastAction.name = "Lose"
NotLostMessage == ~LostMessage
GatherFailed == lastAction.name = "GatherFail"
NotGatherFailed == ~GatherFailed

\* Time as the cores keep it (issue 20 item 3): a freshness decision the
\* margins decide.  t's sync is later than the client's end time H(t), but
\* by exactly 2*skew + T_e, so s pulls from t; dropping either part of the
\* margin would count it fresh.
MarginDecides ==
    /\ lastAction.name = "StartSession"
    /\ Te > 0 /\ SkewAllowance > 0
    /\ \E t \in lastAction.stale :
           H[t] >= 0 /\ TS[lastAction.server][t] = H[t] + HistoryMargin
NotMarginDecides == ~MarginDecides
=============================================================================
