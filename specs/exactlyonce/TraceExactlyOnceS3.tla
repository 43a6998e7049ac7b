------------------------- MODULE TraceExactlyOnceS3 -------------------------
(***************************************************************************)
(* Trace validation of Strategy 3 (DESIGN.md, link 5): are the step logs   *)
(* of a real run (S3Server cores, the client, the SIGKILL driver) a        *)
(* behaviour of ExactlyOnceS3MsgRound?  That spec, not the atomic          *)
(* ExactlyOnceS3, because its steps are the runtime's: a note enters its   *)
(* origin's K and reaches the others as a replica, acknowledged and        *)
(* committed (the round); a sync is a request and a reply carrying K, D    *)
(* and the watermark, merged as S3Server.merge does.  The atomic spec's    *)
(* CreateNote and Sync are whole exchanges no runtime step is.             *)
(*                                                                         *)
(* Shape as TraceRpc and TraceHybrid: a cursor per process; TraceStep      *)
(* takes the next line of some process by the action it names, parameters *)
(* fixed, the variables it logs checked after the step; the spec's         *)
(* networks (net, snet, rnet) enforce happens-before between processes.    *)
(*                                                                         *)
(* What a log need not show:                                               *)
(* - stuttering; in particular a line the runtime writes for a step that  *)
(*   changes no spec variable: a duplicate or resent replica, ack or       *)
(*   commit (the round's resends ride on the periodic sync; the spec sends *)
(*   each once, on a network that loses nothing, so a resend's receipt is  *)
(*   the original's or a no-op), a sync whose requests are already on the  *)
(*   way, a session started or ended while the spec's stays active and     *)
(*   idle, a crash of a server with nothing volatile;                     *)
(* - message loss (Lose): the runtime's network loses and expires what    *)
(*   the spec keeps (AllowDup keeps a received message), and the spec's    *)
(*   Authorize needs NoCopy(i), what the core's T_e wait achieves.  So     *)
(*   before an Authorize line the copies that block it are lost, one spec *)
(*   Lose each (LoseFor).  A copy the client then receives was not gone:   *)
(*   its ReceiveNote line finds no note in net and is rejected.            *)
(* - time: the spec has none (the T_e gate is NoCopy above).               *)
(* faults is outside the VIEW: MaxFaults is set above any run's count, so *)
(* it enables nothing and only tells interleavings apart.                  *)
(*                                                                         *)
(* A server killed with SIGKILL (S3ServerMain, the server run of crash-eo): *)
(* each incarnation writes its own log, whose first line, ServerRecover,   *)
(* gives K, D, seen and the notes of K whose round is complete (ready) as *)
(* the restart read them back from its journal.                           *)
(* The validator joins the incarnations of a server with one ServerCrash   *)
(* per kill (volatile sessions and known lost, K and D kept), and the      *)
(* ServerRecover line must find the spec's values there: what the        *)
(* store kept is what the spec says survives.                             *)
(*                                                                         *)
(* The last line before a kill may be dropped (SkipCut), and only that    *)
(* one: the validator marks it `cut`.  S3Server writes a step's line      *)
(* inside the step, before ConcurrentS3Server commits the step's record,  *)
(* so a kill can leave a line whose effect never became durable.  Why     *)
(* dropping it is sound: (1) the server takes one request at a time and   *)
(* a step's record is committed before its messages leave and before the  *)
(* next request is read, so only an incarnation's last step can be        *)
(* uncommitted, and no other process saw anything of it (nothing left     *)
(* before the commit); a step that was not committed therefore did not    *)
(* happen as far as any process or the store can tell, and the behaviour   *)
(* without it is the run's.  (2) Dropping is a choice TLC tries beside     *)
(* taking the line, never a rewrite: if the step's effect did reach the   *)
(* store or another process, the branch that drops it fails, at the       *)
(* ServerRecover line (which checks K, D, seen and the round's ready      *)
(* set) or at the other process's line that needs its message, and the   *)
(* branch that takes it must pass.  The kill run has one server, whose    *)
(* durable steps all change what that line checks; with several servers   *)
(* a ReceiveReplicaAck that completes no round changes only num, which it  *)
(* does not show, so such a run would log num there too.  So a log        *)
(* with a committed line removed is still rejected: a removed line before *)
(* the last is never droppable, and a removed last line makes the line    *)
(* before it the droppable one, while the restart still shows the removed *)
(* step's effect (S3ServerSigkillValidationTest, the controls).  One line *)
(* per step suffices: the one step of S3Server that writes two lines (a   *)
(* session replaced while a Deliver is outstanding: Timeout, then         *)
(* StartSession) changes nothing durable, so its first line can always be *)
(* taken.  A server taking requests on several threads (group commit)     *)
(* could leave several logged steps uncommitted; its logs would need a    *)
(* line for each commit, which these do not have.                        *)
(***************************************************************************)
EXTENDS ExactlyOnceS3MsgRound, TLC

CONSTANTS
    TraceLog,   \* <<process 1's lines, process 2's lines, ...>>, each line a record
    ReportAt    \* rejection report only: how many lines the longest prefix took

VARIABLES
    l,          \* process -> how many of its lines the behaviour has taken
    log         \* TraceLog, held in a variable that never changes (see TraceScmp)

traceVars == <<rAllVars, l, log>>
Procs == DOMAIN log
Pending(p) == l[p] < Len(log[p])
Line(p) == log[p][l[p] + 1]
Has(ln, f) == f \in DOMAIN ln
Taken(p) == l' = [l EXCEPT ![p] = @ + 1]
Progress(c) == LET Sum[i \in 0..Len(log)] == IF i = 0 THEN 0 ELSE Sum[i - 1] + c[i]
               IN Sum[Len(log)]

\* A log writes a set as a JSON array, which the generator makes a sequence.
AsSet(q) == {q[j] : j \in DOMAIN q}

\* After the step, the variables the line names have the values it gives.
Agrees(ln) ==
    /\ Has(ln, "R") => R' = AsSet(ln.R)
    /\ Has(ln, "K") => K'[ln.server] = AsSet(ln.K)
    /\ Has(ln, "D") => D'[ln.server] = AsSet(ln.D)

\* A step of ExactlyOnceS3Msg's Next inside RoundNext: the round untouched.
M(A) == A /\ UNCHANGED roundVars
Still == UNCHANGED rAllVars

-----------------------------------------------------------------------------
(* Server lines (S3Server's hooks).                                        *)

CreateLine(ln) ==
    /\ ln.action = "CreateNote"
    /\ CreateAt(ln.server)
    /\ lastAction'.note = ln.note

ReplicaFor(ln) == {r \in rnet : r.type = "replica" /\ r.to = ln.server /\ r.from = ln.from /\ r.note = ln.note}

ReceiveReplicaLine(ln) ==
    /\ ln.action = "ReceiveReplica"
    /\ \/ \E r \in ReplicaFor(ln) : ReceiveReplica(r) /\ entered'[ln.server][ln.note] = ln.n
       \/ /\ ReplicaFor(ln) = {} /\ ln.outcome # "stored"
          /\ ln.note \in K[ln.server] /\ entered[ln.server][ln.note] = ln.n
          /\ Still

AckFor(ln) == {a \in rnet : a.type = "ack" /\ a.to = ln.server /\ a.from = ln.from /\ a.note = ln.note
                            /\ a.n = ln.n}

ReceiveReplicaAckLine(ln) ==
    /\ ln.action = "ReceiveReplicaAck"
    /\ \/ /\ \E a \in AckFor(ln) : ReceiveReplicaAck(a)
          /\ ln.outcome = "committed" => ln.note \in ready'[ln.server]
          /\ ln.outcome = "acknowledged" => ln.note \notin ready'[ln.server]
       \/ /\ AckFor(ln) = {} /\ ln.outcome \in {"recommitted", "ignored"}
          /\ ln.note \notin K[ln.server] \/ num[ln.server][ln.note][ln.from] = ln.n
          /\ Still

CommitFor(ln) == {c \in rnet : c.type = "commit" /\ c.to = ln.server /\ c.from = ln.from /\ c.note = ln.note}

ReceiveCommitLine(ln) ==
    /\ ln.action = "ReceiveCommit"
    /\ \/ /\ \E c \in CommitFor(ln) : ReceiveCommit(c)
          /\ (ln.outcome = "committed") = (ln.note \in ready'[ln.server] \ ready[ln.server])
       \/ /\ CommitFor(ln) = {} /\ ln.outcome = "ignored"
          /\ ln.note \in ready[ln.server] \/ ln.note \notin K[ln.server]
          /\ Still

Active(s) == sess[s] = [active |-> TRUE, pending |-> <<>>]

StartSessionLine(ln) ==
    /\ ln.action = "StartSession"
    /\ \/ M(Same(StartSession(ln.server)))
       \/ Active(ln.server) /\ Still

EndSessionLine(ln) == ln.action = "EndSession" /\ Active(ln.server) /\ Still

SendNoteLine(ln) ==
    /\ ln.action = "SendNote"
    /\ ln.note \in ready[ln.server]
    /\ M(Same(SendNote(ln.server, ln.note)))

ReceiveAckLine(ln) ==
    /\ ln.action = "ReceiveAck"
    /\ AckMsg(ln.server, ln.note) \in net
    /\ M(Same(ReceiveAck(AckMsg(ln.server, ln.note))))

TimeoutLine(ln) ==
    /\ ln.action = "Timeout"
    /\ M(Same(Timeout(ln.server)))
    /\ lastAction'.note = ln.note

\* The message every other server gets: built from s's K, D and seen now.
StartSyncLine(ln) ==
    LET s == ln.server IN
    /\ ln.action = "StartSync"
    /\ K[s] = AsSet(ln.k) /\ D[s] = AsSet(ln.d) /\ seen[s] = ln.seen
    /\ \/ M(StartSync(s))
       \/ {SyncMsg("syncReq", s, t, K[s], D[s], seen[s]) : t \in Servers \ {s}} \subseteq snet /\ Still

SyncFor(ln, type) == {m \in snet : m.type = type /\ m.from = ln.peer /\ m.to = ln.server
                                   /\ m.k = AsSet(ln.k) /\ m.d = AsSet(ln.d) /\ m.seen = ln.seen}

HandleSyncLine(ln) ==
    /\ ln.action = "HandleSync"
    /\ \E m \in SyncFor(ln, "syncReq") : M(HandleSyncWith(ln.server, m, RMerge))

ReceiveSyncReplyLine(ln) ==
    /\ ln.action = "ReceiveSyncReply"
    /\ \E m \in SyncFor(ln, "syncReply") : M(ReceiveSyncReplyWith(ln.server, m, RMerge))

AuthorizeLine(ln) ==
    /\ ln.action = "Authorize"
    /\ M(Same(Authorize(ln.server, ln.note)))

PurgeAckMsg(ln) == Msg("purgeAck", Client, ln.server, ln.note)

ReceivePurgeAckLine(ln) ==
    /\ ln.action = "ReceivePurgeAck"
    /\ PurgeAckMsg(ln) \in net
    /\ M(ReceivePurgeAckM(PurgeAckMsg(ln)))

\* The restart's first line: the store's K and D (Agrees), seen and the notes
\* of K whose round is complete must be the spec's after the kill's
\* ServerCrash (the spec's ready keeps a purged note; the core's does not).
ServerRecoverLine(ln) ==
    /\ ln.action = "ServerRecover"
    /\ seen[ln.server] = ln.seen
    /\ ready[ln.server] \cap K[ln.server] = AsSet(ln.ready)
    /\ Still

ServerCrashLine(ln) ==
    /\ ln.action = "ServerCrash"
    /\ \/ M(Same(ServerCrash(ln.server)))
       \/ sess[ln.server] = Idle /\ known[ln.server] = NoneKnown /\ Still

-----------------------------------------------------------------------------
(* Client lines (the world's or the client JVM's, after the durable        *)
(* write), and the steps a client restart implies.                         *)

\* The server a note or purge came from: the line's, or (a line the
\* validator reconstructs after a SIGKILL cut it) any.
From(ln) == IF Has(ln, "server") THEN {ln.server} ELSE Servers

ReceiveNoteLine(ln) ==
    /\ ln.action = "ReceiveNote"
    /\ \E s \in From(ln) :
         /\ NoteMsg(s, ln.note) \in net
         /\ M(Same(ReceiveNote(NoteMsg(s, ln.note))))
    /\ Has(ln, "verdict") => lastAction'.verdict = ln.verdict

ReceivePurgeLine(ln) ==
    /\ ln.action = "ReceivePurge"
    /\ \E s \in From(ln) :
         /\ Msg("purge", s, Client, ln.note) \in net
         /\ M(Same(ReceivePurge(Msg("purge", s, Client, ln.note))))

ConnectLine(ln) == ln.action = "Connect" /\ M(Same(Connect(ln.server)))
DisconnectLine(ln) == ln.action = "Disconnect" /\ M(Same(Disconnect))
ClientCrashLine(ln) == ln.action = "ClientCrash" /\ M(Same(ClientCrash))

\* A client's first line (Init) or a restart's (Recover): R as read from its
\* store, which must be the spec's R (stable storage, L77).
LoadLine(ln) == ln.action \in {"Init", "Recover"} /\ R = AsSet(ln.R) /\ Still

-----------------------------------------------------------------------------
\* Unlogged loss of the copies that block an Authorize line (see above).
Blocking(ln) ==
    IF ln.action = "Authorize" /\ InEveryD(ln.server, ln.note)
    THEN {m \in net : (m.type = "note" /\ m.note = ln.note) \/ m = Msg("purge", ln.server, Client, ln.note)}
    ELSE {}

LoseFor(p) == \E m \in Blocking(Line(p)) : M(Same(LoseMsg(m))) /\ UNCHANGED l

\* The last line before a kill, dropped: its step was not committed (see above).
SkipCut(p) == Has(Line(p), "cut") /\ Still /\ Taken(p)

TraceStep ==
    \E p \in Procs :
       /\ Pending(p)
       /\ \/ LoseFor(p)
          \/ SkipCut(p)
          \/ LET ln == Line(p) IN
             /\ \/ CreateLine(ln)
                \/ ReceiveReplicaLine(ln)
                \/ ReceiveReplicaAckLine(ln)
                \/ ReceiveCommitLine(ln)
                \/ StartSessionLine(ln)
                \/ EndSessionLine(ln)
                \/ SendNoteLine(ln)
                \/ ReceiveAckLine(ln)
                \/ TimeoutLine(ln)
                \/ StartSyncLine(ln)
                \/ HandleSyncLine(ln)
                \/ ReceiveSyncReplyLine(ln)
                \/ AuthorizeLine(ln)
                \/ ReceivePurgeAckLine(ln)
                \/ ServerCrashLine(ln)
                \/ ServerRecoverLine(ln)
                \/ ReceiveNoteLine(ln)
                \/ ReceivePurgeLine(ln)
                \/ ConnectLine(ln)
                \/ DisconnectLine(ln)
                \/ ClientCrashLine(ln)
                \/ LoadLine(ln)
             /\ Agrees(ln)
             /\ Taken(p)

TraceNext == TraceStep /\ UNCHANGED log

TraceInit == log = TraceLog /\ RoundInit /\ l = [p \in Procs |-> 0]

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

TraceView == <<l, net, conn, created, delivered, stratVars, msgVars, roundVars>>

\* Acceptance and progress as in TraceScmp.
ASSUME TLCSet(1, 0 - 1)
TraceProgress ==
    IF Progress(l) > TLCGet(1)
    THEN TLCSet(1, Progress(l)) /\ PrintT(<<"progress", Progress(l)>>)
    ELSE TRUE

-----------------------------------------------------------------------------
(* The rejection report, as in TraceScmp.                                  *)

SpecState ==
    [net |-> net, conn |-> conn, created |-> created, delivered |-> delivered, K |-> K, D |-> D,
     known |-> known, sess |-> sess, R |-> R, snet |-> snet, seen |-> seen, entered |-> entered,
     rnet |-> rnet, num |-> num, ready |-> ready, lastAction |-> lastAction]

Probe == Progress(l) = ReportAt /\ RoundNext /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED log
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == Progress(l) <= ReportAt
ReportState == Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
