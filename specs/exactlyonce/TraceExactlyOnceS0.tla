------------------------- MODULE TraceExactlyOnceS0 -------------------------
(***************************************************************************)
(* Trace validation of Strategy 0 (DESIGN.md, link 5): are the step logs   *)
(* of a real run (S0Server cores and the S0Client in EoWorld) a behaviour  *)
(* of ExactlyOnceS0MsgTimed?  The timed spec, not ExactlyOnceS0Msg,        *)
(* because S0Server's forget rule reads the clock (T_e after the last      *)
(* confirmation), and because the untimed spec's guard NoReplicaLeft can   *)
(* hold for a real run only if replicas leave rnet: with AllowDup (the     *)
(* runtime's network duplicates notes and acks) a received replica stays,  *)
(* and only the timed spec's Tick (a replica lives less than T_e) takes it *)
(* away.  So the world logs its ticks and its forgets, and TLC checks the  *)
(* core's clock rule itself: confAt and Waited against the line's time.    *)
(*                                                                         *)
(* Shape as TraceExactlyOnceS1: one cursor per process; TraceStep takes    *)
(* the next line by the action it names, parameters fixed, the variables   *)
(* it logs (removed, K of its server) checked after the step.  Ids are the *)
(* caller's strings; NoteIds is the log's CreateNote ids in order.         *)
(*                                                                         *)
(* What a log need not show, as in TraceExactlyOnceS1:                     *)
(* - stuttering: an EndSession while the session is idle or active with no *)
(*   Deliver out (with one out it is the spec's Timeout); a StartSession on *)
(*   a session the spec keeps active; a crash of an idle server; a         *)
(*   StartSync whose request is already on the way or blocked (the spec   *)
(*   runs one exchange per pair at a time, the runtime any number).        *)
(* - the spec's bound of one sync message per pair: the runtime sends any  *)
(*   number, duplicates and delays them, and a late one is not a no-op     *)
(*   here (unlike S1's max): a removal a server forgot comes back with it, *)
(*   as the spec's comment says it may.  So the module keeps `sent`, every *)
(*   sync message the log shows leaving (a StartSync's request, a          *)
(*   HandleSync's reply: the removed set after the merge), and a merge of  *)
(*   one of them that is not in snet is the spec's Merge and Confirm of    *)
(*   that message (Late): the step HandleSync or ReceiveSyncReply would    *)
(*   take had the bound let the message into snet.  Here and in         *)
(*   MayReceive (below) the module admits steps of the spec with a model   *)
(*   bound lifted; the ci models check the spec with both bounds           *)
(*   (MCExactlyOnceS0MsgTimed), not without them.                          *)
(* - message loss: before a StartSync line, the sync messages of the pair *)
(*   that block it (LoseSync); the failed Deliver a StartSession drops     *)
(*   (Timeout).  Note and ack copies stay in net (AllowDup).               *)
(* MayReceive, the model's bound on receipts, is lifted by the family      *)
(* (S0's client processes every copy it receives: at-least-once).          *)
(* faults is outside the VIEW: MaxFaults is set above any run's count.     *)
(***************************************************************************)
EXTENDS ExactlyOnceS0MsgTimed, TLC

CONSTANTS
    TraceLog,   \* <<process 1's lines, ...>>, each line a record
    ReportAt    \* rejection report only: how many lines the longest prefix took

VARIABLES
    l,          \* process -> how many of its lines the behaviour has taken
    log,        \* TraceLog, held in a variable that never changes (see TraceScmp)
    sent        \* every sync message the lines taken sent: [type, from, to, removed]

traceVars == <<allVars, l, log, sent>>
Procs == DOMAIN log
Pending(p) == l[p] < Len(log[p])
Line(p) == log[p][l[p] + 1]
Has(ln, f) == f \in DOMAIN ln
Taken(p) == l' = [l EXCEPT ![p] = @ + 1]
Progress(c) == LET Sum[i \in 0..Len(log)] == IF i = 0 THEN 0 ELSE Sum[i - 1] + c[i]
               IN Sum[Len(log)]
AsSet(sq) == {sq[k] : k \in DOMAIN sq}

\* After the step, the variables the line names have the values it gives.
Agrees(ln) ==
    /\ Has(ln, "removed") => removed'[ln.server] = AsSet(ln.removed)
    /\ Has(ln, "K") => K'[ln.server] = AsSet(ln.K)

\* The frame ExactlyOnceS0MsgTimed's TimedStep puts on a step of ExactlyOnceS0Msg.
Frame ==
    /\ now' = now
    /\ createdAt' = IF lastAction'.name = "CreateNote" THEN [createdAt EXCEPT ![lastAction'.note] = now]
                    ELSE createdAt
    /\ Stamp

Still == UNCHANGED allVars
Active(s) == sess[s] = [active |-> TRUE, pending |-> <<>>]

-----------------------------------------------------------------------------
CreateLine(ln) ==
    /\ ln.action = "CreateNote"
    /\ CreateNote(ln.server)
    /\ lastAction'.note = ln.note

\* Replication is a message (rnet); the world takes each replica at once.
ReceiveReplicaLine(ln) ==
    /\ ln.action = "ReceiveReplica"
    /\ \E m \in rnet : m.to = ln.server /\ m.note = ln.note /\ ReceiveReplica(m)

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

Blocked(s, t) == \E m \in snet : {m.from, m.to} = {s, t}
Req(s, t) == SyncMsg("syncReq", s, t, removed[s], gone[s])

\* A request carries the sender's removed set at the time it leaves.
StartSyncLine(ln) ==
    /\ ln.action = "StartSync"
    /\ AsSet(ln.msg) = removed[ln.server]
    /\ \/ StartSync(ln.server, ln.peer)
       \/ Req(ln.server, ln.peer) \in snet /\ Still
       \/ Blocked(ln.server, ln.peer) /\ Still

\* A sync message of `type` from peer to server carrying the line's ids.
Carried(ln, type) ==
    {m \in snet : m.type = type /\ m.from = ln.peer /\ m.to = ln.server /\ m.removed = AsSet(ln.msg)}

SentMsg(type, from, to, rem) == [type |-> type, from |-> from, to |-> to, removed |-> rem]

\* A sent message of `type` merged outside snet: a copy, or one the bound kept out (see above).
Late(ln, type) ==
    LET m == SyncMsg(type, ln.peer, ln.server, AsSet(ln.msg), {}) IN
    /\ SentMsg(type, ln.peer, ln.server, m.removed) \in sent
    /\ Merge(ln.server, m.removed)
    /\ Confirm(m)
    /\ lastAction' = [name |-> ln.action, server |-> ln.server, peer |-> ln.peer, late |-> TRUE]
    /\ UNCHANGED <<baseVars, sess, rnet, snet>>

HandleSyncLine(ln) ==
    /\ ln.action = "HandleSync"
    /\ \/ \E m \in Carried(ln, "syncReq") : HandleSync(m)
       \/ Late(ln, "syncReq")

ReceiveSyncReplyLine(ln) ==
    /\ ln.action = "ReceiveSyncReply"
    /\ \/ \E m \in Carried(ln, "syncRep") : ReceiveSyncReply(m)
       \/ \E m \in Carried(ln, "syncReq") : HandleSync(m)
       \/ Late(ln, "syncRep")

\* The sync message a line sends, if any, into sent.
Sends(ln) ==
    sent' = CASE ln.action = "StartSync" -> sent \cup {SentMsg("syncReq", ln.server, ln.peer, AsSet(ln.msg))}
              [] ln.action = "HandleSync" -> sent \cup {SentMsg("syncRep", ln.server, ln.peer, removed'[ln.server])}
              [] OTHER -> sent

ServerCrashLine(ln) ==
    /\ ln.action = "ServerCrash"
    /\ ServerCrash(ln.server) \/ (sess[ln.server] = Idle /\ Still)

ClientCrashLine(ln) == ln.action = "ClientCrash" /\ ClientCrash

\* S0's client has no stable state: its first line and a restart's change nothing.
LoadLine(ln) == ln.action \in {"Init", "Recover"} /\ Still

\* A step of ExactlyOnceS0Msg, at the current time.
UntimedLine(ln) ==
    /\ \/ CreateLine(ln)
       \/ ReceiveReplicaLine(ln)
       \/ ConnectLine(ln)
       \/ DisconnectLine(ln)
       \/ StartSessionLine(ln)
       \/ EndSessionLine(ln)
       \/ SendNoteLine(ln)
       \/ ReceiveNoteLine(ln)
       \/ ReceiveAckLine(ln)
       \/ TimeoutLine(ln)
       \/ StartSyncLine(ln)
       \/ HandleSyncLine(ln)
       \/ ReceiveSyncReplyLine(ln)
       \/ ServerCrashLine(ln)
       \/ ClientCrashLine(ln)
    /\ Frame

\* The clock's own steps: one Tick line per tick; a Forget at the core's rule.
TimedLine(ln) ==
    \/ ln.action = "Tick" /\ Tick /\ now' = ln.now
    \/ ln.action = "Forget" /\ TimedForget(ln.server, ln.note)

-----------------------------------------------------------------------------
Blocking(ln) ==
    IF ln.action = "StartSync"
    THEN {m \in snet : {m.from, m.to} = {ln.server, ln.peer} /\ m # Req(ln.server, ln.peer)}
    ELSE {}

LoseFor(p) == \E m \in Blocking(Line(p)) : LoseSync(m) /\ Frame /\ UNCHANGED <<l, sent>>

TimeoutFor(p) ==
    /\ Line(p).action = "StartSession"
    /\ sess[Line(p).server].pending # <<>>
    /\ Timeout(Line(p).server)
    /\ Frame
    /\ UNCHANGED <<l, sent>>

TraceStep ==
    \E p \in Procs :
       /\ Pending(p)
       /\ \/ LoseFor(p)
          \/ TimeoutFor(p)
          \/ LET ln == Line(p) IN
             /\ \/ UntimedLine(ln)
                \/ TimedLine(ln)
                \/ LoadLine(ln)
             /\ Agrees(ln)
             /\ Sends(ln)
             /\ Taken(p)

TraceNext == TraceStep /\ UNCHANGED log

TraceInit == log = TraceLog /\ TimedInit /\ l = [p \in Procs |-> 0] /\ sent = {}

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

\* Not faults, lastAction (what the step was) nor gone (a ghost of the
\* refinement mapping); snet's messages still carry gone, which costs states.
\* Nor sent: the lines taken (l) fix it.
TraceView == <<l, net, conn, created, delivered, K, sess, removed, conf, rnet, snet, now, createdAt, confAt>>

ASSUME TLCSet(1, 0 - 1)
TraceProgress ==
    IF Progress(l) > TLCGet(1)
    THEN TLCSet(1, Progress(l)) /\ PrintT(<<"progress", Progress(l)>>)
    ELSE TRUE

-----------------------------------------------------------------------------
(* The rejection report, as in TraceScmp.                                  *)

SpecState ==
    [net |-> net, conn |-> conn, created |-> created, delivered |-> delivered, K |-> K, sess |-> sess,
     removed |-> removed, conf |-> conf, rnet |-> rnet, snet |-> snet, now |-> now, confAt |-> confAt,
     lastAction |-> lastAction]

Probe == Progress(l) = ReportAt /\ TimedNext /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED <<log, sent>>
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == Progress(l) <= ReportAt
ReportState == Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
