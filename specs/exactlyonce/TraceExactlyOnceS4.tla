------------------------- MODULE TraceExactlyOnceS4 -------------------------
(***************************************************************************)
(* Trace validation of Strategy 4 (DESIGN.md, link 5): is the step log of  *)
(* a GatherWorld run (GatherServer cores, atomic replication, the shared   *)
(* SimNetwork) a behaviour of ExactlyOnceS4Msg?  That spec, not the atomic *)
(* ExactlyOnceS4, because a purge sync at the core is a DSync message      *)
(* (K, D, watermark `seen`) sent by one step and received by another, as  *)
(* GatherServer.sync(t) and recvPeerSync do; every other step is S4's.     *)
(*                                                                         *)
(* Shape as TraceExactlyOnceS3: a cursor per process (the world writes one *)
(* log, its order the real order), TraceStep takes the next line by the    *)
(* action it names, parameters fixed, the logged K and D checked after the *)
(* step.                                                                   *)
(*                                                                         *)
(* How the world's steps map to the spec's:                               *)
(* - aDeliver is the spec's one atomic step (ADeliverOK / ADeliverErr) at  *)
(*   the primitive's call, where the client processes the note; the core   *)
(*   hears the outcome later (ReportOutcome), a stuttering step.  Between  *)
(*   the two the note is in the spec's D[s] but not yet in the core's: the *)
(*   world logs as D the core's D and the primitive's logged successes     *)
(*   (L193: the outcome is in permanent storage at the call), and the core *)
(*   sends no D meanwhile (replyD and sync defer while an outcome is       *)
(*   unknown).                                                             *)
(* - a SendPurgeSync line whose DSync is already in pnet (AllowDup keeps a *)
(*   received one) is stuttering;                                          *)
(* - loss, expiry, partitions and a deferred reply are unlogged: with      *)
(*   AllowDup the spec keeps every message, and one never received is lost *)
(*   as far as the log can tell.                                           *)
(* - a server crash without a session is the spec's IdleCrashM: the core  *)
(*   loses its peers' reports (known, knownK, knownSeen) in every crash.   *)
(*   This module first had to take it as a step of its own (ForgetReports, *)
(*   a finding against the spec); ExactlyOnceS4Msg now has it.             *)
(* faults is outside the VIEW: MaxFaults is set above any run's count.     *)
(*                                                                         *)
(* The SIGKILL run (GatherCrashExperiment: server JVMs over their journals *)
(* and the primitive's journal, a client JVM; GatherKillRun merges their   *)
(* logs into one order by the wall clock, so one cursor): server lines are *)
(* written under ConcurrentGatherServer's lock before the step's record is *)
(* appended, and carry `server`.  What differs from the world:            *)
(* - replication is a real round: the origin's CreateNote line is the      *)
(*   spec's CreateNote, but the replica enters another server's K later,   *)
(*   at its StoreReplica line.  Between the two the note is in the spec's  *)
(*   K there and not in the core's: `unstored` (a trace variable, no spec  *)
(*   state) holds those notes, the K a line logs is checked as K less     *)
(*   them, and a DSync the server sends then is the spec's DSync less     *)
(*   them (its seen counts only what it stored).  The refinement is sound  *)
(*   because such a note is the newest one (the run creates a batch only   *)
(*   when the last is stored everywhere, and the replicas of a batch go    *)
(*   out in order), so its number at the sender is above the message's    *)
(*   seen and no purge rule reads its absence as a purge; it is not in any *)
(*   D (no server delivers a note before every server stored it).          *)
(* - a kill: the validator joins a server's incarnations with ServerCrash  *)
(*   (ServerCrashM or IdleCrashM), and the restart's first line,          *)
(*   ServerRecover, checks K and D as the store and the primitive's        *)
(*   journal gave them back; the killed incarnation's last line may be    *)
(*   dropped (SkipCut), as in TraceExactlyOnceS3 (GatherKillRun says when: *)
(*   an ADeliverOK only when the journal shows the call did not process).  *)
(***************************************************************************)
EXTENDS ExactlyOnceS4Msg, TLC

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
\* (K as the core holds it: less the replicas still on their way there).
Agrees(ln) ==
    /\ Has(ln, "K") => K'[ln.server] = AsSet(ln.K) \cup unstored'[ln.server]
    /\ Has(ln, "D") => D'[ln.server] = AsSet(ln.D)

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
ConnectLine(ln) == ln.action = "Connect" /\ Same(Connect(ln.server))
DisconnectLine(ln) == ln.action = "Disconnect" /\ Same(Disconnect)
ClientCrashLine(ln) == ln.action = "ClientCrash" /\ Same(ClientCrash)
\* The kill run logs the core's session id: its D requests and replies name
\* it, which the spec's sid (the connection's) is here.
StartSessionLine(ln) ==
    /\ ln.action = "StartSession"
    /\ Same(StartSession(ln.server))
    /\ sidOf' = IF Has(ln, "session")
                THEN sidOf \cup {[server |-> ln.server, session |-> ln.session, sid |-> connId]}
                ELSE sidOf
ReqDLine(ln) == ln.action = "ReqD" /\ Same(ReqD(ln.server, ln.peer))

\* Which request a reply answers: the one of the session the line names (the
\* kill run); in the world's log, any request of that peer on the way.
ReplyDLine(ln) ==
    /\ ln.action = "ReplyD"
    /\ \E m \in snet : /\ m.type = "reqD" /\ m.from = ln.peer /\ m.to = ln.server
                       /\ Has(ln, "session") => [server |-> ln.peer, session |-> ln.session, sid |-> m.sid] \in sidOf
                       /\ Same(ReplyD(ln.server, m))
    /\ lastAction'.d = AsSet(ln.d)

RecvDLine(ln) ==
    /\ ln.action = "RecvD"
    /\ \E m \in snet : /\ m.type = "replyD" /\ m.from = ln.peer /\ m.to = ln.server /\ m.d = AsSet(ln.d)
                       /\ RecvDM(ln.server, m)

GatherFailLine(ln) == ln.action = "GatherFail" /\ Same(GatherFail(ln.server))
EndGatherLine(ln) == ln.action = "EndGather" /\ EndGatherM(ln.server)
ADeliverOKLine(ln) == ln.action = "ADeliverOK" /\ Same(ADeliverOK(ln.server, ln.note))
ADeliverErrLine(ln) == ln.action = "ADeliverErr" /\ Same(ADeliverErr(ln.server, ln.note))

\* The core hears an outcome the spec took at the call: D (logged) must
\* already hold a success.
ReportOutcomeLine(ln) == ln.action = "ReportOutcome" /\ Still

\* The DSync the core sent is the spec's less the replicas not stored at the
\* sender yet (none in the world).
SendPurgeSyncLine(ln) ==
    LET s == ln.server IN
    /\ ln.action = "SendPurgeSync"
    /\ K[s] = AsSet(ln.k) \cup unstored[s] /\ D[s] = AsSet(ln.d)
    /\ seen[s] = ln.seen + Cardinality(unstored[s])
    /\ \/ SendPurgeSync(s, ln.peer)
       \/ DSync(s, ln.peer, K[s], D[s], seen[s]) \in pnet /\ Still

\* The note numbered k (every server numbers by creation, NumberedAlike).
Number(i) == CHOOSE k \in 1..MaxNotes : NoteIds[k] = i

\* The DSync received is a spec DSync less notes its sender had not stored
\* when it sent it: each numbered above the logged watermark, one per number.
RecvPurgeSyncLine(ln) ==
    /\ ln.action = "RecvPurgeSync"
    /\ \E m \in pnet : /\ m.from = ln.peer /\ m.to = ln.server
                       /\ AsSet(ln.k) \subseteq m.k /\ m.d = AsSet(ln.d)
                       /\ m.seen = ln.seen + Cardinality(m.k \ AsSet(ln.k))
                       /\ \A i \in m.k \ AsSet(ln.k) : Number(i) > ln.seen
                       /\ RecvPurgeSync(ln.server, m)

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
                \/ ServerRecoverLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ ConnectLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ DisconnectLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ ClientCrashLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ StartSessionLine(ln) /\ UNCHANGED unstored
                \/ ReqDLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ ReplyDLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ RecvDLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ GatherFailLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ EndGatherLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ ADeliverOKLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ ADeliverErrLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ ReportOutcomeLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ SendPurgeSyncLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ RecvPurgeSyncLine(ln) /\ UNCHANGED <<unstored, sidOf>>
                \/ ServerCrashLine(ln) /\ UNCHANGED <<unstored, sidOf>>
             /\ Agrees(ln)
             /\ Taken(p)

TraceNext == TraceStep /\ UNCHANGED log

TraceInit ==
    /\ log = TraceLog /\ MsgInit /\ l = [p \in Procs |-> 0]
    /\ unstored = [s \in Servers |-> {}] /\ sidOf = {}

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

TraceView == <<l, net, conn, created, delivered, gatherVars, msgVars, unstored, sidOf>>

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
     snet |-> snet, connId |-> connId, pnet |-> pnet, seen |-> seen, entered |-> entered,
     known |-> known, knownK |-> knownK, knownSeen |-> knownSeen, lastAction |-> lastAction]

Probe == Progress(l) = ReportAt /\ MsgNext /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED <<log, unstored, sidOf>>
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == Progress(l) <= ReportAt
ReportState == Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
