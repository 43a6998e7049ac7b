------------------------- MODULE TraceExactlyOnceS6 -------------------------
(***************************************************************************)
(* Trace validation of Strategy 6 (DESIGN.md, link 5): is the step log of  *)
(* a GatherWorld run (S6Server cores and the S6Client with its stored      *)
(* history, atomic replication, the shared SimNetwork, skewed clocks) a    *)
(* behaviour of ExactlyOnceS6Msg?  Its push syncs are DSyncs (K, D,       *)
(* watermark `seen`, send time) sent by one step (syncAll, one line for    *)
(* the round) and received by another (recvPeerSync, one line).            *)
(*                                                                         *)
(* Shape and mapping as TraceExactlyOnceS5 (its header), the same lines    *)
(* with PushSync for PeriodicSync, and what H adds:                        *)
(* - the history is uploaded with the request: the StartSession line      *)
(*   names the servers the core pulls from, the spec's Stale6, which H,    *)
(*   TS and the margins decide;                                           *)
(* - a connection cut by its server's crash is the client core's crash,    *)
(*   which leaves H(s) open: the spec's ClientCrash;                      *)
(* - a lost history is a ClientLoseH line, the spec's ClientLoseHM, also  *)
(*   a loss again before the client visited every server (found by this   *)
(*   validation, GatherWorld seed 3; this module added it as LoseHAgain    *)
(*   until the spec took it);                                             *)
(* - a PushSync line is the spec's PushSyncM, also while a DSync of the    *)
(*   sender is in pnet (S5's header says why; SendAnotherRound here until *)
(*   the bound moved to the models), only while the client is not at the  *)
(*   sender (L246).                                                       *)
(* Every line is one step of ExactlyOnceS6Msg's MsgNext or stuttering     *)
(* (ReportOutcome), nothing added.                                         *)
(* faults is outside the VIEW: MaxFaults is set above any run's count.     *)
(*                                                                         *)
(* The SIGKILL run: as TraceExactlyOnceS5's (its header: `unstored`,       *)
(* ServerRecover, ClientRecover, the cut line, sessions, each line's       *)
(* `now`), and a client started on an absent or corrupt history logs      *)
(* ClientLoseH.  The parent asks a server for its push only once the       *)
(* client is away from it (after the client's Disconnect, or its restart  *)
(* after a kill), and a restarted server pushes before it is ready, so     *)
(* every PushSync line is the spec's PushSyncM (conn # s).                 *)
(***************************************************************************)
EXTENDS ExactlyOnceS6Msg, TLC

CONSTANTS
    TraceLog,   \* <<process 1's lines, ...>>, each line a record
    ReportAt    \* rejection report only: how many lines the longest prefix took

VARIABLES
    l,          \* process -> how many of its lines the behaviour has taken
    log,        \* TraceLog, held in a variable that never changes (see TraceScmp)
    unstored,   \* server -> notes created whose replica it has not stored yet (the kill run)
    sidOf       \* the kill run's sessions: [server, session (the core's id), sid (the spec's)]

traceVars == <<allVars, l, log, unstored, sidOf>>
Procs == DOMAIN log
Pending(p) == l[p] < Len(log[p])
Line(p) == log[p][l[p] + 1]
Has(ln, f) == f \in DOMAIN ln
Taken(p) == l' = [l EXCEPT ![p] = @ + 1]
Progress(c) == LET Sum[i \in 0..Len(log)] == IF i = 0 THEN 0 ELSE Sum[i - 1] + c[i]
               IN Sum[Len(log)]

\* A log writes a set as a JSON array, which the generator makes a sequence.
AsSet(q) == {q[j] : j \in DOMAIN q}

\* After the step, the variables the line names have the values it gives
\* (K less the replicas still on their way there; the kill run's `now`).
Agrees(ln) ==
    /\ Has(ln, "K") => K'[ln.server] = AsSet(ln.K) \cup unstored'[ln.server]
    /\ Has(ln, "D") => D'[ln.server] = AsSet(ln.D)
    /\ Has(ln, "now") => now' = ln.now

Still == UNCHANGED allVars

-----------------------------------------------------------------------------
\* The kill run's origin names itself; the other servers store the replica later.
CreateLine(ln) ==
    /\ ln.action = "CreateNote"
    /\ CreateNoteM
    /\ lastAction'.note = ln.note
    /\ unstored' = IF Has(ln, "server")
                   THEN [t \in Servers |-> IF t = ln.server THEN unstored[t] ELSE unstored[t] \cup {ln.note}]
                   ELSE unstored

StoreReplicaLine(ln) ==
    /\ ln.action = "StoreReplica"
    /\ ln.note \in unstored[ln.server]
    /\ unstored' = [unstored EXCEPT ![ln.server] = @ \ {ln.note}]
    /\ Still

ServerRecoverLine(ln) == ln.action = "ServerRecover" /\ Still
ClientRecoverLine(ln) == ln.action = "ClientRecover" /\ Still
ConnectLine(ln) == ln.action = "Connect" /\ Same(Connect(ln.server))
DisconnectLine(ln) == ln.action = "Disconnect" /\ Same(Disconnect)
ClientCrashLine(ln) == ln.action = "ClientCrash" /\ Same(ClientCrash)
ClientLoseHLine(ln) == ln.action = "ClientLoseH" /\ Same(ClientLoseHM)
TickLine(ln) == ln.action = "Tick" /\ Same(Tick) /\ now' = ln.now

StartSessionLine(ln) ==
    /\ ln.action = "StartSession"
    /\ Same(StartSession(ln.server))
    /\ lastAction'.stale = AsSet(ln.stale)
    /\ sidOf' = IF Has(ln, "session")
                THEN sidOf \cup {[server |-> ln.server, session |-> ln.session, sid |-> connId]}
                ELSE sidOf

ReqDLine(ln) == ln.action = "ReqD" /\ Same(ReqD(ln.server, ln.peer))

ReplyDLine(ln) ==
    /\ ln.action = "ReplyD"
    /\ \E m \in snet : /\ m.type = "reqD" /\ m.from = ln.peer /\ m.to = ln.server
                       /\ Has(ln, "session") => [server |-> ln.peer, session |-> ln.session, sid |-> m.sid] \in sidOf
                       /\ Same(ReplyD(ln.server, m))
    /\ lastAction'.d = AsSet(ln.d) /\ lastAction'.ts = ln.ts

RecvDLine(ln) ==
    /\ ln.action = "RecvD"
    /\ \E m \in snet : /\ m.type = "replyD" /\ m.from = ln.peer /\ m.to = ln.server
                       /\ m.d = AsSet(ln.d) /\ m.ts = ln.ts
                       /\ RecvDM(ln.server, m)

GatherFailLine(ln) == ln.action = "GatherFail" /\ Same(GatherFail(ln.server))
EndGatherLine(ln) == ln.action = "EndGather" /\ Same(EndGather(ln.server))
ADeliverOKLine(ln) == ln.action = "ADeliverOK" /\ Same(ADeliverOK(ln.server, ln.note))
ADeliverErrLine(ln) == ln.action = "ADeliverErr" /\ Same(ADeliverErr(ln.server, ln.note))
ReportOutcomeLine(ln) == ln.action = "ReportOutcome" /\ Still

PushSyncLine(ln) ==
    LET s == ln.server IN
    /\ ln.action = "PushSync"
    /\ K[s] = AsSet(ln.k) \cup unstored[s] /\ D[s] = AsSet(ln.d)
    /\ seen[s] = ln.seen + Cardinality(unstored[s]) /\ Clock(s) = ln.ts
    /\ PushSyncM(s)

Number(i) == CHOOSE k \in 1..MaxNotes : NoteIds[k] = i

RecvPeerSyncLine(ln) ==
    /\ ln.action = "RecvPeerSync"
    /\ \E m \in pnet : /\ m.from = ln.peer /\ m.to = ln.server
                       /\ AsSet(ln.k) \subseteq m.k /\ m.d = AsSet(ln.d) /\ m.ts = ln.ts
                       /\ m.seen = ln.seen + Cardinality(m.k \ AsSet(ln.k))
                       /\ \A i \in m.k \ AsSet(ln.k) : Number(i) > ln.seen
                       /\ RecvPeerSync(ln.server, m)

ServerCrashLine(ln) ==
    /\ ln.action = "ServerCrash"
    /\ ServerCrashM(ln.server) \/ IdleCrashM(ln.server)

SkipCut(p) == Has(Line(p), "cut") /\ Still /\ UNCHANGED <<unstored, sidOf>> /\ Taken(p)

-----------------------------------------------------------------------------
TraceStep ==
    \E p \in Procs :
       /\ Pending(p)
       /\ \/ SkipCut(p)
          \/ LET ln == Line(p) IN
             /\ \/ CreateLine(ln) /\ UNCHANGED sidOf
                \/ StoreReplicaLine(ln) /\ UNCHANGED sidOf
                \/ StartSessionLine(ln) /\ UNCHANGED unstored
                \/ /\ \/ ServerRecoverLine(ln)
                      \/ ClientRecoverLine(ln)
                      \/ ConnectLine(ln)
                      \/ DisconnectLine(ln)
                      \/ ClientCrashLine(ln)
                      \/ ClientLoseHLine(ln)
                      \/ TickLine(ln)
                      \/ ReqDLine(ln)
                      \/ ReplyDLine(ln)
                      \/ RecvDLine(ln)
                      \/ GatherFailLine(ln)
                      \/ EndGatherLine(ln)
                      \/ ADeliverOKLine(ln)
                      \/ ADeliverErrLine(ln)
                      \/ ReportOutcomeLine(ln)
                      \/ PushSyncLine(ln)
                      \/ RecvPeerSyncLine(ln)
                      \/ ServerCrashLine(ln)
                   /\ UNCHANGED <<unstored, sidOf>>
             /\ Agrees(ln)
             /\ Taken(p)

TraceNext == TraceStep /\ UNCHANGED log

TraceInit ==
    /\ log = TraceLog /\ MsgInit /\ l = [p \in Procs |-> 0]
    /\ unstored = [s \in Servers |-> {}] /\ sidOf = {}

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

TraceView == <<l, net, conn, created, delivered, gatherVars, timedVars, H, msgVars, unstored, sidOf>>

\* Acceptance and progress as in TraceScmp.
ASSUME TLCSet(1, 0 - 1)
TraceProgress ==
    IF Progress(l) > TLCGet(1)
    THEN TLCSet(1, Progress(l)) /\ PrintT(<<"progress", Progress(l)>>)
    ELSE TRUE

-----------------------------------------------------------------------------
(* The rejection report, as in TraceScmp.                                  *)

SpecState ==
    [conn |-> conn, created |-> created, delivered |-> delivered, K |-> K, D |-> D, sess |-> sess,
     snet |-> snet, connId |-> connId, now |-> now, TS |-> TS, H |-> H, pnet |-> pnet,
     seen |-> seen, entered |-> entered, known |-> known, knownK |-> knownK, knownSeen |-> knownSeen,
     lastAction |-> lastAction]

Probe == Progress(l) = ReportAt /\ MsgNext /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED <<log, unstored, sidOf>>
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == Progress(l) <= ReportAt
ReportState == Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
