----------------------------- MODULE MutS3AckIntoD -----------------------------
(* A.4 read literally: "Deliver(c, 'Here is note i') ... D = D + {i}" puts  *)
(* the note in D whenever its Deliver succeeds, even when it is no longer  *)
(* in K.  ExactlyOnceS3 read it so until TLC showed the gap; the corrected  *)
(* ReceiveAck (and S3Server.receiveAck) adds i to D only while i is in K    *)
(* (L141-144: "D: the subset of notes in K that are Delivered").  An       *)
(* expected counterexample kept beside the corrected rule, 16 steps       *)
(* without duplication: A delivers n1, the client disconnects (the fault)   *)
(* and connects to B, B sends n1 again, a sync tells B that n1 is in A's D, *)
(* the client acks B's copy as a duplicate, B authorizes the purge and on   *)
(* the client's confirmation drops n1 from K and D; then the ack of B's own *)
(* Deliver arrives: n1 in D[B], not in K[B].                               *)
(* Must violate DWithinK (MutS3AckIntoD.cfg).  The stale entry is inert     *)
(* (every use of D meets K first, as MutS3PurgeKeepsD shows), so DWithinK,  *)
(* the definition itself, is the property that sees it.                    *)
EXTENDS MCExactlyOnceS3

\* The one change: ExactlyOnceS3's ReceiveAck without "while i is in K".
MutReceiveAck(m) ==
    /\ m \in net
    /\ m.type = "ack"
    /\ sess[m.to].pending = <<m.note>>
    /\ net' = Consume(m)
    /\ D' = [D EXCEPT ![m.to] = @ \cup {m.note}]
    /\ sess' = [sess EXCEPT ![m.to].pending = <<>>]
    /\ lastAction' = [name |-> "ReceiveAck", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults, K, known, R>>

MutNext ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ SyncNext(s) \/ AuthorizeNext(s)
    \/ ReceiveNoteNext
    \/ \E m \in net : MutReceiveAck(m)
    \/ PurgeNext
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars
=============================================================================
