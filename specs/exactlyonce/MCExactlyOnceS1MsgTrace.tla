--------------------- MODULE MCExactlyOnceS1MsgTrace ---------------------
(* Models that make traces of ExactlyOnceS1Msg (the sync as messages, a    *)
(* delivered prefix per stream) for replay on the Java cores               *)
(* (specs/CONVENTIONS.md).  The Sim cfg is a random simulation; the        *)
(* targeted cfgs have one invariant, a trap NotX == ~X, so TLC's shortest  *)
(* (BFS) counterexample is a trace of scenario X.                          *)
(*                                                                         *)
(* staleMerged is a history variable (it changes nothing the spec reads):  *)
(* it records that a sync message was merged although its prefix of some  *)
(* stream was below the receiver's, the case rule "merge" (max) exists     *)
(* for.  A trap on a state cannot see a consumed message; the history      *)
(* variable can.  The replayer compares only the spec's variables.         *)
EXTENDS MCExactlyOnceS1Msg

VARIABLE staleMerged

MergedStale ==
    \E m \in snet :
        /\ m \notin snet'
        /\ lastAction'.name \in {"HandleSync", "ReceiveSyncReply"}
        /\ m.to = lastAction'.server /\ m.from = lastAction'.peer
        /\ \E x \in Origins : m.pre[x] < pre[m.to][x]

TraceInit == Init /\ staleMerged = FALSE
TraceNext == Next /\ staleMerged' = (staleMerged \/ MergedStale)
TraceSpec == TraceInit /\ [][TraceNext]_<<vars, staleMerged>>

\* A stale sync: a message built before its receiver learned more of a
\* stream arrives, and the receiver keeps the larger prefix.
NotStaleMerged == ~staleMerged

\* A server learns of a delivery at another server only through a sync:
\* B's prefix of A's stream moves while B delivered nothing of it.
LearnedBySync ==
    /\ lastAction.name = "ReceiveSyncReply"
    /\ \E x \in Origins : pre[lastAction.server][x] > 0 /\ K[lastAction.server] = {}
NotLearnedBySync == ~LearnedBySync

\* 3.1, the Deliver outcome "timeout, message lost": the note is lost and the
\* server's Deliver times out; the note stays in K, and no prefix moves.
LostThenTimeout ==
    lastAction.name = "Timeout" /\ ~Processed(lastAction.note) /\ NoCopy(lastAction.note)
NotLostThenTimeout == ~LostThenTimeout
=============================================================================
