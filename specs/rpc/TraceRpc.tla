------------------------------ MODULE TraceRpc ------------------------------
(***************************************************************************)
(* Trace validation of at-most-once RPC (DESIGN.md, link 5): are the logs  *)
(* of a real run (the UDP server's incarnations and its clients, one       *)
(* cursor each) a behaviour of RPC?  Same shape as specs/scmp/TraceScmp:   *)
(* TraceNext takes the next line of some process by the action it names,  *)
(* with its parameters fixed and the variables it logs checked; TLC picks  *)
(* the interleaving, and the spec's network enforces happens-before (a     *)
(* server cannot take a CALL no client has sent, nor a client a REPLY the  *)
(* server has not sent).                                                   *)
(*                                                                         *)
(* Time: a real run names times in milliseconds (made relative to the     *)
(* server's start by the generator).  Unlogged time passes as TickTo(t),   *)
(* the smallest time a pending line names: t - now Ticks of RPC in one     *)
(* TLC step.  Tick changes only now, clock and lastAction, and each of     *)
(* those Ticks is enabled (now < MaxTime), so the behaviour with the       *)
(* intermediate states put back is a behaviour of RPC; taking them in one  *)
(* step saves TLC one level per millisecond.  Never ticking past a pending *)
(* line's time loses nothing: the processes read one clock, and a line's   *)
(* time was read before its effects left the process.                     *)
(***************************************************************************)
EXTENDS RPC, TLC

CONSTANTS
    TraceLog,   \* <<process 1's lines, process 2's lines, ...>>, each line a record
    TraceSkew,  \* Conns -> the client clock offsets (0 on one machine)
    ReportAt    \* rejection report only: how many lines the longest prefix took

VARIABLES
    l,          \* process -> how many of its lines the behaviour has taken
    \* TraceLog, held in a variable that never changes: TLC 2.18 evaluates a
    \* constant substituted by a definition at every reference (the whole log,
    \* many times per state: seen with -coverage), a variable's value once.
    \* Not in the VIEW.
    log

traceVars == <<vars, l, log>>
Procs == DOMAIN log
Pending(p) == l[p] < Len(log[p])
Line(p) == log[p][l[p] + 1]
Has(ln, f) == f \in DOMAIN ln
Taken(p) == l' = [l EXCEPT ![p] = @ + 1]
Progress(c) == LET Sum[i \in 0..Len(log)] == IF i = 0 THEN 0 ELSE Sum[i - 1] + c[i]
               IN Sum[Len(log)]

\* The time a line names (server lines: clock; client lines: now), or -1.
TimeOf(ln) == IF Has(ln, "clock") THEN ln.clock ELSE IF Has(ln, "now") THEN ln.now ELSE 0 - 1

Agrees(ln) ==
    /\ Has(ln, "ct") => \A c \in DOMAIN ln.ct : c \in DOMAIN ct' /\ ct'[c] = ln.ct[c]
    /\ Has(ln, "upper") => \A k \in DOMAIN ln.upper : upper'[k] = ln.upper[k]
    /\ Has(ln, "latest") => latest' = ln.latest
    /\ Has(ln, "stableLatest") => stableLatest' = ln.stableLatest
    /\ Has(ln, "clock") => clock' = ln.clock
    /\ Has(ln, "now") => now' = ln.now

-----------------------------------------------------------------------------
Times == {TimeOf(Line(p)) : p \in {q \in Procs : Pending(q)}} \ {0 - 1}

TickTo ==
    /\ Times # {}
    /\ LET t == CHOOSE x \in Times : \A y \in Times : x <= y IN
       /\ now < t
       /\ t <= MaxTime
       /\ now' = t
       /\ clock' = clock + (t - now)
       /\ lastAction' = [name |-> "Tick"]
       /\ UNCHANGED <<skew, net, scmpVars, rpcVars, client, histVars, l>>

\* A line whose action is a step of RPC with these parameters.
CallLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Call"
    /\ Call(ln.conn)
    /\ lastAction'.ts = ln.ts

RetransmitLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Retransmit"
    /\ Retransmit(ln.conn)
    /\ lastAction'.ts = ln.ts
    /\ lastAction'.truncated = ln.truncated

TimeoutLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Timeout"
    /\ Timeout(ln.conn)
    /\ lastAction'.ts = ln.ts

ClientTypes == [ReceiveAck |-> "ACK", ReceiveReply |-> "REPLY", ReceiveReject |-> "REJECT"]

ClientReceiveLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action \in DOMAIN ClientTypes
    /\ \E m \in net :
         /\ m.type = ClientTypes[ln.action] /\ m.conn = ln.conn /\ m.ts = ln.ts
         /\ ClientReceive(m)
    /\ lastAction'.accepted = ln.accepted

ReceiveCallLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "ReceiveCall"
    /\ \E m \in net :
         /\ m.type = "CALL" /\ m.conn = ln.conn /\ m.ts = ln.ts /\ m.truncated = ln.truncated
         /\ ReceiveCall(m)
    /\ lastAction'.outcome = ln.outcome

CompleteLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Complete"
    /\ \E x \in computing : x.conn = ln.conn /\ x.ts = ln.ts /\ Complete(x)
    /\ lastAction'.outcome = ln.outcome

ReplyAckLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "ReceiveReplyAck"
    /\ \E m \in net :
         /\ m.type = "REPLY-ACK" /\ m.conn = ln.conn /\ m.ts = ln.ts
         /\ ReceiveReplyAck(m)
    /\ lastAction'.outcome = ln.outcome

CollectGarbageLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "CollectGarbage"
    /\ CollectGarbage(ln.conn)

PlainLine(p, name, A) == Line(p).action = name /\ A

\* A fresh server logs the clock of its Init (time 0 once made relative):
\* a stuttering step takes it.
InitLine(p) == Line(p).action = "Init" /\ l[p] = 0 /\ clock = Line(p).clock /\ UNCHANGED vars

TraceStep ==
    \/ TickTo
    \/ \E p \in Procs :
         /\ Pending(p)
         /\ \/ InitLine(p)
            \/ CallLine(p)
            \/ RetransmitLine(p)
            \/ TimeoutLine(p)
            \/ ClientReceiveLine(p)
            \/ ReceiveCallLine(p)
            \/ CompleteLine(p)
            \/ ReplyAckLine(p)
            \/ CollectGarbageLine(p)
            \/ PlainLine(p, "WriteLatest", WriteLatest)
            \/ PlainLine(p, "Crash", Crash)
            \/ PlainLine(p, "Recover", Recover)
         /\ Agrees(Line(p))
         /\ Taken(p)

TraceNext == TraceStep /\ UNCHANGED log

\* skew first: TLC then checks Init's skew \in [...] instead of enumerating it;
\* log before l, whose domain it gives.
TraceInit == skew = TraceSkew /\ log = TraceLog /\ Init /\ l = [p \in Procs |-> 0]

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

TraceView == <<l, envVars, scmpVars, rpcVars, client, histVars>>

\* Acceptance and progress as in TraceScmp.
ASSUME TLCSet(1, 0 - 1)
TraceProgress ==
    IF Progress(l) > TLCGet(1)
    THEN TLCSet(1, Progress(l)) /\ PrintT(<<"progress", Progress(l)>>)
    ELSE TRUE

-----------------------------------------------------------------------------
(* The rejection report, as in TraceScmp.                                  *)

SpecState ==
    [now |-> now, clock |-> clock, skew |-> skew, net |-> net,
     ct |-> ct, upper |-> upper, latest |-> latest, stableLatest |-> stableLatest, up |-> up,
     rpc |-> rpc, computing |-> computing, client |-> client,
     executed |-> executed, replied |-> replied, rejects |-> rejects, callCount |-> callCount,
     crashClocks |-> crashClocks, lastAction |-> lastAction]

Probe == Progress(l) = ReportAt /\ Next /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED log
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == Progress(l) <= ReportAt
ReportState == Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
