------------------------- MODULE TraceExactlyOnceS5 -------------------------
(***************************************************************************)
(* Trace validation of Strategy 5 (DESIGN.md, link 5): is the step log of  *)
(* a GatherWorld run (S5Server cores, atomic replication, the shared       *)
(* SimNetwork, skewed clocks) a behaviour of ExactlyOnceS5Msg?  Its        *)
(* periodic syncs are DSyncs (K, D, watermark `seen`, send time) sent by   *)
(* one step (syncAll, one line for the round) and received by another     *)
(* (recvPeerSync: TS raised, then the purge, one line).                    *)
(*                                                                         *)
(* Shape and mapping as TraceExactlyOnceS4 (its header): one process, the *)
(* logged K and D checked after each step, aDeliver the spec's atomic step *)
(* at the call and ReportOutcome stuttering, loss, expiry and partitions  *)
(* unlogged (AllowDup keeps every message), a crash of a server without a *)
(* session the spec's IdleCrashM.  What time adds:                        *)
(* - one Tick line per tick of true time, with the client's clock read on *)
(*   the spec's time line (GatherWorld.specTime); a server's stamps (the   *)
(*   DSync's and a D reply's ts) on the same line, so each must be        *)
(*   now + ClockOffset[s], the header's offsets;                          *)
(* - a StartSession line names the servers the core pulls from: the spec's *)
(*   Stale5, which its clock, TS, T_r and the margins decide;              *)
(* - a PeriodicSync line is the spec's PeriodicSyncM, also while a DSync  *)
(*   of the sender is still in pnet (with AllowDup a received DSync stays  *)
(*   in pnet): the spec has no bound on rounds, the models do             *)
(*   (MCExactlyOnceS5Msg's OneRoundInFlight); until this stop the bound   *)
(*   was the spec's and this module added the round (SendAnotherRound);    *)
(* - a ClientCrash line while the client is not connected is the spec's   *)
(*   ClientCrashAway (the rebooted S5Client waits T_r from the crash),     *)
(*   which this module took as stuttering until this stop.                 *)
(* Every line is one step of ExactlyOnceS5Msg's MsgNext or stuttering     *)
(* (ReportOutcome), nothing added.                                         *)
(* faults is outside the VIEW: MaxFaults is set above any run's count.     *)
(*                                                                         *)
(* The SIGKILL run (GatherCrashExperiment with step logs; GatherKillRun    *)
(* joins incarnations, GatherTimedKillRun merges all lines by the step's  *)
(* clock reading `now`, then the µs written, and puts in the Tick lines): *)
(* what TraceExactlyOnceS4 says of its kill run holds here (replicas      *)
(* stored later, `unstored`; ServerRecover; the cut last line; sessions   *)
(* by the core's id), and:                                                 *)
(* - the client's start is a ClientRecover line (stuttering), the reading *)
(*   its T_r runs from, at which the validator puts a kill of the client; *)
(* - every line carries `now`, the step's one reading of true time, which *)
(*   must be the spec's `now` (a server's stamps are now + ClockOffset);   *)
(* - a DSync whose sender had not stored a replica yet is the spec's less *)
(*   that note (as TraceExactlyOnceS4's purge sync; its seen too).        *)
(***************************************************************************)
EXTENDS ExactlyOnceS5Msg, TLC

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
\* (K as the core holds it: less the replicas still on their way there), and
\* the step's clock reading is the spec's time (the kill run's lines).
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

\* A replica enters the core's K where the spec's CreateNote put it already.
StoreReplicaLine(ln) ==
    /\ ln.action = "StoreReplica"
    /\ ln.note \in unstored[ln.server]
    /\ unstored' = [unstored EXCEPT ![ln.server] = @ \ {ln.note}]
    /\ Still

\* A restart's first line: K and D as read back (Agrees) are the spec's.
ServerRecoverLine(ln) == ln.action = "ServerRecover" /\ Still
\* The client's start: the reading it waits T_r from, the spec's lastEnd when
\* the kill before it (ClientCrash) took the spec's now from this line.
ClientRecoverLine(ln) == ln.action = "ClientRecover" /\ Still
ConnectLine(ln) == ln.action = "Connect" /\ Same(Connect(ln.server))
DisconnectLine(ln) == ln.action = "Disconnect" /\ Same(Disconnect)
ClientCrashLine(ln) == ln.action = "ClientCrash" /\ Same(ClientCrashM)
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

\* The DSyncs the core sent are the spec's less the replicas not stored at
\* the sender yet (none in the world).
PeriodicSyncLine(ln) ==
    LET s == ln.server IN
    /\ ln.action = "PeriodicSync"
    /\ K[s] = AsSet(ln.k) \cup unstored[s] /\ D[s] = AsSet(ln.d)
    /\ seen[s] = ln.seen + Cardinality(unstored[s]) /\ Clock(s) = ln.ts
    /\ PeriodicSyncM(s)

\* The note numbered k (every server numbers by creation, NumberedAlike).
Number(i) == CHOOSE k \in 1..MaxNotes : NoteIds[k] = i

\* The DSync received is a spec DSync less notes its sender had not stored
\* when it sent it: each numbered above the logged watermark, one per number
\* (as TraceExactlyOnceS4's RecvPurgeSyncLine).
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

\* The last line before a kill, dropped: its step did not take effect.
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
                      \/ TickLine(ln)
                      \/ ReqDLine(ln)
                      \/ ReplyDLine(ln)
                      \/ RecvDLine(ln)
                      \/ GatherFailLine(ln)
                      \/ EndGatherLine(ln)
                      \/ ADeliverOKLine(ln)
                      \/ ADeliverErrLine(ln)
                      \/ ReportOutcomeLine(ln)
                      \/ PeriodicSyncLine(ln)
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

TraceView == <<l, net, conn, created, delivered, gatherVars, timedVars, lastEnd, msgVars, unstored, sidOf>>

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
     snet |-> snet, connId |-> connId, now |-> now, TS |-> TS, lastEnd |-> lastEnd, pnet |-> pnet,
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
