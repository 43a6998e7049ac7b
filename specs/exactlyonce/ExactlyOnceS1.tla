---------------------------- MODULE ExactlyOnceS1 ----------------------------
(***************************************************************************)
(* Strategy 1, Sequenced Streams (sec. 3.2, L71-89; App. A.1, A.2):       *)
(* "Client remembers latest sequence number from each server.  Sequence    *)
(* numbers are taken from an infinite domain."                             *)
(*                                                                         *)
(* A note created at server x gets id x.n, n = x's counter + 1 (L75); it   *)
(* is in every K at once (Z1).  A server delivers each stream in order,    *)
(* one Deliver at a time, and aborts its session on a failed Deliver       *)
(* (A.1 `{abort;}`), so a stream never gets a gap.  The client accepts    *)
(* x.n only if n = R[x] + 1 and then, in the same step, processes it and   *)
(* records n (L77, L530: atomic, R in stable storage); it acknowledges     *)
(* every note it receives (A.2: the ack is part of Receive).  Servers      *)
(* synchronize to purge delivered notes (L79; the message is not given,    *)
(* Z15: here one atomic exchange after which both keep what both still     *)
(* have, sound under atomic replication).                                  *)
(***************************************************************************)
EXTENDS ExactlyOnceBase

CONSTANT Origins   \* servers at which notes are generated (a model bound)

ASSUME OriginsAreServers == Origins # {} /\ Origins \subseteq Servers

VARIABLES
    ctr,    \* server, durable: last sequence number issued (L75)
    K,      \* server, durable: to-be-delivered notes (L79)
    sess,   \* server, volatile: [active, pending] of the HandleClient session
    R       \* client, stable: R[x] = last accepted seq of stream x (L77)

stratVars == <<ctr, K, sess, R>>
vars == <<baseVars, stratVars, lastAction>>

ActionNames == {"Init", "CreateNote", "Connect", "Disconnect", "StartSession", "SendNote",
                "ReceiveNote", "ReceiveAck", "Timeout", "Sync", "ClientCrash", "ServerCrash", "Lose"}

Id(x, n) == [server |-> x, seq |-> n]
NoteUniverse == {Id(x, n) : x \in Origins, n \in 1..MaxNotes}
Idle == [active |-> FALSE, pending |-> <<>>]

TypeOK ==
    /\ BaseTypeOK
    /\ created \subseteq NoteUniverse
    /\ ctr \in [Servers -> 0..MaxNotes]
    /\ K \in [Servers -> SUBSET NoteUniverse]
    /\ sess \in [Servers -> [active : BOOLEAN, pending : Seq(NoteUniverse)]]
    /\ \A s \in Servers : Len(sess[s].pending) <= 1
    /\ R \in [Servers -> 0..MaxNotes]
    /\ \A m \in net : m.type \in {"note", "ack"} /\ m.note \in NoteUniverse

Init ==
    /\ BaseInit
    /\ ctr = [s \in Servers |-> 0]
    /\ K = [s \in Servers |-> {}]
    /\ sess = [s \in Servers |-> Idle]
    /\ R = [s \in Servers |-> 0]

-----------------------------------------------------------------------------
\* L75: "Each server keeps a sequence number counter, which is incremented
\* for each new note generated at that server"; replicated at once (Z1).
CreateNote(x) ==
    /\ x \in Origins
    /\ Cardinality(created) < MaxNotes
    /\ LET i == Id(x, ctr[x] + 1) IN
         /\ ctr' = [ctr EXCEPT ![x] = @ + 1]
         /\ K' = [s \in Servers |-> K[s] \cup {i}]
         /\ created' = created \cup {i}
         /\ lastAction' = [name |-> "CreateNote", server |-> x, note |-> i]
    /\ UNCHANGED <<net, conn, delivered, faults, sess, R>>

Connect(s) == ConnectBase(s) /\ UNCHANGED stratVars
Disconnect == DisconnectBase /\ UNCHANGED stratVars

\* A.1: "Request my notes" arrives and HandleClient is forked.  A client
\* that is connected and has no session asks again (its Receive timed out,
\* A.2 `{abort;}`), so the request needs no fault of its own.
StartSession(s) ==
    /\ conn = s
    /\ ~sess[s].active
    /\ sess' = [sess EXCEPT ![s] = [active |-> TRUE, pending |-> <<>>]]
    /\ lastAction' = [name |-> "StartSession", server |-> s]
    /\ UNCHANGED <<baseVars, ctr, K, R>>

\* The next note of its stream: K is "sorted by increasing sequence number
\* for each stream" (L79) and A.1 walks it in that order; which stream goes
\* next is free (Z20).
FirstOfStream(s, i) == ~\E j \in K[s] : j.server = i.server /\ j.seq < i.seq

\* A.1: Deliver(c, "Here is note i"), one at a time.
SendNote(s, i) ==
    /\ sess[s].active
    /\ sess[s].pending = <<>>
    /\ i \in K[s]
    /\ FirstOfStream(s, i)
    /\ net' = net \cup {NoteMsg(s, i)}
    /\ sess' = [sess EXCEPT ![s].pending = <<i>>]
    /\ lastAction' = [name |-> "SendNote", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, K, R>>

\* A.2 with the remark of L530: accept, process and record are one step.
Expected(i) == i.seq = R[i.server] + 1

ReceiveNote(m) ==
    /\ m \in net
    /\ m.type = "note"
    /\ conn # None
    /\ MayReceive
    /\ LET i == m.note IN
         /\ net' = Consume(m) \cup {AckMsg(m.from, i)}
         /\ IF Expected(i)
            THEN /\ R' = [R EXCEPT ![i.server] = i.seq]
                 /\ delivered' = Append(delivered, i)
            ELSE UNCHANGED <<R, delivered>>
         /\ lastAction' = [name |-> "ReceiveNote", server |-> m.from, note |-> i,
                           verdict |-> IF Expected(i) THEN "accepted" ELSE "discarded"]
    /\ UNCHANGED <<conn, created, faults, ctr, K, sess>>

\* A.1: Deliver returned success, "K = K - {i}".
ReceiveAck(m) ==
    /\ m \in net
    /\ m.type = "ack"
    /\ sess[m.to].pending = <<m.note>>
    /\ net' = Consume(m)
    /\ K' = [K EXCEPT ![m.to] = @ \ {m.note}]
    /\ sess' = [sess EXCEPT ![m.to].pending = <<>>]
    /\ lastAction' = [name |-> "ReceiveAck", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults, ctr, R>>

\* A.1: Deliver failed, `{abort;}`: the session ends, so the rest of the
\* stream is not attempted and no gap can reach the client.
Timeout(s) ==
    /\ sess[s].active
    /\ sess[s].pending # <<>>
    /\ LET i == sess[s].pending[1] IN
         /\ faults + TimeoutCost(s, i) <= MaxFaults
         /\ faults' = faults + TimeoutCost(s, i)
         /\ lastAction' = [name |-> "Timeout", server |-> s, note |-> i]
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<net, conn, created, delivered, ctr, K, R>>

\* L79: servers "periodically synchronize with each other to purge notes
\* that have been delivered".  Under atomic replication a note one of them
\* no longer has was delivered; both drop it.  One whole exchange.
Sync(s, t) ==
    /\ s # t
    /\ K[s] # K[t]
    /\ K' = [K EXCEPT ![s] = K[s] \cap K[t], ![t] = K[s] \cap K[t]]
    /\ lastAction' = [name |-> "Sync", server |-> s, peer |-> t]
    /\ UNCHANGED <<baseVars, ctr, sess, R>>

\* R is in stable storage and survives (L77).
ClientCrash == ClientCrashBase /\ UNCHANGED stratVars

\* The session and its pending Deliver are lost; ctr and K are durable (Z13).
ServerCrash(s) ==
    /\ sess[s] # Idle
    /\ ServerCrashBase(s)
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<ctr, K, R>>

LoseMsg(m) == Lose(m) /\ UNCHANGED stratVars

-----------------------------------------------------------------------------
(* Next is a disjunction of named sub-actions so a mutant can replace one. *)
CreateNext      == \E x \in Origins : CreateNote(x)
SendNext(s)     == \E i \in K[s] : SendNote(s, i)
ReceiveNoteNext == \E m \in net : ReceiveNote(m)
ReceiveAckNext  == \E m \in net : ReceiveAck(m)
ConnectNext     == \E s \in Servers : Connect(s)
ClientFaultNext == Disconnect \/ ClientCrash \/ \E m \in net : LoseMsg(m)

Next ==
    \/ CreateNext
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ \E t \in Servers : Sync(s, t)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ ClientFaultNext

Spec == Init /\ [][Next]_vars

\* The liveness argument (L87): the client "will eventually request notes
\* from a server, and that server will have m".  Faults end (MaxFaults);
\* then the client connects, sessions start, the network delivers, acks
\* arrive, a Deliver that did fail times out, and syncs succeed.
Fairness ==
    /\ WF_vars(ConnectNext)
    /\ \A s \in Servers : WF_vars(StartSession(s)) /\ WF_vars(SendNext(s)) /\ WF_vars(Timeout(s))
    /\ WF_vars(ReceiveNoteNext)
    /\ WF_vars(ReceiveAckNext)
    /\ \A s, t \in Servers : WF_vars(Sync(s, t))

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
(* Properties.                                                              *)

\* Exactly-once, liveness half (L47 "eventually delivered"; L87).
EventualDelivery == \A i \in NoteUniverse : (i \in created) ~> Processed(i)

\* L87: "in effect the client remembers all the notes it has ever received":
\* of each stream, exactly the prefix up to R[x] has been processed.
AcceptedPrefix ==
    \A x \in Origins : \A n \in 1..ctr[x] : Processed(Id(x, n)) <=> n <= R[x]

\* Z2: the client acknowledges every note, so a gap note (n > R[x] + 1) would
\* be acked unprocessed and dropped.  In-order sending with abort keeps every
\* ack for a note the client has accepted.
NoGapAck == \A m \in net : m.type = "ack" => m.note.seq <= R[m.note.server]

\* L87: "servers only delete a note after the note has been delivered
\* successfully": every unaccepted note is still in every K.
NotLost ==
    \A x \in Origins : \A n \in (R[x] + 1)..ctr[x] : \A s \in Servers : Id(x, n) \in K[s]

\* Ids are unique (L75): the client never runs ahead of a counter.
RWithinCounter == \A x \in Servers : R[x] <= ctr[x]
=============================================================================
