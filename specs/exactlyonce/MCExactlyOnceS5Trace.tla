----------------------- MODULE MCExactlyOnceS5Trace -----------------------
(* Models that make traces of Strategy 5 for replay on the Java cores        *)
(* (specs/CONVENTIONS.md).  The Sim cfg is a random simulation; the other    *)
(* cfgs are targeted: their only invariant is a trap NotX == ~X, and TLC's   *)
(* shortest (BFS) counterexample is a trace of scenario X.                   *)
EXTENDS MCExactlyOnceS5

\* Example 5 (L231-236): c got m1 from A, then, T_r later, connects to B.
\* Case (i): B's latest sync from A was sent within T_r, so B does not pull
\* from A and already has m1 in D.
Example5i ==
    /\ lastAction.name = "StartSession"
    /\ lastAction.server = "B" /\ connId >= 2
    /\ \E i \in created : Processed(i) /\ i \in D["A"] /\ i \in D["B"]
    /\ lastAction.stale = {}
NotExample5i == ~Example5i

\* Case (ii): A's sync at B is older than T_r, B pulls D_A before delivering.
Example5ii ==
    /\ lastAction.name = "EndGather"
    /\ lastAction.server = "B" /\ connId >= 2
    /\ "A" \in sess["B"].stale
    /\ \E i \in created : Processed(i) /\ i \in D["A"] /\ i \in D["B"]
NotExample5ii == ~Example5ii

\* Z10: the client reconnects exactly T_r after the end of its last
\* connection (footnote 3), after a delivery; the server takes the boundary
\* as stale and pulls.
ReconnectAtTr ==
    /\ lastAction.name = "StartSession"
    /\ lastEnd # Never /\ now = lastEnd + Tr
    /\ Len(delivered) >= 1
    /\ lastAction.stale # {}
NotReconnectAtTr == ~ReconnectAtTr

GatherFailed == lastAction.name = "GatherFail"
NotGatherFailed == ~GatherFailed
\* Coverage of the fault steps, each the replayer must map: aDeliver returns
\* error (L193); a server crashes during a session (Z13: K, D, TS durable);
\* the client crashes during a connection; a message between servers is
\* lost.
ADeliverFailed == lastAction.name = "ADeliverErr"
NotADeliverFailed == ~ADeliverFailed
ServerCrashed == lastAction.name = "ServerCrash"
NotServerCrashed == ~ServerCrashed
\* (connId >= 1: with one fault the crash is in a connection, not
\* ClientCrashAway before any.)
ClientCrashed == lastAction.name = "ClientCrash" /\ lastEnd # Never /\ connId >= 1
NotClientCrashed == ~ClientCrashed
\* ClientCrashAway: the client leaves A at 0 and crashes while away at 1,
\* so its reboot moves the end T_r counts from (lastEnd 0 -> 1) and the
\* replayer must build the rebooted client with the crash time (S5Client
\* waits T_r from its reboot).  The narrowing (an ACTION_CONSTRAINT of the
\* cfg) makes that the only shortest way: the faults are moves and crashes
\* while away, time passes only while the client is away, and its first
\* connection is at 0.
CrashAwayNarrowing ==
    /\ faults' > faults => \/ lastAction'.name = "Disconnect"
                           \/ lastAction'.name = "ClientCrash" /\ conn = None
    /\ lastAction'.name = "Tick" => conn = None
    /\ lastAction'.name = "Connect" /\ connId = 0 => now = 0
CrashedAway == lastAction.name = "ClientCrash" /\ connId >= 1 /\ now >= 1
NotCrashedAway == ~CrashedAway
LostMessage == lastAction.name = "Lose"
NotLostMessage == ~LostMessage

\* Time as the cores keep it (issue 20 item 3): a freshness decision the
\* margins decide.  t's sync is stale at s only because the window is
\* T_r - 2*skew - T_e: it is exactly at the bound, so dropping either part
\* of the margin would count it fresh.
MarginDecides ==
    /\ lastAction.name = "StartSession"
    /\ Te > 0 /\ SkewAllowance > 0
    /\ \E t \in lastAction.stale : TS[lastAction.server][t] = Clock(lastAction.server) - Window
NotMarginDecides == ~MarginDecides
=============================================================================
