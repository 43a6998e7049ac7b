----------------------------- MODULE TraceHybrid -----------------------------
(***************************************************************************)
(* Trace validation of the hybrid (SCMP inside Birrell and Nelson's RPC,  *)
(* Hybrid.tla; DESIGN.md, link 5): are the logs of a real run (the server  *)
(* and its clients, one cursor each) a behaviour of Hybrid?  Same shape as *)
(* TraceRpc: TraceNext takes the next line of some process by the action   *)
(* it names, with its parameters fixed and the variables it logs checked;  *)
(* TLC picks the interleaving, and the spec's network enforces             *)
(* happens-before (a server cannot take a CALL no client has sent).        *)
(*                                                                         *)
(* Steps a log does not show: stuttering, and time, which passes as        *)
(* TickTo(t), the smallest time a pending line names (t - now Ticks, each  *)
(* enabled since t <= MaxTime, taken in one TLC step).  Loss needs no step *)
(* either: the generator sets AllowDup, so a delivered message stays in    *)
(* net, and a message never delivered is one the network lost.             *)
(*                                                                         *)
(* Time: server lines name the server's clock, which is real time (now);   *)
(* client lines name the client's clock reading, now + skew[c] (Hybrid's   *)
(* client clocks), so their real time is that reading minus TraceSkew.     *)
(***************************************************************************)
EXTENDS Hybrid, TLC

CONSTANTS
    TraceLog,   \* <<process 1's lines, process 2's lines, ...>>, each line a record
    TraceSkew,  \* Conns -> the client clock offsets the run used
    ReportAt    \* rejection report only: how many lines the longest prefix took

VARIABLES
    l,          \* process -> how many of its lines the behaviour has taken
    log         \* TraceLog, held in a variable that never changes (see TraceRpc)

traceVars == <<vars, l, log>>
Procs == DOMAIN log
Pending(p) == l[p] < Len(log[p])
Line(p) == log[p][l[p] + 1]
Has(ln, f) == f \in DOMAIN ln
Taken(p) == l' = [l EXCEPT ![p] = @ + 1]
Progress(c) == LET Sum[i \in 0..Len(log)] == IF i = 0 THEN 0 ELSE Sum[i - 1] + c[i]
               IN Sum[Len(log)]

\* The real time a line names (server: now; client: its reading - skew), or -1.
TimeOf(ln) == IF Has(ln, "now") THEN ln.now
              ELSE IF Has(ln, "clock") THEN ln.clock - TraceSkew[ln.conn] ELSE 0 - 1

Agrees(ln) ==
    /\ Has(ln, "now") => now' = ln.now
    /\ Has(ln, "clock") => now' + skew[ln.conn] = ln.clock
    /\ Has(ln, "upper") => upper' = ln.upper
    /\ Has(ln, "inc") /\ ln.action \in {"Recover", "Bind"} => incarnation' = ln.inc
    /\ Has(ln, "clientTs") => client'[ln.conn].ts = ln.clientTs

-----------------------------------------------------------------------------
Times == {TimeOf(Line(p)) : p \in {q \in Procs : Pending(q)}} \ {0 - 1}

TickTo ==
    /\ Times # {}
    /\ LET t == CHOOSE x \in Times : \A y \in Times : x <= y IN
       /\ now < t
       /\ t <= MaxTime
       /\ now' = t
       /\ lastAction' = [name |-> "Tick"]
       /\ UNCHANGED <<skew, net, serverVars, client, histVars, l>>

\* Client lines: the step of Hybrid with these parameters.
BindLine(p) ==
    LET ln == Line(p) IN ln.action = "Bind" /\ Bind(ln.conn)

CallLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Call"
    /\ Call(ln.conn)
    /\ lastAction'.seq = ln.seq /\ lastAction'.ts = ln.ts

RetransmitLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Retransmit"
    /\ Retransmit(ln.conn)
    /\ lastAction'.seq = ln.seq /\ lastAction'.ts = ln.ts

TimeoutLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Timeout"
    /\ Timeout(ln.conn)
    /\ lastAction'.seq = ln.seq

ReceiveReplyLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "ReceiveReply"
    /\ \E m \in net :
         /\ m.type = "REPLY" /\ m.conn = ln.conn /\ m.seq = ln.seq /\ m.inc = ln.inc /\ m.ts = ln.replyTs
         /\ ReceiveReply(m)
    /\ lastAction'.ackTs = ln.ackTs

\* Server lines.
ReceiveCallLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "ReceiveCall"
    /\ \E m \in net :
         /\ m.type = "CALL" /\ m.conn = ln.conn /\ m.seq = ln.seq /\ m.inc = ln.inc /\ m.ts = ln.ts
         /\ ReceiveCall(m)
    /\ lastAction'.outcome = ln.outcome

ReceiveAckLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "ReceiveAck"
    /\ \E m \in net :
         /\ m.type = "ACK" /\ m.conn = ln.conn /\ m.seq = ln.seq /\ m.inc = ln.inc /\ m.ts = ln.ts
         /\ ReceiveAck(m)

CollectGarbageLine(p) ==
    LET ln == Line(p) IN ln.action = "CollectGarbage" /\ CollectGarbage(ln.conn)

PlainLine(p, name, A) == Line(p).action = name /\ A

\* A process's first line says where it starts: the server its clock (time 0
\* once made relative), upper and incarnation; a client its last timestamp.
InitLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Init" /\ l[p] = 0
    /\ Has(ln, "now") => now = ln.now /\ upper = ln.upper /\ incarnation = ln.inc
    /\ Has(ln, "clientTs") => client[ln.conn].ts = ln.clientTs
    /\ UNCHANGED vars

TraceStep ==
    \/ TickTo
    \/ \E p \in Procs :
         /\ Pending(p)
         /\ \/ InitLine(p)
            \/ BindLine(p)
            \/ CallLine(p)
            \/ RetransmitLine(p)
            \/ TimeoutLine(p)
            \/ ReceiveReplyLine(p)
            \/ ReceiveCallLine(p)
            \/ ReceiveAckLine(p)
            \/ CollectGarbageLine(p)
            \/ PlainLine(p, "Crash", Crash)
            \/ PlainLine(p, "Recover", Recover)
         /\ Agrees(Line(p))
         /\ Taken(p)

TraceNext == TraceStep /\ UNCHANGED log

\* skew first: TLC then checks Init's skew \in [...] instead of enumerating it.
TraceInit == skew = TraceSkew /\ log = TraceLog /\ Init /\ l = [p \in Procs |-> 0]

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

TraceView == <<l, envVars, serverVars, client, histVars>>

\* Acceptance and progress as in TraceScmp.
ASSUME TLCSet(1, 0 - 1)
TraceProgress ==
    IF Progress(l) > TLCGet(1)
    THEN TLCSet(1, Progress(l)) /\ PrintT(<<"progress", Progress(l)>>)
    ELSE TRUE

-----------------------------------------------------------------------------
(* The rejection report, as in TraceScmp.                                  *)

SpecState ==
    [now |-> now, skew |-> skew, net |-> net,
     incarnation |-> incarnation, up |-> up, table |-> table, upper |-> upper,
     client |-> client, executed |-> executed, crashes |-> crashes, callCount |-> callCount,
     lastAction |-> lastAction]

Probe == Progress(l) = ReportAt /\ Next /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED log
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == Progress(l) <= ReportAt
ReportState == Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
