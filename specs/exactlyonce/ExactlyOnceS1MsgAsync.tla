------------------------- MODULE ExactlyOnceS1MsgAsync -------------------------
(***************************************************************************)
(* Strategy 1 with the cores' asynchronous replication (notes Z1, Z2;      *)
(* issue 20 item 1): ExactlyOnceS1Msg with its atomic CreateNote replaced  *)
(* by StreamServer's (and its ReceiveAck by S1Server.remove's, see         *)
(* ReceiveAckAsync).  A note enters its origin's K and reaches every       *)
(* other server later as a Replica on rnet (reordered, delayed, lost by    *)
(* LoseReplica, a fault), where receiveReplica enters it unless the server *)
(* holds it or S1Server.acceptReplica refuses it: its number is at or      *)
(* below the server's prefix for its stream (knownRemoved).  The sync and  *)
(* the sessions are ExactlyOnceS1Msg's.                                    *)
(*                                                                         *)
(* Replicas now arrive out of order, so a server can hold x.2 without x.1  *)
(* and offer it (FirstOfStream looks only at its own K): the client sees a *)
(* gap.  App. A.2's client acknowledges every note it receives; an ack of  *)
(* x.2 makes the server drop it and advance its prefix to 2 ("the ack of   *)
(* x.n certifies x.1 .. x.n processed"), which the syncs then spread, and  *)
(* x.1 is lost everywhere (notes M1-e).  S1Client acknowledges no gap      *)
(* (Verdict.OUT_OF_ORDER, notes Z2).  Two constants select the rules:      *)
(*   AckGaps            TRUE: the printed client (M1-e, refuted by TLC);   *)
(*                      FALSE: S1Client;                                   *)
(*   RefuseBelowPrefix  TRUE: S1Server.acceptReplica; FALSE: a replica at  *)
(*                      or below the prefix enters K.  The answer for a    *)
(*                      late replica below the prefix is immediate: ids    *)
(*                      are never reused and R[x] >= pre[s][x]             *)
(*                      (PrefixWasProcessed, AcceptedPrefix), so the       *)
(*                      client discards the note; the refusal saves a      *)
(*                      Deliver of a note known delivered (NoStaleOffer),  *)
(*                      it is not what keeps exactly-once (TLC: the safety *)
(*                      properties hold without it, a negative control).   *)
(***************************************************************************)
EXTENDS ExactlyOnceS1Msg

CONSTANTS AckGaps, RefuseBelowPrefix

ASSUME RulesAreBoolean == {AckGaps, RefuseBelowPrefix} \subseteq BOOLEAN

VARIABLE rnet   \* replicas on the way: a set of [note, to]

asyncVars == <<vars, rnet>>

\* StreamServer.createNote at x: the note enters x's K only, and a replica
\* goes to every other server.
CreateNoteAt(x) ==
    /\ x \in Origins
    /\ Cardinality(created) < MaxNotes
    /\ LET i == Id(x, ctr[x] + 1) IN
         /\ ctr' = [ctr EXCEPT ![x] = @ + 1]
         /\ K' = [K EXCEPT ![x] = @ \cup {i}]
         /\ created' = created \cup {i}
         /\ rnet' = rnet \cup {[note |-> i, to |-> t] : t \in Servers \ {x}}
         /\ lastAction' = [name |-> "CreateNote", server |-> x, note |-> i]
    /\ UNCHANGED <<net, conn, delivered, faults, sess, R, pre, snet>>

\* StreamServer.receiveReplica with S1Server.acceptReplica (!knownRemoved).
Refused(s, i) == i \in K[s] \/ (RefuseBelowPrefix /\ i.seq <= pre[s][i.server])

ReceiveReplica(r) ==
    /\ r \in rnet
    /\ rnet' = IF AllowDup THEN rnet ELSE rnet \ {r}
    /\ K' = IF Refused(r.to, r.note) THEN K ELSE [K EXCEPT ![r.to] = @ \cup {r.note}]
    /\ lastAction' = [name |-> "ReceiveReplica", server |-> r.to, note |-> r.note,
                      verdict |-> IF Refused(r.to, r.note) THEN "ignored" ELSE "stored"]
    /\ UNCHANGED <<net, conn, created, delivered, faults, ctr, sess, R, pre, snet>>

\* A replica is lost (a fault: one unit of MaxFaults).
LoseReplica(r) ==
    /\ r \in rnet
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ rnet' = rnet \ {r}
    /\ lastAction' = [name |-> "LoseReplica", server |-> r.to, note |-> r.note]
    /\ UNCHANGED <<net, conn, created, delivered, stratVars>>

\* S1Client.receiveNote: the expected note is processed and acknowledged;
\* one at or below R is discarded and acknowledged (processed before); a
\* gap is neither processed nor, unless AckGaps, acknowledged.
Gap(i) == i.seq > R[i.server] + 1

ReceiveNoteAsync(m) ==
    /\ m \in net
    /\ m.type = "note"
    /\ conn # None
    /\ MayReceive
    /\ LET i == m.note IN
         /\ net' = Consume(m) \cup (IF Gap(i) /\ ~AckGaps THEN {} ELSE {AckMsg(m.from, i)})
         /\ IF Expected(i)
            THEN /\ R' = [R EXCEPT ![i.server] = i.seq]
                 /\ delivered' = Append(delivered, i)
            ELSE UNCHANGED <<R, delivered>>
         /\ lastAction' = [name |-> "ReceiveNote", server |-> m.from, note |-> i,
                           verdict |-> IF Expected(i) THEN "accepted"
                                       ELSE IF Gap(i) THEN "outOfOrder" ELSE "discarded"]
    /\ UNCHANGED <<conn, created, faults, ctr, K, sess, pre, snet, rnet>>

\* S1Server.remove (rule "advance"): the ack of x.n moves the prefix to n
\* and K loses every note the prefix covers.  ExactlyOnceS1Msg's ReceiveAck
\* drops the acked note alone, the same under atomic replication (a stream
\* is sent in order, so nothing below it is left); here a late replica of
\* x.1 may sit in K when x.2 is acked.
ReceiveAckAsync(m) ==
    /\ m \in net
    /\ m.type = "ack"
    /\ sess[m.to].pending = <<m.note>>
    /\ net' = Consume(m)
    /\ pre' = [pre EXCEPT ![m.to][m.note.server] = Max(@, m.note.seq)]
    /\ K' = [K EXCEPT ![m.to] = @ \ ({m.note} \cup Expand(pre'[m.to]))]
    /\ sess' = [sess EXCEPT ![m.to].pending = <<>>]
    /\ lastAction' = [name |-> "ReceiveAck", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, R, snet, rnet>>

AsyncInit == Init /\ rnet = {}

AsyncNext ==
    \/ \E x \in Origins : CreateNoteAt(x)
    \/ \E r \in rnet : ReceiveReplica(r) \/ LoseReplica(r)
    \/ \E m \in net : ReceiveNoteAsync(m) \/ ReceiveAckAsync(m)
    \/ Next /\ lastAction'.name \notin {"CreateNote", "ReceiveNote", "ReceiveAck"} /\ UNCHANGED rnet

AsyncSpec == AsyncInit /\ [][AsyncNext]_asyncVars

-----------------------------------------------------------------------------
(* Properties: ExactlyOnceS1Msg's NoDuplicateDelivery, AcceptedPrefix,     *)
(* NoGapAck, PrefixWasProcessed and PrefixWithinCounter; its NotLost and   *)
(* KIsCreatedMinusPrefix are atomic replication's and fail here by         *)
(* construction (a replica on its way).                                    *)

\* The origin keeps its note until the client processed it.
NotLostAtOrigin == \A i \in created : ~Processed(i) => i \in K[i.server]

\* What the refusal gives: a server never offers a note its prefix covers.
NoStaleOffer ==
    [][lastAction'.name = "SendNote" =>
         lastAction'.note.seq > pre[lastAction'.server][lastAction'.note.server]]_asyncVars
=============================================================================
