----------------------- MODULE MCExactlyOnceS1Trace -----------------------
(* Models that make traces of Strategy 1 for replay on the Java cores               *)
(* (specs/CONVENTIONS.md).  The Sim cfg is a random simulation; the other    *)
(* cfgs are targeted: their only invariant is a trap NotX == ~X, and TLC's   *)
(* shortest (BFS) counterexample is a trace of scenario X.                   *)
EXTENDS MCExactlyOnceS1

\* Example 1 (L81-85): c got A's note from A; B, not yet synced, sends it
\* again, and c discards it, "because m's sequence number ... is not what is
\* currently expected".
Example1 ==
    /\ lastAction.name = "ReceiveNote"
    /\ lastAction.verdict = "discarded"
    /\ lastAction.server # lastAction.note.server
NotExample1 == ~Example1

\* 3.1: "it is possible for a call to Deliver(T,m) to timeout, while the
\* matching Receive(m) completes successfully".
TimeoutAfterReceive == lastAction.name = "Timeout" /\ Processed(lastAction.note)
NotTimeoutAfterReceive == ~TimeoutAfterReceive

\* A client crash between two notes: R survives, the second note is
\* accepted after the restart.  The model lets the client crash only
\* between the first and second processing, and allows no other fault.
CrashBetweenNext ==
    /\ Next
    /\ lastAction'.name \notin {"Lose", "Disconnect", "ServerCrash", "Timeout"}
    /\ lastAction'.name = "ClientCrash" => Len(delivered) = 1
CrashBetweenSpec == Init /\ [][CrashBetweenNext]_vars
ClientCrashBetweenNotes == Len(delivered) = 2 /\ faults = 1
NotClientCrashBetweenNotes == ~ClientCrashBetweenNotes

\* 3.1, the Deliver outcome "timeout, message lost": the note is lost and the
\* server's Deliver times out; the note is still in every K for later.
LostThenTimeout ==
    lastAction.name = "Timeout" /\ ~Processed(lastAction.note) /\ NoCopy(lastAction.note)
NotLostThenTimeout == ~LostThenTimeout
=============================================================================
