------------------------- MODULE TraceExactlyOnceS2 -------------------------
(***************************************************************************)
(* Trace validation of Strategy 2 (DESIGN.md, link 5): are the step logs   *)
(* of a real run (S2Server cores and the S2Client in EoWorld) a behaviour  *)
(* of ExactlyOnceS2Msg, whose sync is the runtime's: a request and a reply *)
(* carrying round, K, removed and seen?  Replication is atomic in both (a  *)
(* CreateNote line stands for the note entering every K).                  *)
(*                                                                         *)
(* Shape as TraceExactlyOnceS0/S1: one cursor per process; TraceStep takes *)
(* the next line by the action it names, parameters fixed, the variables   *)
(* it logs (R, K and removed of its server) checked after the step.        *)
(* Wire ids are reused, so a line's note is the spec's note: wire id and   *)
(* incarnation ([server, seq, inc], EoS2TraceFamily builds it from the     *)
(* world's "note" and "inc"); a sync message's ids are wire ids.  A sync   *)
(* line carries the message it takes or sends (round, msgK, msgRemoved,    *)
(* msgSeen): TLC takes exactly that message, so what the core put in it is *)
(* checked against what the spec puts in it.                               *)
(*                                                                         *)
(* Condition 1 reads the network (no copy of the reused number, no ack of  *)
(* the old incarnation on the way).  Under AllowDup the spec's net keeps a *)
(* received note or ack, so the world logs a Lose line when the last copy  *)
(* of a spec message leaves the runtime's network (taken, lost, expired    *)
(* after T_e): the spec's net is then the set of messages the runtime      *)
(* holds a copy of, and a reuse before T_e left the old copies is refused  *)
(* at its CreateNote line.                                                 *)
(*                                                                         *)
(* What a log need not show, as in TraceExactlyOnceS0:                     *)
(* - stuttering: an EndSession while the session is idle or active with no *)
(*   Deliver out (with one out it is the spec's Timeout); a StartSession on *)
(*   a session the spec keeps active; a crash of an idle server.           *)
(* - the spec's bound of one own sync on the way per server (StartSync's   *)
(*   guard): the runtime starts a sync whenever it likes, and duplicates,  *)
(*   delays and reorders sync messages.  Before a StartSync line the own   *)
(*   messages that block it may be lost (LoseSync, unlogged), and `sent`    *)
(*   keeps every sync message the log shows leaving; a merge of one that is *)
(*   not in snet (lost so, or a copy) is the spec's merge of that message  *)
(*   (Late): the step HandleSync or ReceiveSyncReply would take had the     *)
(*   bound let it into snet, its reply (if any) lost as it leaves.  Here   *)
(*   the module admits steps of the spec with a model bound lifted; the ci *)
(*   models check the spec with the bound, not without it.                 *)
(* - the failed Deliver a StartSession drops (Timeout, unlogged).          *)
(* faults is outside the VIEW: MaxFaults is set above any run's count;     *)
(* MaxRound is the log's number of StartSync lines.                        *)
(***************************************************************************)
EXTENDS ExactlyOnceS2Msg, TLC

CONSTANTS
    TraceLog,   \* <<process 1's lines, ...>>, each line a record
    ReportAt    \* rejection report only: how many lines the longest prefix took

VARIABLES
    l,          \* process -> how many of its lines the behaviour has taken
    log,        \* TraceLog, held in a variable that never changes (see TraceScmp)
    sent        \* every sync message the lines taken sent (SyncMsg records)

traceVars == <<vars, l, log, sent>>
Procs == DOMAIN log
Pending(p) == l[p] < Len(log[p])
Line(p) == log[p][l[p] + 1]
Has(ln, f) == f \in DOMAIN ln
Taken(p) == l' = [l EXCEPT ![p] = @ + 1]
Progress(c) == LET Sum[i \in 0..Len(log)] == IF i = 0 THEN 0 ELSE Sum[i - 1] + c[i]
               IN Sum[Len(log)]
AsSet(sq) == {sq[k] : k \in DOMAIN sq}

\* The sync message a line names, of `type`, from `from` to `to`.
LineMsg(ln, type, from, to) ==
    SyncMsg(type, from, to, ln.round, AsSet(ln.msgK), AsSet(ln.msgRemoved), ln.msgSeen)

\* After the step, the variables the line names have the values it gives.
Agrees(ln) ==
    /\ Has(ln, "R") => R' = ln.R
    /\ Has(ln, "K") => Wires(K'[ln.server]) = AsSet(ln.K)
    /\ Has(ln, "removed") => removed'[ln.server] = AsSet(ln.removed)

Still == UNCHANGED vars
Active(s) == sess[s] = [active |-> TRUE, pending |-> <<>>]

-----------------------------------------------------------------------------
CreateLine(ln) ==
    /\ ln.action = "CreateNote"
    /\ CreateNote(ln.server)
    /\ lastAction'.note = ln.note

ConnectLine(ln) == ln.action = "Connect" /\ Connect(ln.server)
DisconnectLine(ln) == ln.action = "Disconnect" /\ Disconnect

StartSessionLine(ln) ==
    /\ ln.action = "StartSession"
    /\ StartSession(ln.server) \/ (conn = ln.server /\ Active(ln.server) /\ Still)

EndSessionLine(ln) ==
    /\ ln.action = "EndSession"
    /\ \/ (Active(ln.server) \/ sess[ln.server] = Idle) /\ Still
       \/ Timeout(ln.server)

SendNoteLine(ln) == ln.action = "SendNote" /\ SendNote(ln.server, ln.note)

ReceiveNoteLine(ln) ==
    /\ ln.action = "ReceiveNote"
    /\ ReceiveNote(NoteMsg(ln.server, ln.note))
    /\ lastAction'.verdict = ln.verdict

ReceiveAckLine(ln) == ln.action = "ReceiveAck" /\ ReceiveAck(AckMsg(ln.server, ln.note))

TimeoutLine(ln) ==
    /\ ln.action = "Timeout"
    /\ Timeout(ln.server)
    /\ lastAction'.note = ln.note

\* The last copy of a note or ack left the runtime's network (see above).
LoseLine(ln) ==
    /\ ln.action = "Lose"
    /\ LoseMsg(IF ln.type = "note" THEN NoteMsg(ln.server, ln.note) ELSE AckMsg(ln.server, ln.note))

\* The request the line shows is the one the spec's StartSync sends to every peer.
StartSyncLine(ln) ==
    /\ ln.action = "StartSync"
    /\ LineMsg(ln, "syncReq", ln.server, ln.server) =
           SyncMsg("syncReq", ln.server, ln.server, round[ln.server] + 1, Wires(K[ln.server]),
                   removed[ln.server], seen[ln.server])
    /\ StartSync(ln.server)

\* A sent message merged outside snet (see above): the spec's merge of it.
Late(m) ==
    /\ m \in sent
    /\ m \notin snet
    /\ MergeWith(m.to, m, TRUE)
    /\ conf' = IF m.type = "syncRep" THEN [conf EXCEPT ![m.to][m.from] = @ \cup ConfirmsWith(m.to, m, ConfirmTest)]
               ELSE conf
    /\ lastAction' = [name |-> IF m.type = "syncReq" THEN "HandleSync" ELSE "ReceiveSyncReply",
                      server |-> m.to, peer |-> m.from, round |-> m.round, late |-> TRUE]
    /\ UNCHANGED <<baseVars, ctr, sess, R, round, issued, seen, snet>>

HandleSyncLine(ln) ==
    LET m == LineMsg(ln, "syncReq", ln.peer, ln.server) IN
    /\ ln.action = "HandleSync"
    /\ (m \in snet /\ HandleSync(m)) \/ Late(m)

ReceiveSyncReplyLine(ln) ==
    LET m == LineMsg(ln, "syncRep", ln.peer, ln.server) IN
    /\ ln.action = "ReceiveSyncReply"
    /\ (m \in snet /\ ReceiveSyncReply(m)) \/ Late(m)

\* The sync messages a line sends, into sent (ReplyTo: in the state before the step).
Sends(ln) ==
    sent' = CASE ln.action = "StartSync" ->
                   sent \cup {LineMsg(ln, "syncReq", ln.server, t) : t \in Servers \ {ln.server}}
              [] ln.action = "HandleSync" ->
                   sent \cup {ReplyTo(LineMsg(ln, "syncReq", ln.peer, ln.server), TRUE)}
              [] OTHER -> sent

ServerCrashLine(ln) ==
    /\ ln.action = "ServerCrash"
    /\ ServerCrash(ln.server) \/ (sess[ln.server] = Idle /\ Still)

ClientCrashLine(ln) == ln.action = "ClientCrash" /\ ClientCrash

\* The client's first line (Init) or a restart's (Recover): R as read from
\* its store, which must be the spec's R (stable storage, L77).
LoadLine(ln) == ln.action \in {"Init", "Recover"} /\ R = ln.R /\ Still

-----------------------------------------------------------------------------
\* Unlogged loss of the server's own sync messages that block a StartSync line.
Blocking(ln) ==
    IF ln.action = "StartSync"
    THEN {m \in snet : (m.type = "syncReq" /\ m.from = ln.server) \/ (m.type = "syncRep" /\ m.to = ln.server)}
    ELSE {}

LoseFor(p) == \E m \in Blocking(Line(p)) : LoseSync(m) /\ UNCHANGED <<l, sent>>

\* Unlogged failure of the Deliver a StartSession line drops (TraceExactlyOnceS1).
TimeoutFor(p) ==
    /\ Line(p).action = "StartSession"
    /\ sess[Line(p).server].pending # <<>>
    /\ Timeout(Line(p).server)
    /\ UNCHANGED <<l, sent>>

TraceStep ==
    \E p \in Procs :
       /\ Pending(p)
       /\ \/ LoseFor(p)
          \/ TimeoutFor(p)
          \/ LET ln == Line(p) IN
             /\ \/ CreateLine(ln)
                \/ ConnectLine(ln)
                \/ DisconnectLine(ln)
                \/ StartSessionLine(ln)
                \/ EndSessionLine(ln)
                \/ SendNoteLine(ln)
                \/ ReceiveNoteLine(ln)
                \/ ReceiveAckLine(ln)
                \/ TimeoutLine(ln)
                \/ LoseLine(ln)
                \/ StartSyncLine(ln)
                \/ HandleSyncLine(ln)
                \/ ReceiveSyncReplyLine(ln)
                \/ ServerCrashLine(ln)
                \/ ClientCrashLine(ln)
                \/ LoadLine(ln)
             /\ Agrees(ln)
             /\ Sends(ln)
             /\ Taken(p)

TraceNext == TraceStep /\ UNCHANGED log

TraceInit == log = TraceLog /\ Init /\ l = [p \in Procs |-> 0] /\ sent = {}

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

\* Not faults nor lastAction (what the step was); nor sent: the lines taken (l) fix it.
TraceView == <<l, net, conn, created, delivered, stratVars>>

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
     seen |-> seen, snet |-> snet, lastAction |-> lastAction]

Probe == Progress(l) = ReportAt /\ Next /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED <<log, sent>>
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == Progress(l) <= ReportAt
ReportState == Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
