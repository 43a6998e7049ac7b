--------------------------- MODULE ExactlyOnceS0Msg ---------------------------
(***************************************************************************)
(* Strategy 0 (App. B.1; protocol ours, notes Z16) with replication and    *)
(* the purge sync as messages, and bounded removal knowledge (issue 19     *)
(* item 1).  S0's ids are named by the caller, not numbered per stream, so *)
(* no prefix summarises them; the rule here forgets a removed id once T_e  *)
(* has passed and no copy of it can remain.                                *)
(*                                                                         *)
(* Why a server keeps removed ids at all (StreamServer.removed,            *)
(* acceptReplica): a note is created at one server and replicated to the   *)
(* others by messages (S1's "it will be replicated to all the other        *)
(* servers", L75, which S0's server shares, Z16); a replica that arrives   *)
(* after its note was delivered and purged must not enter K again, or the *)
(* note is offered to the client once more after every server knew it     *)
(* delivered.  So this spec, unlike ExactlyOnceS0, replicates             *)
(* asynchronously (Replicate messages on rnet) and syncs by messages       *)
(* (requests and replies on snet carrying the removed ids, merged as       *)
(* StreamServer.merge does).                                               *)
(*                                                                         *)
(* The rule Forget(s, i): i leaves removed[s] once every other server     *)
(* confirmed it and no replica of i is left in rnet.  That is what waiting *)
(* T_e after the last confirmation achieves (S0Server): the replicas were *)
(* sent at creation, before anyone could confirm i (ExactlyOnceBase, "Time *)
(* is abstracted"; the paper bounds a message's life by T_e, sec. 3.2).    *)
(* After it, nothing can bring i back into K.  Other copies need no wait:  *)
(* a late sync message naming i puts it back into removed, a late note or *)
(* ack is the at-least-once client's business; TLC checks that (the ci    *)
(* and deep models: the rule waits for replicas only, NoResurrection and   *)
(* the refinement hold).  With Compact = FALSE the rule *)
(* is off: the unbounded level, the cores today, which the compacted level *)
(* refines (MCExactlyOnceS0Msg).  The ghost `gone` keeps what was         *)
(* forgotten, for the property and the mapping only.                      *)
(***************************************************************************)
EXTENDS ExactlyOnceBase

CONSTANTS
    NoteIds,  \* the notes' ids, in creation order (a sequence of strings)
    Compact   \* is the Forget rule on?

ASSUME NoteIdsAreStrings ==
    NoteIds \in Seq(STRING) /\ MaxNotes <= Len(NoteIds)
    /\ \A j, k \in DOMAIN NoteIds : j # k => NoteIds[j] # NoteIds[k]
ASSUME CompactIsBoolean == Compact \in BOOLEAN

VARIABLES
    K,        \* server, durable: to-be-delivered notes
    sess,     \* server, volatile: [active, pending]
    removed,  \* server, durable: ids known delivered and not yet forgotten
    gone,     \* ghost: ids server s forgot
    conf,     \* server, durable: conf[s][t] = ids t told s it knows delivered (Compact only)
    rnet,     \* replica messages [from, to, note]
    snet      \* sync messages [type, from, to, removed, gone (ghost)]

stratVars == <<K, sess, removed, gone, conf, rnet, snet>>
vars == <<baseVars, stratVars, lastAction>>

ActionNames == {"Init", "CreateNote", "ReceiveReplica", "Connect", "Disconnect", "StartSession",
                "SendNote", "ReceiveNote", "ReceiveAck", "Timeout", "StartSync", "HandleSync",
                "ReceiveSyncReply", "Forget", "ClientCrash", "ServerCrash", "Lose", "LoseSync"}

NoteUniverse == {NoteIds[k] : k \in 1..MaxNotes}
Idle == [active |-> FALSE, pending |-> <<>>]
SyncMsg(type, from, to, rem, gh) == [type |-> type, from |-> from, to |-> to, removed |-> rem, gone |-> gh]

TypeOK ==
    /\ BaseTypeOK
    /\ created \subseteq NoteUniverse
    /\ K \in [Servers -> SUBSET NoteUniverse]
    /\ sess \in [Servers -> [active : BOOLEAN, pending : Seq(NoteUniverse)]]
    /\ removed \in [Servers -> SUBSET NoteUniverse]
    /\ gone \in [Servers -> SUBSET NoteUniverse]
    /\ conf \in [Servers -> [Servers -> SUBSET NoteUniverse]]
    /\ rnet \subseteq [from : Servers, to : Servers, note : NoteUniverse]
    /\ \A m \in snet : m.type \in {"syncReq", "syncRep"} /\ m.removed \subseteq NoteUniverse

Init ==
    /\ BaseInit
    /\ K = [s \in Servers |-> {}]
    /\ sess = [s \in Servers |-> Idle]
    /\ removed = [s \in Servers |-> {}]
    /\ gone = [s \in Servers |-> {}]
    /\ conf = [s \in Servers |-> [t \in Servers |-> {}]]
    /\ rnet = {}
    /\ snet = {}

-----------------------------------------------------------------------------
\* The caller names the note at server x; replicas go to the others.
CreateNote(x) ==
    /\ Cardinality(created) < MaxNotes
    /\ LET i == NoteIds[Cardinality(created) + 1] IN
         /\ K' = [K EXCEPT ![x] = @ \cup {i}]
         /\ rnet' = rnet \cup {[from |-> x, to |-> t, note |-> i] : t \in Servers \ {x}}
         /\ created' = created \cup {i}
         /\ lastAction' = [name |-> "CreateNote", server |-> x, note |-> i]
    /\ UNCHANGED <<net, conn, delivered, faults, sess, removed, gone, conf, snet>>

\* StreamServer.receiveReplica / acceptReplica: a removed id never comes back.
ReceiveReplica(m) ==
    /\ m \in rnet
    /\ rnet' = IF AllowDup THEN rnet ELSE rnet \ {m}
    /\ K' = IF m.note \in removed[m.to] THEN K ELSE [K EXCEPT ![m.to] = @ \cup {m.note}]
    /\ lastAction' = [name |-> "ReceiveReplica", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<baseVars, sess, removed, gone, conf, snet>>

Connect(s) == ConnectBase(s) /\ UNCHANGED stratVars
Disconnect == DisconnectBase /\ UNCHANGED stratVars

StartSession(s) ==
    /\ conn = s
    /\ ~sess[s].active
    /\ sess' = [sess EXCEPT ![s] = [active |-> TRUE, pending |-> <<>>]]
    /\ lastAction' = [name |-> "StartSession", server |-> s]
    /\ UNCHANGED <<baseVars, K, removed, gone, conf, rnet, snet>>

SendNote(s, i) ==
    /\ sess[s].active
    /\ sess[s].pending = <<>>
    /\ i \in K[s]
    /\ net' = net \cup {NoteMsg(s, i)}
    /\ sess' = [sess EXCEPT ![s].pending = <<i>>]
    /\ lastAction' = [name |-> "SendNote", server |-> s, note |-> i]
    /\ UNCHANGED <<conn, created, delivered, faults, K, removed, gone, conf, rnet, snet>>

\* The at-least-once client: no state, every note is processed and acked.
ReceiveNote(m) ==
    /\ m \in net
    /\ m.type = "note"
    /\ conn # None
    /\ MayReceive
    /\ net' = Consume(m) \cup {AckMsg(m.from, m.note)}
    /\ delivered' = Append(delivered, m.note)
    /\ lastAction' = [name |-> "ReceiveNote", server |-> m.from, note |-> m.note, verdict |-> "accepted"]
    /\ UNCHANGED <<conn, created, faults, stratVars>>

ReceiveAck(m) ==
    /\ m \in net
    /\ m.type = "ack"
    /\ sess[m.to].pending = <<m.note>>
    /\ net' = Consume(m)
    /\ K' = [K EXCEPT ![m.to] = @ \ {m.note}]
    /\ removed' = [removed EXCEPT ![m.to] = @ \cup {m.note}]
    /\ sess' = [sess EXCEPT ![m.to].pending = <<>>]
    /\ lastAction' = [name |-> "ReceiveAck", server |-> m.to, note |-> m.note]
    /\ UNCHANGED <<conn, created, delivered, faults, gone, conf, rnet, snet>>

Timeout(s) ==
    /\ sess[s].active
    /\ sess[s].pending # <<>>
    /\ LET i == sess[s].pending[1] IN
         /\ faults + TimeoutCost(s, i) <= MaxFaults
         /\ faults' = faults + TimeoutCost(s, i)
         /\ lastAction' = [name |-> "Timeout", server |-> s, note |-> i]
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<net, conn, created, delivered, K, removed, gone, conf, rnet, snet>>

-----------------------------------------------------------------------------
(* Syncs as the cores run them; one message between a pair at a time (a    *)
(* model bound, as in ExactlyOnceS1Msg).                                    *)
StartSync(s, t) ==
    /\ s # t
    /\ ~\E m \in snet : {m.from, m.to} = {s, t}
    /\ snet' = snet \cup {SyncMsg("syncReq", s, t, removed[s], gone[s])}
    /\ lastAction' = [name |-> "StartSync", server |-> s, peer |-> t]
    /\ UNCHANGED <<baseVars, K, sess, removed, gone, conf, rnet>>

Merge(s, theirs) ==
    /\ removed' = [removed EXCEPT ![s] = @ \cup theirs]
    /\ K' = [K EXCEPT ![s] = @ \ theirs]

\* A sync message tells its receiver which ids its sender knows delivered:
\* the confirmations the Forget rule waits for (as S2's conf, L109, and
\* S3's forget-after-purge-confirmed, notes M3-g).  The ghost gone of the
\* reply is the union of both, so that the mapping sees the unbounded level's
\* message; the receiver's ghost takes what the sender forgot and it never
\* learned (the unbounded level would have learned it here).
Confirm(m) ==
    /\ conf' = IF Compact THEN [conf EXCEPT ![m.to][m.from] = @ \cup m.removed] ELSE conf
    /\ gone' = [gone EXCEPT ![m.to] = @ \cup (m.gone \ removed'[m.to])]

HandleSync(m) ==
    /\ m \in snet
    /\ m.type = "syncReq"
    /\ Merge(m.to, m.removed)
    /\ Confirm(m)
    /\ snet' = (snet \ {m}) \cup {SyncMsg("syncRep", m.to, m.from, removed[m.to] \cup m.removed,
                                           gone[m.to] \cup m.gone)}
    /\ lastAction' = [name |-> "HandleSync", server |-> m.to, peer |-> m.from]
    /\ UNCHANGED <<baseVars, sess, rnet>>

ReceiveSyncReply(m) ==
    /\ m \in snet
    /\ m.type = "syncRep"
    /\ Merge(m.to, m.removed)
    /\ Confirm(m)
    /\ snet' = snet \ {m}
    /\ lastAction' = [name |-> "ReceiveSyncReply", server |-> m.to, peer |-> m.from]
    /\ UNCHANGED <<baseVars, sess, rnet>>

\* No replica of i is left: what T_e after the last confirmation achieves
\* (every replica was sent at CreateNote, before any confirmation).
NoReplicaLeft(i) == \A m \in rnet : m.note # i

\* The compaction rule.  lastAction keeps the step before it (prev), so that
\* the refinement mapping can show Forget as a stutter of the unbounded level.
ForgetWith(s, i, guard) ==
    /\ Compact
    /\ i \in removed[s]
    /\ guard
    /\ removed' = [removed EXCEPT ![s] = @ \ {i}]
    /\ gone' = [gone EXCEPT ![s] = @ \cup {i}]
    /\ conf' = [conf EXCEPT ![s] = [t \in Servers |-> @[t] \ {i}]]
    /\ lastAction' = [name |-> "Forget", server |-> s, note |-> i,
                      prev |-> IF lastAction.name = "Forget" THEN lastAction.prev ELSE lastAction]
    /\ UNCHANGED <<baseVars, K, sess, rnet, snet>>

\* Every other server told s it knows i delivered (so no K holds it and none
\* will learn it from s), and no replica of i is left.
Confirmed(s, i) == \A t \in Servers \ {s} : i \in conf[s][t]
Forget(s, i) == ForgetWith(s, i, Confirmed(s, i) /\ NoReplicaLeft(i))

LoseSync(m) ==
    /\ m \in snet
    /\ faults < MaxFaults
    /\ faults' = faults + 1
    /\ snet' = snet \ {m}
    /\ lastAction' = [name |-> "LoseSync", type |-> m.type, from |-> m.from, to |-> m.to]
    /\ UNCHANGED <<net, conn, created, delivered, K, sess, removed, gone, conf, rnet>>

ClientCrash == ClientCrashBase /\ UNCHANGED stratVars

ServerCrash(s) ==
    /\ sess[s] # Idle
    /\ ServerCrashBase(s)
    /\ sess' = [sess EXCEPT ![s] = Idle]
    /\ UNCHANGED <<K, removed, gone, conf, rnet, snet>>

LoseMsg(m) == Lose(m) /\ UNCHANGED stratVars

-----------------------------------------------------------------------------
ForgetNext == \E s \in Servers : \E i \in removed[s] : Forget(s, i)

\* Every step but Forget (ExactlyOnceS0MsgTimed guards Forget by the clock).
StepNext ==
    \/ \E x \in Servers : CreateNote(x)
    \/ \E s \in Servers : Connect(s)
    \/ \E s \in Servers :
         \/ StartSession(s) \/ (\E i \in K[s] : SendNote(s, i)) \/ Timeout(s) \/ ServerCrash(s)
         \/ \E t \in Servers : StartSync(s, t)
    \/ \E m \in net : ReceiveNote(m) \/ ReceiveAck(m)
    \/ \E m \in rnet : ReceiveReplica(m)
    \/ \E m \in snet : HandleSync(m) \/ ReceiveSyncReply(m)
    \/ Disconnect \/ ClientCrash \/ (\E m \in net : LoseMsg(m)) \/ (\E m \in snet : LoseSync(m))

Next == StepNext \/ ForgetNext

Spec == Init /\ [][Next]_vars

-----------------------------------------------------------------------------
\* What the removed set is for, kept by the compaction: an id a server once
\* knew delivered, forgotten or not, never enters its K again (the core's
\* "no id of removed is in K", extended to what was forgotten).
NoResurrection == \A s \in Servers : K[s] \cap (removed[s] \cup gone[s]) = {}

\* Knowledge is true: a removed id was processed.
RemovedWasProcessed == \A s \in Servers : \A i \in removed[s] \cup gone[s] : Processed(i)

=============================================================================
