--------------------- MODULE MCExactlyOnceS2MsgTrace ---------------------
(* Models that make traces of ExactlyOnceS2Msg (Strategy 2's sync as       *)
(* request and reply messages) for replay on S2Server/StreamServer         *)
(* (specs/CONVENTIONS.md; issue 20 item 1).  The Sim cfg is a random       *)
(* simulation; the targeted cfgs have one invariant, a trap NotX == ~X, so *)
(* TLC's shortest (BFS) counterexample is a trace of scenario X.           *)
(*                                                                         *)
(* staleHeld is a history variable (it changes nothing the spec reads): the *)
(* types of the sync messages merged whose removals name a wire id the      *)
(* receiver holds in an incarnation numbered above the message's seen       *)
(* (rule "merge": the watermark keeps it).  A trap on a state cannot see a  *)
(* consumed message; the history variable can.  The replayer compares only  *)
(* the spec's variables.                                                    *)
EXTENDS MCExactlyOnceS2Msg

VARIABLE staleHeld

MergedStale ==
    {m.type : m \in {m \in snet :
        /\ m \notin snet'
        /\ lastAction'.name \in {"HandleSync", "ReceiveSyncReply"}
        /\ m.to = lastAction'.server /\ m.from = lastAction'.peer
        /\ \E w \in m.removed : HeldNewer(m.to, w, m.seen)}}

TraceInit == Init /\ staleHeld = {}
TraceNext == Next /\ staleHeld' = staleHeld \cup MergedStale
TraceSpec == TraceInit /\ [][TraceNext]_<<vars, staleHeld>>

\* The stale sync: a message built before A reused a number arrives after
\* the reuse, names the old incarnation removed, and the new one stays.
NotStaleHeld == staleHeld = {}

\* The same with a reply: B answers A's request listing the old A.0 removed,
\* A reuses seq 0 (on the confirmation of an earlier round) before the
\* reply arrives, and the new A.0 stays.
NotStaleReplyHeld == "syncRep" \notin staleHeld

\* Example 2's situation under Condition 1 with the sync as messages: seq 0
\* of stream A is reused only after B's reply confirmed A.1 gone, and the
\* new A.0 is processed.
ReuseUnderCondition1 == \E i \in created : i.inc = 1 /\ i.seq = 0 /\ Processed(i)
NotReuseUnderCondition1 == ~ReuseUnderCondition1

\* A server restarts with a session open after it delivered a note and
\* synced: everything but the session is durable (Z13), so the rebuilt core
\* must hold K, removed, round, issued, seen, entered and conf as before.
CrashAfterSync ==
    /\ lastAction.name = "ServerCrash"
    /\ round[lastAction.server] >= 1
    /\ removed[lastAction.server] # {}
    /\ K[lastAction.server] # {}
NotCrashAfterSync == ~CrashAfterSync

\* 3.1, the Deliver outcome "timeout, message lost": the note is lost and the
\* server's Deliver times out; the note stays in K.
LostThenTimeout ==
    lastAction.name = "Timeout" /\ ~Processed(lastAction.note) /\ NoCopy(lastAction.note)
NotLostThenTimeout == ~LostThenTimeout
=============================================================================
