---------------------------- MODULE ExactlyOnceS0 ----------------------------
(***************************************************************************)
(* Strategy 0, the at-least-once reference (App. B.1, L809-813): "an       *)
(* at-least-once algorithm that can potentially result in duplicate        *)
(* deliveries ... note delivery can start right after the client requests  *)
(* a connection."  The paper gives no protocol text; as the notes propose  *)
(* (Z16) it is Strategy 1's server (deliver, remove on success, abort on   *)
(* failure, purge by sync) with a client that keeps no state and processes *)
(* every note it receives.                                                 *)
(*                                                                         *)
(* Expected: NoDuplicateDelivery is refuted (a lost ack, or a server that  *)
(* has not heard of a delivery, resends and the client processes again:    *)
(* the situation of Example 1 without R), and at-least-once delivery,      *)
(* EventualDelivery, holds.  The counterexample is kept in the manifest as *)
(* the reason strategies 1-3 exist.                                        *)
(***************************************************************************)
EXTENDS ExactlyOnceBase

CONSTANT NoteIds   \* the notes' ids, in creation order (a sequence of strings)

ASSUME NoteIdsAreStrings ==
    NoteIds \in Seq(STRING) /\ MaxNotes <= Len(NoteIds)
    /\ \A j, k \in DOMAIN NoteIds : j # k => NoteIds[j] # NoteIds[k]

VARIABLES
    K,      \* server, durable: to-be-delivered notes
    sess    \* server, volatile: [active, pending] of the HandleClient session

stratVars == <<K, sess>>
vars == <<baseVars, stratVars, lastAction>>

ActionNames == {"Init", "CreateNote", "Connect", "Disconnect", "StartSession", "SendNote",
                "ReceiveNote", "ReceiveAck", "Timeout", "Sync", "ClientCrash", "ServerCrash", "Lose"}

NoteUniverse == {NoteIds[k] : k \in 1..MaxNotes}
Idle == [active |-> FALSE, pending |-> <<>>]

TypeOK ==
    /\ BaseTypeOK
    /\ created \subseteq NoteUniverse
    /\ K \in [Servers -> SUBSET NoteUniverse]
    /\ sess \in [Servers -> [active : BOOLEAN, pending : Seq(NoteUniverse)]]
    /\ \A m \in net : m.type \in {"note", "ack"} /\ m.note \in NoteUniverse

Init ==
    /\ BaseInit
    /\ K = [s \in Servers |-> {}]
    /\ sess = [s \in Servers |-> Idle]

-----------------------------------------------------------------------------
CreateNote ==
    /\ Cardinality(created) < MaxNotes
    /\ LET i == NoteIds[Cardinality(created) + 1] IN
         /\ K' = [s \in Servers |-> K[s] \cup {i}]
         /\ created' = created \cup {i}
         /\ lastAction' = [name |-> "CreateNote", note |-> i]
    /\ UNCHANGED <<net, conn, delivered, faults, sess>>

Connect(s) == ConnectBase(s) /\ UNCHANGED stratVars
Disconnect == DisconnectBase /\ UNCHANGED stratVars

StartSession(s) ==
    /\ conn = s
    /\ ~sess[s].active
    /\ sess' = [sess EXCEPT ![s] = [active |-> TRUE, pending |-> <<>>]]
    /\ lastAction' = [name |-> "StartSession", server |-> s]
    /\ UNCHANGED <<baseVars, K>>

SendNote(s, i) ==
    /\ sess[s].active
    /\ sess[s].pending = <<>>
    /\ i \in K[s]
    /\ net' = net \cup {NoteMsg(s, i)}
    /\ sess' = [sess EXCEPT ![s].pending = <<i>>]
    /\ lastAction' = [name |-> "SendNote", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, K>>

\* The at-least-once client: no state, every note is processed and acked.
ReceiveNote(m) ==
    /\ m \in net
    /\ m.type = "note"
    /\ conn # None
    /\ MayReceive
    /\ net' = Consume(m) \cup {AckMsg(m.from, m.note)}
    /\ delivered' = Append(delivered, m.note)
    /\ lastAction' = [name |-> "ReceiveNote", server |-> m.from, note |-> m.note, verdict |-> "accepted"]
    /\ UNCHANGED <<conn, created, faults, K, sess>>

ReceiveAck(m) ==
    /\ m \in net
    /\ m.type = "ack"
    /\ sess[m.to].pending = <<m.note>>
    /\ net' = Consume(m)
    /\ K' = [K EXCEPT ![m.to] = @ \ {m.note}]
    /\ sess' = [sess EXCEPT ![m.to].pending = <<>>]
    /\ lastAction' = [name |-> "ReceiveAck", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults>>

Timeout(s) ==
    /\ sess[s].active
    /\ sess[s].pending # <<>>
    /\ LET i == sess[s].pending[1] IN
         /\ faults + TimeoutCost(s, i) <= MaxFaults
         /\ faults' = faults + TimeoutCost(s, i)
         /\ lastAction' = [name |-> "Timeout", server |-> s, note |-> i]
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<net, conn, created, delivered, K>>

Sync(s, t) ==
    /\ s # t
    /\ K[s] # K[t]
    /\ K' = [K EXCEPT ![s] = K[s] \cap K[t], ![t] = K[s] \cap K[t]]
    /\ lastAction' = [name |-> "Sync", server |-> s, peer |-> t]
    /\ UNCHANGED <<baseVars, sess>>

ClientCrash == ClientCrashBase /\ UNCHANGED stratVars

ServerCrash(s) ==
    /\ sess[s] # Idle
    /\ ServerCrashBase(s)
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED K

LoseMsg(m) == Lose(m) /\ UNCHANGED stratVars

-----------------------------------------------------------------------------
SendNext(s)     == \E i \in K[s] : SendNote(s, i)
ReceiveNoteNext == \E m \in net : ReceiveNote(m)
ReceiveAckNext  == \E m \in net : ReceiveAck(m)
ConnectNext     == \E s \in Servers : Connect(s)
ClientFaultNext == Disconnect \/ ClientCrash \/ \E m \in net : LoseMsg(m)

Next ==
    \/ CreateNote
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ \E t \in Servers : Sync(s, t)
    \/ ReceiveNoteNext
    \/ ReceiveAckNext
    \/ ClientFaultNext

Spec == Init /\ [][Next]_vars

Fairness ==
    /\ WF_vars(ConnectNext)
    /\ \A s \in Servers : WF_vars(StartSession(s)) /\ WF_vars(SendNext(s)) /\ WF_vars(Timeout(s))
    /\ WF_vars(ReceiveNoteNext)
    /\ WF_vars(ReceiveAckNext)
    /\ \A s, t \in Servers : WF_vars(Sync(s, t))

FairSpec == Spec /\ Fairness

\* At-least-once (L51: "should be delivered at least once").
EventualDelivery == \A i \in NoteUniverse : (i \in created) ~> Processed(i)
=============================================================================
