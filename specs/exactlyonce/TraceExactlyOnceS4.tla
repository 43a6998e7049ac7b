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
(***************************************************************************)
EXTENDS ExactlyOnceS4Msg, TLC

CONSTANTS
    TraceLog,   \* <<process 1's lines, ...>>, each line a record
    ReportAt    \* rejection report only: how many lines the longest prefix took

VARIABLES
    l,          \* process -> how many of its lines the behaviour has taken
    log         \* TraceLog, held in a variable that never changes (see TraceScmp)

traceVars == <<allVars, l, log>>
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
    /\ Has(ln, "K") => K'[ln.server] = AsSet(ln.K)
    /\ Has(ln, "D") => D'[ln.server] = AsSet(ln.D)

Still == UNCHANGED allVars

-----------------------------------------------------------------------------
CreateLine(ln) == ln.action = "CreateNote" /\ CreateNoteM /\ lastAction'.note = ln.note
ConnectLine(ln) == ln.action = "Connect" /\ Same(Connect(ln.server))
DisconnectLine(ln) == ln.action = "Disconnect" /\ Same(Disconnect)
ClientCrashLine(ln) == ln.action = "ClientCrash" /\ Same(ClientCrash)
StartSessionLine(ln) == ln.action = "StartSession" /\ Same(StartSession(ln.server))
ReqDLine(ln) == ln.action = "ReqD" /\ Same(ReqD(ln.server, ln.peer))

ReplyDLine(ln) ==
    /\ ln.action = "ReplyD"
    /\ \E m \in snet : /\ m.type = "reqD" /\ m.from = ln.peer /\ m.to = ln.server
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

SendPurgeSyncLine(ln) ==
    LET s == ln.server IN
    /\ ln.action = "SendPurgeSync"
    /\ K[s] = AsSet(ln.k) /\ D[s] = AsSet(ln.d) /\ seen[s] = ln.seen
    /\ \/ SendPurgeSync(s, ln.peer)
       \/ DSync(s, ln.peer, K[s], D[s], seen[s]) \in pnet /\ Still

RecvPurgeSyncLine(ln) ==
    /\ ln.action = "RecvPurgeSync"
    /\ \E m \in pnet : /\ m.from = ln.peer /\ m.to = ln.server
                       /\ m.k = AsSet(ln.k) /\ m.d = AsSet(ln.d) /\ m.seen = ln.seen
                       /\ RecvPurgeSync(ln.server, m)

ServerCrashLine(ln) ==
    /\ ln.action = "ServerCrash"
    /\ ServerCrashM(ln.server) \/ IdleCrashM(ln.server)

-----------------------------------------------------------------------------
TraceStep ==
    \E p \in Procs :
       /\ Pending(p)
       /\ LET ln == Line(p) IN
          /\ \/ CreateLine(ln)
             \/ ConnectLine(ln)
             \/ DisconnectLine(ln)
             \/ ClientCrashLine(ln)
             \/ StartSessionLine(ln)
             \/ ReqDLine(ln)
             \/ ReplyDLine(ln)
             \/ RecvDLine(ln)
             \/ GatherFailLine(ln)
             \/ EndGatherLine(ln)
             \/ ADeliverOKLine(ln)
             \/ ADeliverErrLine(ln)
             \/ ReportOutcomeLine(ln)
             \/ SendPurgeSyncLine(ln)
             \/ RecvPurgeSyncLine(ln)
             \/ ServerCrashLine(ln)
          /\ Agrees(ln)
          /\ Taken(p)

TraceNext == TraceStep /\ UNCHANGED log

TraceInit == log = TraceLog /\ MsgInit /\ l = [p \in Procs |-> 0]

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

TraceView == <<l, net, conn, created, delivered, gatherVars, msgVars>>

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

Probe == Progress(l) = ReportAt /\ MsgNext /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED log
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == Progress(l) <= ReportAt
ReportState == Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
