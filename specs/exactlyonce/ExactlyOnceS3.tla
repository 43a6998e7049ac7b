---------------------------- MODULE ExactlyOnceS3 ----------------------------
(***************************************************************************)
(* Strategy 3, Id List (sec. 3.2, L125-169; App. A.3-A.5), corrected:      *)
(* "Client remembers individual note ids it has received."                 *)
(*                                                                         *)
(* The client keeps in stable storage a list R of at most Q ids.  A note   *)
(* in R is ignored (and acked); a new one is processed and recorded in one *)
(* step (L127); while R is full the client refuses: no processing and no   *)
(* ack (L169, Z8), so the server's Deliver times out and it tries again    *)
(* later.  Each server keeps K (not purged) and D, the subset it knows     *)
(* delivered (L141-144).  A successful Deliver puts the note in D; syncs   *)
(* exchange K and D with the four rules of A.3/A.4; once a server knows    *)
(* the note is in every server's D it authorizes the client to purge it    *)
(* ("Please purge i"), and on the client's ack drops it from K and D.      *)
(*                                                                         *)
(* Corrections to the printed pseudo-code, each needed (see the README):   *)
(* - the session picks a note from K - D as they are at the send (Z5), not *)
(*   from the snapshot U = K - D taken at the session's start; the printed *)
(*   form is ExactlyOnceS3Printed, refuted by TLC (race R3);               *)
(* - a purge is authorized only when no copy of the note can linger in the *)
(*   network (L131: "only when it is sure that m is not lingering in the   *)
(*   network itself"; the T_e wait, Z4), which A.4 omits;                  *)
(* - syncs run periodically as well as after a delivery (L146:            *)
(*   "Periodically or immediately", Z7), so a full R cannot deadlock.      *)
(***************************************************************************)
EXTENDS ExactlyOnceBase

CONSTANTS
    NoteIds,   \* the notes' ids, in creation order (a sequence of strings)
    Q          \* slots of the client's R (L129, Table 1 q)

ASSUME NoteIdsAreStrings ==
    NoteIds \in Seq(STRING) /\ MaxNotes <= Len(NoteIds)
    /\ \A j, k \in DOMAIN NoteIds : j # k => NoteIds[j] # NoteIds[k]
ASSUME SlotsArePositive == Q \in Nat \ {0}

VARIABLES
    K,      \* server, durable: notes not purged (Undelivered and Delivered)
    D,      \* server, durable: the notes of K it knows delivered
    known,  \* server, volatile: known[s][t] = D[t] as t's last sync reply said
    sess,   \* server, volatile: [active, pending] of the HandleClient session
    R       \* client, stable: ids of notes processed and not purged

stratVars == <<K, D, known, sess, R>>
vars == <<baseVars, stratVars, lastAction>>

ActionNames == {"Init", "CreateNote", "Connect", "Disconnect", "StartSession", "SendNote",
                "ReceiveNote", "ReceiveAck", "Timeout", "Sync", "Authorize", "ReceivePurge",
                "ReceivePurgeAck", "ClientCrash", "ServerCrash", "Lose"}

NoteUniverse == {NoteIds[k] : k \in 1..MaxNotes}
Idle == [active |-> FALSE, pending |-> <<>>]
NoneKnown == [t \in Servers |-> {}]

TypeOK ==
    /\ BaseTypeOK
    /\ created \subseteq NoteUniverse
    /\ K \in [Servers -> SUBSET NoteUniverse]
    /\ D \in [Servers -> SUBSET NoteUniverse]
    /\ known \in [Servers -> [Servers -> SUBSET NoteUniverse]]
    /\ sess \in [Servers -> [active : BOOLEAN, pending : Seq(NoteUniverse)]]
    /\ \A s \in Servers : Len(sess[s].pending) <= 1
    /\ R \subseteq NoteUniverse
    /\ \A m \in net : m.note \in NoteUniverse

Init ==
    /\ BaseInit
    /\ K = [s \in Servers |-> {}]
    /\ D = [s \in Servers |-> {}]
    /\ known = [s \in Servers |-> NoneKnown]
    /\ sess = [s \in Servers |-> Idle]
    /\ R = {}

-----------------------------------------------------------------------------
\* L146: "When a note m is created, it is entered into list K on every server."
CreateNote ==
    /\ Cardinality(created) < MaxNotes
    /\ LET i == NoteIds[Cardinality(created) + 1] IN
         /\ K' = [s \in Servers |-> K[s] \cup {i}]
         /\ created' = created \cup {i}
         /\ lastAction' = [name |-> "CreateNote", note |-> i]
    /\ UNCHANGED <<net, conn, delivered, faults, D, known, sess, R>>

Connect(s) == ConnectBase(s) /\ UNCHANGED stratVars
Disconnect == DisconnectBase /\ UNCHANGED stratVars

\* A.3: "Request my notes" arrives and HandleClient is forked.
StartSession(s) ==
    /\ conn = s
    /\ ~sess[s].active
    /\ sess' = [sess EXCEPT ![s] = [active |-> TRUE, pending |-> <<>>]]
    /\ lastAction' = [name |-> "StartSession", server |-> s]
    /\ UNCHANGED <<baseVars, K, D, known, R>>

\* The effect of A.4's Deliver(c, "Here is note i"); which notes may be sent
\* is the caller's business (here and in ExactlyOnceS3Printed).
SendNoteEffect(s, i) ==
    /\ sess[s].active
    /\ sess[s].pending = <<>>
    /\ net' = net \cup {NoteMsg(s, i)}
    /\ sess' = [sess EXCEPT ![s].pending = <<i>>]
    /\ lastAction' = [name |-> "SendNote", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, K, D, known, R>>

\* Corrected (Z5): i is undelivered as far as s knows at the moment of the
\* send, so a note purged or learnt delivered since the session began is
\* never sent.
SendNote(s, i) == i \in K[s] \ D[s] /\ SendNoteEffect(s, i)

\* A.5 with L127 (process and record atomic) and L169 (refuse while full).
Verdict(i) ==
    IF i \in R THEN "duplicate"
    ELSE IF Cardinality(R) < Q THEN "accepted"
    ELSE "refused"

ReceiveNoteWith(m, v) ==
    /\ m \in net
    /\ m.type = "note"
    /\ conn # None
    /\ MayReceive
    /\ LET i == m.note IN
         /\ net' = Consume(m) \cup (IF v = "refused" THEN {} ELSE {AckMsg(m.from, i)})
         /\ IF v = "accepted"
            THEN /\ R' = R \cup {i}
                 /\ delivered' = Append(delivered, i)
            ELSE UNCHANGED <<R, delivered>>
         /\ lastAction' = [name |-> "ReceiveNote", server |-> m.from, note |-> i, verdict |-> v]
    /\ UNCHANGED <<conn, created, faults, K, D, known, sess>>

ReceiveNote(m) == ReceiveNoteWith(m, Verdict(m.note))

\* A.4: Deliver returned success, "D = D + {i}" (the fork of ServerSynch is
\* the Sync action, which may run at any time), for a note still in K.
\* Read with L141-144 ("D: the subset of notes in K that are Delivered"),
\* as S3Server.receiveAck does (`!k.containsKey(i)`: "delivered", no
\* record): the ack of a server's own Deliver can arrive after the note was
\* delivered elsewhere, learnt in every D and purged here (no duplication
\* needed, one disconnect), and A.4's unconditional "D = D + {i}" then puts
\* a purged note in D.  This spec took A.4 literally until TLC showed D
\* leaving K that way in 16 steps (exactlyonce-s3-ack-after-purge, with
\* AllowDup = FALSE, which no earlier model had); the literal reading is
\* kept as mutants/MutS3AckIntoD, refuted by DWithinK.
ReceiveAck(m) ==
    /\ m \in net
    /\ m.type = "ack"
    /\ sess[m.to].pending = <<m.note>>
    /\ net' = Consume(m)
    /\ D' = IF m.note \in K[m.to] THEN [D EXCEPT ![m.to] = @ \cup {m.note}] ELSE D
    /\ sess' = [sess EXCEPT ![m.to].pending = <<>>]
    /\ lastAction' = [name |-> "ReceiveAck", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults, K, known, R>>

\* A.4: `{abort;}`.
Timeout(s) ==
    /\ sess[s].active
    /\ sess[s].pending # <<>>
    /\ LET i == sess[s].pending[1] IN
         /\ faults + TimeoutCost(s, i) <= MaxFaults
         /\ faults' = faults + TimeoutCost(s, i)
         /\ lastAction' = [name |-> "Timeout", server |-> s, note |-> i]
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<net, conn, created, delivered, K, D, known, R>>

\* One whole synchronization, A.4's ServerSynch with A.3's handler, atomic:
\* t applies "P = K - Ks" (the other server has purged these), "P = Ks - K"
\* (we have purged these) and "D = D + Ds" to s's K and D, replies with its
\* new K and D, and s does the same with the reply.  For D within K that
\* leaves both with K[s] \cap K[t] and (D[s] \cup D[t]) \cap that; each
\* remembers the other's D for the purge test of A.4.
Sync(s, t) ==
    /\ s # t
    /\ LET Kn == K[s] \cap K[t]
           Dn == (D[s] \cup D[t]) \cap Kn
       IN /\ (K[s] # K[t] \/ D[s] # D[t] \/ known[s][t] # Dn \/ known[t][s] # Dn)
          /\ K' = [K EXCEPT ![s] = Kn, ![t] = Kn]
          /\ D' = [D EXCEPT ![s] = Dn, ![t] = Dn]
          /\ known' = [known EXCEPT ![s][t] = Dn, ![t][s] = Dn]
    /\ lastAction' = [name |-> "Sync", server |-> s, peer |-> t]
    /\ UNCHANGED <<baseVars, sess, R>>

\* A.4: "P = D[1] intersect ... intersect D[N]" over the replies and s's own
\* D (Z14), "Deliver(c, 'Please purge i')".  L131: and no copy of i can
\* linger in the network (the T_e wait, Z4).
InEveryD(s, i) == i \in D[s] /\ \A t \in Servers \ {s} : i \in known[s][t]

AuthorizeWith(s, i) ==
    /\ i \in K[s]
    /\ Msg("purge", s, Client, i) \notin net
    /\ net' = net \cup {Msg("purge", s, Client, i)}
    /\ lastAction' = [name |-> "Authorize", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, stratVars>>

Authorize(s, i) == InEveryD(s, i) /\ NoCopy(i) /\ AuthorizeWith(s, i)

\* A.5: "if (m.body == 'Please purge i') R = R - {i}", and the ack of Receive.
ReceivePurge(m) ==
    /\ m \in net
    /\ m.type = "purge"
    /\ conn # None
    /\ R' = R \ {m.note}
    /\ net' = Consume(m) \cup {Msg("purgeAck", Client, m.from, m.note)}
    /\ lastAction' = [name |-> "ReceivePurge", server |-> m.from, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults, K, D, known, sess>>

\* A.4: the purge Deliver succeeded, "K = K - {i}; D = D - {i}".  (A failed
\* one is `{continue;}`: nothing changes, and a later sync may authorize
\* again.)
ReceivePurgeAck(m) ==
    /\ m \in net
    /\ m.type = "purgeAck"
    /\ m.note \in K[m.to]
    /\ net' = Consume(m)
    /\ K' = [K EXCEPT ![m.to] = @ \ {m.note}]
    /\ D' = [D EXCEPT ![m.to] = @ \ {m.note}]
    /\ lastAction' = [name |-> "ReceivePurgeAck", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults, known, sess, R>>

ClientCrash == ClientCrashBase /\ UNCHANGED stratVars

\* The session and what s heard in syncs are lost; K and D are durable.
ServerCrash(s) ==
    /\ sess[s] # Idle \/ known[s] # NoneKnown
    /\ ServerCrashBase(s)
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ known' = [known EXCEPT ![s] = NoneKnown]
    /\ UNCHANGED <<K, D, R>>

LoseMsg(m) == Lose(m) /\ UNCHANGED stratVars

-----------------------------------------------------------------------------
SendNext(s)      == \E i \in K[s] : SendNote(s, i)
AuthorizeNext(s) == \E i \in K[s] : Authorize(s, i)
ReceiveNoteNext  == \E m \in net : ReceiveNote(m)
ReceiveAckNext   == \E m \in net : ReceiveAck(m)
PurgeNext        == \E m \in net : ReceivePurge(m) \/ ReceivePurgeAck(m)
ConnectNext      == \E s \in Servers : Connect(s)
SyncNext(s)      == \E t \in Servers : Sync(s, t)
ClientFaultNext  == Disconnect \/ ClientCrash \/ \E m \in net : LoseMsg(m)

Next ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ SyncNext(s) \/ AuthorizeNext(s)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ PurgeNext
    \/ ClientFaultNext

Spec == Init /\ [][Next]_vars

\* The network eventually delivers each message it holds (one at a time:
\* fairness on "some message" would let a refused note starve a copy
\* whose receipt the purge waits for).
MessageFairness(s, i) ==
    /\ WF_vars(ReceiveNote(NoteMsg(s, i)))
    /\ WF_vars(ReceiveAck(AckMsg(s, i)))
    /\ WF_vars(ReceivePurge(Msg("purge", s, Client, i)))
    /\ WF_vars(ReceivePurgeAck(Msg("purgeAck", Client, s, i)))

\* As Strategy 1's, plus periodic syncs (Z7) and purge authorizations, which
\* a full R waits for.  A session picks its next note freely (A.4's foreach
\* has no order), and every note must get its turn: with R full the client
\* refuses the notes it has not processed, and only a Deliver of one it has
\* (acked as "duplicate") puts that one in D and, through the purge, frees
\* the slot.  Hence strong fairness per note: a note that can be sent again
\* and again is eventually sent.
Fairness ==
    /\ WF_vars(ConnectNext)
    /\ \A s \in Servers : /\ WF_vars(StartSession(s)) /\ WF_vars(Timeout(s))
                          /\ WF_vars(AuthorizeNext(s))
                          /\ \A i \in NoteUniverse : SF_vars(SendNote(s, i))
    /\ \A s \in Servers, i \in NoteUniverse : MessageFairness(s, i)
    /\ \A s, t \in Servers : WF_vars(Sync(s, t))

FairSpec == Spec /\ Fairness

-----------------------------------------------------------------------------
(* Properties.                                                              *)

EventualDelivery == \A i \in NoteUniverse : (i \in created) ~> Processed(i)

\* L169 / Table 1 q: R never holds more than its q slots.
RBounded == Cardinality(R) <= Q

\* L141-144: "D: the subset of notes in K that are Delivered".
DWithinK == \A s \in Servers : D[s] \subseteq K[s]

\* A note is in a D only after the client processed it: a successful Deliver
\* means the client took it, and it refuses rather than acks when full.
DImpliesProcessed == \A s \in Servers : \A i \in D[s] : Processed(i)

\* What a sync reply said stays true: a note once in t's D leaves it only
\* with t's K, and then t never sends it again.
KnownSound ==
    \A s, t \in Servers : \A i \in known[s][t] : i \in D[t] \/ i \notin K[t]

\* Servers forget a note only after the client purged it (A.4 drops it from
\* K and D only after "Please purge i" succeeded).
ForgetAfterClient ==
    \A i \in created : (\E s \in Servers : i \notin K[s]) => i \notin R /\ Processed(i)

\* The argument of L162-167: once the client has processed and purged m,
\* "m must be marked either Delivered or Purged on all servers", and (L131)
\* no copy lingers, so no server sends m again and none is on its way.
PurgeSafe ==
    \A i \in created :
        (Processed(i) /\ i \notin R) =>
            /\ \A s \in Servers : i \in D[s] \/ i \notin K[s]
            /\ NoCopy(i)
=============================================================================
