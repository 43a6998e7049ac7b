----------------------- MODULE MCExactlyOnceS3Trace -----------------------
(* Models that make traces of Strategy 3 for replay on the Java cores               *)
(* (specs/CONVENTIONS.md).  The Sim cfg is a random simulation; the other    *)
(* cfgs are targeted: their only invariant is a trap NotX == ~X, and TLC's   *)
(* shortest (BFS) counterexample is a trace of scenario X.                   *)
EXTENDS MCExactlyOnceS3

\* Example 3 (L148-160): c got m1 from A; before A's sync reaches B, c
\* connects to B, which sends m1 again; "c will simply ignore it because m1
\* is already in R_c" (and acks it, so m1 enters B's D as well).
Example3 ==
    /\ lastAction.name = "ReceiveNote"
    /\ lastAction.verdict = "duplicate"
    /\ \E t \in Servers \ {lastAction.server} : lastAction.note \in D[t]
    /\ lastAction.note \notin D[lastAction.server]
NotExample3 == ~Example3

\* L169: R is full, the client refuses a new note (no processing, no ack).
RFull == lastAction.name = "ReceiveNote" /\ lastAction.verdict = "refused"
NotRFull == ~RFull

\* L146 and A.4: a note in every D is authorized, purged from R, and its
\* server drops it from K and D on the client's ack.
PurgeDone == lastAction.name = "ReceivePurgeAck"
NotPurgeDone == ~PurgeDone

\* 3.1, the Deliver outcome "timeout, message lost": the note is lost and the
\* server's Deliver times out; the note is still in every K for later.
LostThenTimeout ==
    lastAction.name = "Timeout" /\ ~Processed(lastAction.note) /\ NoCopy(lastAction.note)
NotLostThenTimeout == ~LostThenTimeout
\* The corrected ReceiveAck (L141-144): the ack of a server's own Deliver
\* arrives after that server purged the note; D is left alone.  Needs no
\* duplication and one disconnect (exactlyonce-s3-ack-after-purge).
AckAfterPurge ==
    lastAction.name = "ReceiveAck" /\ lastAction.note \notin K[lastAction.server]
NotAckAfterPurge == ~AckAfterPurge
=============================================================================
