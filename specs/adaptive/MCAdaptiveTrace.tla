--------------------------- MODULE MCAdaptiveTrace --------------------------
(* Models that make traces of Adaptive for replay on the Java core         *)
(* (CONVENTIONS.md).  Every CollectGarbage step records the estimate it    *)
(* picked (lastAction.est); the replayer's scripted estimator returns it,  *)
(* so the core collects exactly as the spec did.                           *)
(*                                                                         *)
(* MCAdaptiveTraceSim.cfg: random simulation.  The other cfgs are          *)
(* targeted: their only invariant is a trap NotX == ~X, and TLC's shortest *)
(* (BFS) counterexample is a trace of scenario X from the paper.           *)
EXTENDS MCAdaptive

Rcv == lastAction.name = "Receive"

\* As in MCScmpTrace: random simulation loses a message only from a fuller
\* network, so traces have receptions.  And it collects garbage only right
\* after a Tick, when the table is not empty, like a server that collects
\* periodically (Section 3.2): otherwise the many estimate choices make
\* CollectGarbage most of every random trace.  SimNext implies Next.
SimNext ==
    /\ Next
    /\ lastAction'.name = "Lose" => Cardinality(net) >= 3
    /\ lastAction'.name = "CollectGarbage" => lastAction.name = "Tick" /\ ct # NoEntries
SimSpec == Init /\ [][SimNext]_vars

WasAccepted(c, t) == \E i \in DOMAIN accepted : accepted[i].conn = c /\ accepted[i].ts = t

\* Theorem 2, duplicate half (Lemma 1, Case 3): an entry was garbage
\* collected, upper rose to cover it, and a copy of the accepted message is
\* summary-rejected by upper alone.
GcCopyRejected ==
    /\ Rcv
    /\ lastAction.summaryRejected
    /\ WasAccepted(lastAction.conn, lastAction.ts)
NotGcCopyRejected == ~GcCopyRejected

\* Theorem 2, out-of-order half: a client's later message was accepted, its
\* entry was collected, and its earlier message, arriving now, is rejected
\* by upper although it was never accepted.
GcOlderRejected ==
    /\ Rcv
    /\ lastAction.summaryRejected
    /\ ~WasAccepted(lastAction.conn, lastAction.ts)
    /\ \E i \in DOMAIN accepted : accepted[i].conn = lastAction.conn
                                  /\ accepted[i].ts > lastAction.ts
NotGcOlderRejected == ~GcOlderRejected

\* Section 2, "lost": a message that is neither a duplicate nor out of order
\* is summary-rejected, because an estimate too small for its lifetime let
\* another entry of the table go and raised upper past its timestamp.
\* This is what numrej counts and Conditions 2-3 keep rare.
LostMessage ==
    /\ Rcv
    /\ lastAction.summaryRejected
    /\ ~\E i \in DOMAIN accepted : accepted[i].conn = lastAction.conn
                                   /\ accepted[i].ts >= lastAction.ts
NotLostMessage == ~LostMessage

=============================================================================
