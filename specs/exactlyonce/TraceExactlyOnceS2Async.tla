---------------------- MODULE TraceExactlyOnceS2Async ----------------------
(***************************************************************************)
(* Trace validation of Strategy 2 with the cores' asynchronous replicas    *)
(* (DESIGN.md, link 5; issue 21): are the step logs of an EoWorld run whose *)
(* replicas travel as messages (EoWorld.s2WithReplicasAsMessages: S2Server *)
(* cores settling each number T_e after its issue by the world's clock)   *)
(* a behaviour of ExactlyOnceS2MsgAsync with Settle = TRUE?                *)
(*                                                                         *)
(* TraceExactlyOnceS2's lines, reused through an instance of it (same      *)
(* constants and variables by name), with the steps that differ:          *)
(* - CreateNote is CreateNoteAt: the note enters its origin's K only and a *)
(*   replica to every other server joins rnet;                             *)
(* - ReceiveReplica (verdict stored or ignored, the server's K and removed *)
(*   after it) takes a replica from rnet; as with notes and acks the       *)
(*   runtime duplicates replicas, so the spec's AllowDup keeps a received  *)
(*   one, and a LoseReplica line says when the runtime's last copy of it   *)
(*   left the network (taken, lost, or expired at age T_e);                *)
(* - SettleNumber: S2Server counts the number settled by its clock (the    *)
(*   world writes the line before the sync that reads it); the spec takes  *)
(*   it only when no replica of the number is left in rnet, so a core that *)
(*   settles while a replica may still arrive is refused there;            *)
(* - StartSync is StartSyncAsync: the numbers not yet settled move to the  *)
(*   new round, so only a reply to a later request confirms them, and a    *)
(*   CreateNote that reuses a number on an earlier reply is refused.       *)
(* - ServerCrash is ServerCrashAsync, with a session open or not: the      *)
(*   restarted core waits T_e again for every number no peer confirmed.    *)
(*   The world writes no SettleNumber line for such a number (EoWorld logs *)
(*   one per CreateNote), so the spec settles it at an unlogged step just  *)
(*   before a StartSync line of its server (the only step that reads       *)
(*   settled), and only a number the crash reopened (reopened; a          *)
(*   CreateNote of it closes it: its own SettleNumber line follows).       *)
(* With Tagged (rule "tag", the cores as they are): the sync lines carry  *)
(* msgTags, the issue number each removal of the message names, so the    *)
(* sync steps are HandleSyncAsync and ReceiveSyncReplyAsync (a removal     *)
(* does not take a held incarnation issued after the one it names), and   *)
(* ReceiveAck is ReceiveAckAsync (the removal names the acked one).       *)
(* A ReceiveSyncReply line carries conf: the numbers of its server's      *)
(* stream the peer has confirmed gone after the step (S2Server.confirmedBy);*)
(* they must be the spec's: a core that counts a reply to a request        *)
(* started before the number settled is refused at that reply, and so is a *)
(* restarted core whose unlogged settle the spec cannot place (settled at *)
(* one StartSync or another, the spec moves the issue round or keeps it,   *)
(* and the replies' conf tells which).                                     *)
(***************************************************************************)
EXTENDS ExactlyOnceS2MsgAsync, TLC

CONSTANTS
    TraceLog,   \* <<process 1's lines, ...>>, each line a record
    ReportAt    \* rejection report only: how many lines the longest prefix took

VARIABLES
    l,          \* process -> how many of its lines the behaviour has taken
    log,        \* TraceLog, held in a variable that never changes (see TraceScmp)
    sent,       \* every sync message the lines taken sent (SyncMsg records)
    reopened    \* server -> numbers a ServerCrash line unsettled, not settled since

\* TraceExactlyOnceS2's line definitions over this module's variables.
S2 == INSTANCE TraceExactlyOnceS2

traceVars == <<asyncVars, l, log, sent, reopened>>
Procs == DOMAIN log
Pending(p) == l[p] < Len(log[p])
Line(p) == log[p][l[p] + 1]
Progress(c) == LET Sum[i \in 0..Len(log)] == IF i = 0 THEN 0 ELSE Sum[i - 1] + c[i]
               IN Sum[Len(log)]

-----------------------------------------------------------------------------
CreateLine(ln) ==
    /\ ln.action = "CreateNote"
    /\ CreateNoteAt(ln.server)
    /\ lastAction'.note = ln.note

Replica(ln) == [note |-> ln.note, to |-> ln.server]

ReceiveReplicaLine(ln) ==
    /\ ln.action = "ReceiveReplica"
    /\ ReceiveReplica(Replica(ln))
    /\ lastAction'.verdict = ln.verdict

LoseReplicaLine(ln) == ln.action = "LoseReplica" /\ LoseReplica(Replica(ln))

SettleLine(ln) == ln.action = "SettleNumber" /\ SettleNumber(ln.server, ln.seq)

\* The restart (see the module comment): the numbers it unsettles reopen.
ServerCrashLine(ln) ==
    /\ ln.action = "ServerCrash"
    /\ ServerCrashAsync(ln.server)
    /\ reopened' = [reopened EXCEPT ![ln.server] = @ \cup (settled[ln.server] \ settled'[ln.server])]

\* The unlogged settle of a reopened number, before its server's StartSync line.
SettleFor(p) ==
    /\ Line(p).action = "StartSync"
    /\ \E k \in reopened[Line(p).server] :
          /\ SettleNumber(Line(p).server, k)
          /\ reopened' = [reopened EXCEPT ![Line(p).server] = @ \ {k}]
    /\ UNCHANGED <<l, sent>>

\* The sync message a line names, with its tags when Tagged (WithTags' form).
LineMsg(ln, type, from, to) ==
    LET b == S2!LineMsg(ln, type, from, to)
    IN IF Tagged
       THEN [type |-> b.type, from |-> b.from, to |-> b.to, round |-> b.round, k |-> b.k,
             removed |-> b.removed, seen |-> b.seen, tags |-> S2!AsSet(ln.msgTags)]
       ELSE b

\* The request the line shows is the one the spec's StartSyncAsync sends to every peer.
StartSyncLine(ln) ==
    /\ ln.action = "StartSync"
    /\ LineMsg(ln, "syncReq", ln.server, ln.server) =
           WithTags(SyncMsg("syncReq", ln.server, ln.server, round[ln.server] + 1, Wires(K[ln.server]),
                            removed[ln.server], seen[ln.server]),
                    ln.server, removed[ln.server], tag[ln.server])
    /\ StartSyncAsync(ln.server)

\* HandleSyncAsync's reply to m (in the state before the step).
ReplyToAsync(m) ==
    LET t == m.to
        ap == AppliedAsync(t, m, TRUE, TRUE)
    IN WithTags(SyncMsg("syncRep", t, m.from, m.round, Wires({i \in K[t] : Wire(i) \notin ap}),
                        removed[t] \cup ap, seen[t]),
                t, removed[t] \cup ap, MergedTags(t, m, ap))

\* A sent message merged outside snet (TraceExactlyOnceS2's Late): the async merge of it.
Late(m) ==
    /\ m \in sent
    /\ m \notin snet
    /\ MergeAsync(m.to, m, TRUE, TRUE)
    /\ conf' = IF m.type = "syncRep" THEN [conf EXCEPT ![m.to][m.from] = @ \cup ConfirmsWith(m.to, m, ConfirmTest)]
               ELSE conf
    /\ lastAction' = [name |-> IF m.type = "syncReq" THEN "HandleSync" ELSE "ReceiveSyncReply",
                      server |-> m.to, peer |-> m.from, round |-> m.round, late |-> TRUE]
    /\ UNCHANGED <<baseVars, ctr, sess, R, round, issued, seen, snet, rnet, settled>>

HandleSyncLine(ln) ==
    LET m == LineMsg(ln, "syncReq", ln.peer, ln.server) IN
    /\ ln.action = "HandleSync"
    /\ (m \in snet /\ HandleSyncAsync(m, TRUE, TRUE)) \/ Late(m)
    /\ UNCHANGED <<rnet, settled>>

ReceiveSyncReplyLine(ln) ==
    LET m == LineMsg(ln, "syncRep", ln.peer, ln.server) IN
    /\ ln.action = "ReceiveSyncReply"
    /\ (m \in snet /\ ReceiveSyncReplyAsync(m, TRUE, TRUE)) \/ Late(m)
    /\ UNCHANGED <<rnet, settled>>

ReceiveAckLine(ln) == ln.action = "ReceiveAck" /\ ReceiveAckAsync(AckMsg(ln.server, ln.note))

\* The sync messages a line sends, into sent (TraceExactlyOnceS2's Sends, with tags).
Sends(ln) ==
    sent' = CASE ln.action = "StartSync" ->
                   sent \cup {LineMsg(ln, "syncReq", ln.server, t) : t \in Servers \ {ln.server}}
              [] ln.action = "HandleSync" ->
                   sent \cup {ReplyToAsync(LineMsg(ln, "syncReq", ln.peer, ln.server))}
              [] OTHER -> sent

\* The confirmations the core holds after a reply are the spec's (see above).
ConfAgrees(ln) == S2!Has(ln, "conf") => S2!AsSet(ln.conf) = conf'[ln.server][ln.peer]

\* Every other line is a step of ExactlyOnceS2Msg, as TraceExactlyOnceS2 takes it.
MsgLine(ln) ==
    /\ \/ S2!ConnectLine(ln)
       \/ S2!DisconnectLine(ln)
       \/ S2!StartSessionLine(ln)
       \/ S2!EndSessionLine(ln)
       \/ S2!SendNoteLine(ln)
       \/ S2!ReceiveNoteLine(ln)
       \/ S2!TimeoutLine(ln)
       \/ S2!LoseLine(ln)
       \/ S2!ClientCrashLine(ln)
       \/ S2!LoadLine(ln)
    /\ UNCHANGED <<rnet, settled, tag>>

TraceStep ==
    \E p \in Procs :
       /\ Pending(p)
       /\ \/ (S2!LoseFor(p) \/ S2!TimeoutFor(p)) /\ UNCHANGED <<rnet, settled, tag, reopened>>
          \/ SettleFor(p)
          \/ LET ln == Line(p) IN
             /\ \/ CreateLine(ln)
                   /\ reopened' = [reopened EXCEPT ![ln.server] = @ \ {lastAction'.note.seq}]
                \/ (ReceiveReplicaLine(ln) \/ LoseReplicaLine(ln) \/ SettleLine(ln)
                    \/ StartSyncLine(ln) \/ HandleSyncLine(ln) \/ ReceiveSyncReplyLine(ln)
                    \/ ReceiveAckLine(ln) \/ MsgLine(ln)) /\ UNCHANGED reopened
                \/ ServerCrashLine(ln)
             /\ S2!Agrees(ln)
             /\ ConfAgrees(ln)
             /\ Sends(ln)
             /\ l' = [l EXCEPT ![p] = @ + 1]

TraceNext == TraceStep /\ UNCHANGED log

TraceInit ==
    /\ log = TraceLog /\ AsyncInit /\ l = [p \in Procs |-> 0] /\ sent = {}
    /\ reopened = [s \in Servers |-> {}]

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

\* Not faults nor lastAction (what the step was); nor sent: the lines taken (l) fix it.
TraceView == <<l, net, conn, created, delivered, stratVars, rnet, settled, tag, reopened>>

ASSUME TLCSet(1, 0 - 1)
TraceProgress ==
    IF Progress(l) > TLCGet(1)
    THEN TLCSet(1, Progress(l)) /\ PrintT(<<"progress", Progress(l)>>)
    ELSE TRUE

-----------------------------------------------------------------------------
(* The rejection report, as in TraceScmp.                                  *)

SpecState ==
    [net |-> net, conn |-> conn, created |-> created, delivered |-> delivered, ctr |-> ctr, K |-> K,
     sess |-> sess, R |-> R, conf |-> conf, removed |-> removed, round |-> round, issued |-> issued,
     seen |-> seen, snet |-> snet, rnet |-> rnet, settled |-> settled, tag |-> tag, reopened |-> reopened,
     lastAction |-> lastAction]

Probe ==
    /\ Progress(l) = ReportAt /\ AsyncNext /\ l' = [p \in Procs |-> 0 - 1]
    /\ UNCHANGED <<log, sent, reopened>>
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == Progress(l) <= ReportAt
ReportState == Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
