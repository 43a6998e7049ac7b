------------------------- MODULE TraceExactlyOnceS1 -------------------------
(***************************************************************************)
(* Trace validation of Strategy 1 (DESIGN.md, link 5): are the step logs   *)
(* of a real run (S1Server cores and the S1Client in EoWorld) a behaviour  *)
(* of ExactlyOnceS1Msg?  That spec, not the atomic ExactlyOnceS1, because  *)
(* its sync is the runtime's: a request and a reply, each carrying the     *)
(* sender's prefix per stream (pre), merged by max.  Replication is atomic *)
(* in both (a CreateNote line stands for the note entering every K).       *)
(*                                                                         *)
(* Shape as TraceExactlyOnceS3: a cursor per process; TraceStep takes the  *)
(* next line of some process by the action it names, parameters fixed,    *)
(* the variables it logs (R, pre) checked after the step.  A line's note   *)
(* is its id as a record [server, seq] (EoS1TraceFamily writes "A.3" so).  *)
(*                                                                         *)
(* What a log need not show:                                               *)
(* - stuttering: a step that changes no spec variable.  An EndSession (the *)
(*   client went to another server) while the spec's session is idle or   *)
(*   active and idle of Deliver calls; with a Deliver outstanding it is    *)
(*   the spec's Timeout (the session ends, the call failed).  A            *)
(*   StartSession on a session the spec keeps active; a crash of a server  *)
(*   whose session is idle; a StartSync whose request is already on the    *)
(*   way.  A sync message received again or late, whose merge changes     *)
(*   nothing: the runtime's network duplicates and reorders syncs, the     *)
(*   spec's snet neither (each message is taken once); max makes such a    *)
(*   merge a no-op, which is what the line must show (pre unchanged).  The *)
(*   reply such a duplicate request draws carries the replier's prefix: in *)
(*   the spec it is a StartSync of the replier, whose request the other    *)
(*   server then handles (HandleSync; its reply is left in snet).          *)
(* - message loss: net keeps received notes and acks (AllowDup).  The spec *)
(*   runs one sync exchange per pair at a time (StartSync's guard), the    *)
(*   runtime any number: before a StartSync line the messages of the pair  *)
(*   that block it may be lost (LoseSync, unlogged), or the new request is *)
(*   lost as it leaves (the line is stuttering); TLC tries every choice.  *)
(*   A request so lost, when it arrives, must merge as a no-op (above).    *)
(* - the failure of a Deliver call the runtime drops when a session      *)
(*   starts again (the client crashed, no EndSession ran): the spec's      *)
(*   Timeout, unlogged, before the StartSession line.                      *)
(* faults is outside the VIEW: MaxFaults is set above any run's count.     *)
(***************************************************************************)
EXTENDS ExactlyOnceS1Msg, TLC

CONSTANTS
    TraceLog,   \* <<process 1's lines, ...>>, each line a record
    ReportAt    \* rejection report only: how many lines the longest prefix took

VARIABLES
    l,          \* process -> how many of its lines the behaviour has taken
    log         \* TraceLog, held in a variable that never changes (see TraceScmp)

traceVars == <<vars, l, log>>
Procs == DOMAIN log
Pending(p) == l[p] < Len(log[p])
Line(p) == log[p][l[p] + 1]
Has(ln, f) == f \in DOMAIN ln
Taken(p) == l' = [l EXCEPT ![p] = @ + 1]
Progress(c) == LET Sum[i \in 0..Len(log)] == IF i = 0 THEN 0 ELSE Sum[i - 1] + c[i]
               IN Sum[Len(log)]

NoteOf(ln) == Id(ln.note.server, ln.note.seq)

\* After the step, the variables the line names have the values it gives.
Agrees(ln) ==
    /\ Has(ln, "R") => R' = ln.R
    /\ Has(ln, "pre") => pre'[ln.server] = ln.pre

Still == UNCHANGED vars
Active(s) == sess[s] = [active |-> TRUE, pending |-> <<>>]

-----------------------------------------------------------------------------
CreateLine(ln) ==
    /\ ln.action = "CreateNote"
    /\ CreateNote(ln.server)
    /\ lastAction'.note = NoteOf(ln)

ConnectLine(ln) == ln.action = "Connect" /\ Connect(ln.server)
DisconnectLine(ln) == ln.action = "Disconnect" /\ Disconnect

StartSessionLine(ln) ==
    /\ ln.action = "StartSession"
    /\ StartSession(ln.server) \/ (conn = ln.server /\ Active(ln.server) /\ Still)

EndSessionLine(ln) ==
    /\ ln.action = "EndSession"
    /\ \/ (Active(ln.server) \/ sess[ln.server] = Idle) /\ Still
       \/ Timeout(ln.server)

SendNoteLine(ln) ==
    /\ ln.action = "SendNote"
    /\ NoteOf(ln) \in K[ln.server]
    /\ SendNote(ln.server, NoteOf(ln))

ReceiveNoteLine(ln) ==
    /\ ln.action = "ReceiveNote"
    /\ NoteMsg(ln.server, NoteOf(ln)) \in net
    /\ ReceiveNote(NoteMsg(ln.server, NoteOf(ln)))
    /\ lastAction'.verdict = ln.verdict

ReceiveAckLine(ln) ==
    /\ ln.action = "ReceiveAck"
    /\ AckMsg(ln.server, NoteOf(ln)) \in net
    /\ ReceiveAck(AckMsg(ln.server, NoteOf(ln)))

TimeoutLine(ln) ==
    /\ ln.action = "Timeout"
    /\ Timeout(ln.server)
    /\ lastAction'.note = NoteOf(ln)

\* The request's prefix is the sender's stored one (rule "send").  The spec
\* runs one exchange per pair at a time; the runtime does not wait: a
\* request sent while another message of the pair is on the way is, to the
\* spec, lost as it leaves (Still), unless TLC loses the older ones first.
Blocked(s, t) == \E m \in snet : {m.from, m.to} = {s, t}

StartSyncLine(ln) ==
    /\ ln.action = "StartSync"
    /\ ln.msg = pre[ln.server]
    /\ \/ StartSync(ln.server, ln.peer)
       \/ SyncMsg("syncReq", ln.server, ln.peer, pre[ln.server]) \in snet /\ Still
       \/ Blocked(ln.server, ln.peer) /\ Still

\* A merge that changes nothing: the message is a duplicate or stale.
NoOp(ln) == Merged(ln.server, ln.msg) = pre[ln.server]

HandleSyncLine(ln) ==
    LET m == SyncMsg("syncReq", ln.peer, ln.server, ln.msg) IN
    /\ ln.action = "HandleSync"
    /\ \/ m \in snet /\ HandleSync(m)
       \/ NoOp(ln) /\ (Still \/ StartSync(ln.server, ln.peer))

ReceiveSyncReplyLine(ln) ==
    /\ ln.action = "ReceiveSyncReply"
    /\ \/ LET m == SyncMsg("syncRep", ln.peer, ln.server, ln.msg) IN m \in snet /\ ReceiveSyncReply(m)
       \/ LET m == SyncMsg("syncReq", ln.peer, ln.server, ln.msg) IN m \in snet /\ HandleSync(m)
       \/ NoOp(ln) /\ Still

ServerCrashLine(ln) ==
    /\ ln.action = "ServerCrash"
    /\ ServerCrash(ln.server) \/ (sess[ln.server] = Idle /\ Still)

ClientCrashLine(ln) == ln.action = "ClientCrash" /\ ClientCrash

\* The client's first line (Init) or a restart's (Recover): R as read from
\* its store, which must be the spec's R (stable storage, L77).
LoadLine(ln) == ln.action \in {"Init", "Recover"} /\ R = ln.R /\ Still

-----------------------------------------------------------------------------
\* Unlogged loss of the sync messages that block a StartSync line (see above).
Blocking(ln) ==
    IF ln.action = "StartSync"
    THEN {m \in snet : {m.from, m.to} = {ln.server, ln.peer}
                       /\ m # SyncMsg("syncReq", ln.server, ln.peer, pre[ln.server])}
    ELSE {}

LoseFor(p) == \E m \in Blocking(Line(p)) : LoseSync(m) /\ UNCHANGED l

\* Unlogged failure of the Deliver a StartSession line drops: the session
\* survived the client's going away (a client crash ends no session), and
\* the core's startSession forgets its pending call, the spec's Timeout.
TimeoutFor(p) ==
    /\ Line(p).action = "StartSession"
    /\ sess[Line(p).server].pending # <<>>
    /\ Timeout(Line(p).server)
    /\ UNCHANGED l

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
                \/ StartSyncLine(ln)
                \/ HandleSyncLine(ln)
                \/ ReceiveSyncReplyLine(ln)
                \/ ServerCrashLine(ln)
                \/ ClientCrashLine(ln)
                \/ LoadLine(ln)
             /\ Agrees(ln)
             /\ Taken(p)

TraceNext == TraceStep /\ UNCHANGED log

TraceInit == log = TraceLog /\ Init /\ l = [p \in Procs |-> 0]

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

TraceView == <<l, net, conn, created, delivered, stratVars>>

\* Acceptance and progress as in TraceScmp.
ASSUME TLCSet(1, 0 - 1)
TraceProgress ==
    IF Progress(l) > TLCGet(1)
    THEN TLCSet(1, Progress(l)) /\ PrintT(<<"progress", Progress(l)>>)
    ELSE TRUE

-----------------------------------------------------------------------------
(* The rejection report, as in TraceScmp.                                  *)

SpecState ==
    [net |-> net, conn |-> conn, created |-> created, delivered |-> delivered, ctr |-> ctr, K |-> K,
     sess |-> sess, R |-> R, pre |-> pre, snet |-> snet, lastAction |-> lastAction]

Probe == Progress(l) = ReportAt /\ Next /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED log
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == Progress(l) <= ReportAt
ReportState == Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
