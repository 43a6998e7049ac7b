----------------------------- MODULE TraceCausal -----------------------------
(***************************************************************************)
(* Trace validation of the causal group (Causal.tla; DESIGN.md, link 5):   *)
(* are the step logs of a real run, one per node, a behaviour of Causal?   *)
(* Same shape as TraceRpc and TraceHybrid: a cursor per process, and       *)
(* TraceNext takes the next line of some process by the action it names,   *)
(* with its parameters fixed and the variables it logs checked after the   *)
(* step.  The generator gives one process: the nodes' logs merged in an    *)
(* order consistent with happens-before (CausalMerge.java says why no      *)
(* other such order can pass where that one fails); the spec's network     *)
(* still checks every receipt (a node cannot receive a copy nobody sent,  *)
(* nor serve a request nobody made).                                       *)
(*                                                                         *)
(* Steps a log does not show: stuttering, and message loss.  The generator *)
(* sets Duplicating (a received copy stays in net), so a copy never        *)
(* received is one the network lost and needs no Lose step.  Time needs   *)
(* no step either: Causal is untimed (a timer step is enabled whenever its *)
(* phase holds).                                                           *)
(*                                                                         *)
(* Real steps that change no variable of Causal are stutters, as the spec *)
(* itself has them (it makes them no step to keep its state space small): *)
(* a retry that asks the holder it asked last, whose request is still in   *)
(* net; a heartbeat whose envelopes are in net already, or that covers     *)
(* nothing (all zeros: the spec's SendHeartbeat needs vc # NoVc); and a    *)
(* heartbeat received that reveals and teaches nothing.                    *)
(***************************************************************************)
EXTENDS Causal, TLC

CONSTANTS
    TraceLog,   \* <<node 1's lines, node 2's lines, ...>>, each line a record
    ReportAt    \* rejection report only: how many lines the longest prefix took

VARIABLES
    l,          \* process -> how many of its lines the behaviour has taken
    log         \* TraceLog, held in a variable that never changes (see TraceRpc)

traceVars == <<vars, l, log>>
Procs == DOMAIN log
Pending(p) == l[p] < Len(log[p])
Line(p) == log[p][l[p] + 1]
HasField(ln, f) == f \in DOMAIN ln
Taken(p) == l' = [l EXCEPT ![p] = @ + 1]
Progress(c) == LET Sum[i \in 0..Len(log)] == IF i = 0 THEN 0 ELSE Sum[i - 1] + c[i]
               IN Sum[Len(log)]

\* The logged summaries of the variables a step changed.
Agrees(ln) ==
    /\ HasField(ln, "missing") => Cardinality(missing'[ln.node]) = ln.missing
    /\ HasField(ln, "stored") => Cardinality(store'[ln.node]) = ln.stored
    /\ ln.action = "Deliver" => \A k \in DOMAIN ln.vc : vc'[ln.node][k] = ln.vc[k]

-----------------------------------------------------------------------------
BroadcastLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Broadcast"
    /\ Broadcast(ln.node)
    /\ lastAction'.seq = ln.seq
    \* The event's metadata is the spec's Stamp: what causal order rests on.
    /\ \E m \in store'[ln.node] : m.origin = ln.node /\ m.seq = ln.seq /\ m.vc = ln.vc

ReceiveLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Receive"
    /\ \E e \in net :
         /\ e.to = ln.node /\ e.type = ln.type /\ e.from = ln.from
         /\ e.origin = ln.origin /\ e.seq = ln.seq /\ e.vc = ln.vc
         /\ Receive(ln.node, e)
    /\ lastAction'.outcome = ln.outcome

DeliverLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Deliver"
    /\ \E m \in buf[ln.node] : m.origin = ln.origin /\ m.seq = ln.seq /\ Deliver(ln.node, m)

\* ExpireWait and ExpireRto: the request went where the spec sends it.
ExpireWaitLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "ExpireWait"
    /\ \E r \in missing[ln.node] : r.origin = ln.origin /\ r.seq = ln.seq /\ ExpireWait(ln.node, r)
    /\ lastAction'.to = ln.to

\* A retry that would change nothing (same holder, request in net) is no
\* step of Causal (its ExpireRto requires a change): a stutter here.
RtoUnchanged(i, r, k) ==
    /\ r.phase = "asked"
    /\ NextHolder(r.holders, r.asked) = k
    /\ [r EXCEPT !.phase = IF Recovery = "live" THEN "asked" ELSE "retried", !.asked = k] = r
    /\ ReqEnv(i, k, IdOf(r)) \in net
    /\ UNCHANGED vars
ExpireRtoLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "ExpireRto"
    /\ \E r \in missing[ln.node] :
         /\ r.origin = ln.origin /\ r.seq = ln.seq
         /\ \/ ExpireRto(ln.node, r) /\ lastAction'.to = ln.to
            \/ RtoUnchanged(ln.node, r, ln.to)

ServeRequestLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "ServeRequest"
    /\ \E e \in net :
         /\ e.type = "req" /\ e.to = ln.node /\ e.from = ln.from
         /\ e.origin = ln.origin /\ e.seq = ln.seq
         /\ ServeRequest(ln.node, e)
    /\ lastAction'.outcome = ln.outcome

SendHeartbeatLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "SendHeartbeat"
    /\ ln.vc = vc[ln.node]
    /\ \/ SendHeartbeat(ln.node)
       \/ /\ ln.vc = NoVc \/ {HbEnv(ln.node, j, ln.vc) : j \in Node \ {ln.node}} \subseteq net
          /\ UNCHANGED vars

\* Received from the network, or a stutter if it reveals and teaches nothing
\* (then whether it was sent cannot matter to any variable of Causal).
ReceiveHeartbeatLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "ReceiveHeartbeat"
    /\ \/ \E e \in net :
            /\ e.type = "hb" /\ e.to = ln.node /\ e.from = ln.from /\ e.vc = ln.vc
            /\ ReceiveHeartbeat(ln.node, e)
       \/ /\ Reveal(ln.node, Covered(ln.vc), ln.from) = missing[ln.node]
          /\ Learn(ln.node, ln.from, ln.vc) = known
          /\ UNCHANGED vars

CollectGarbageLine(p) ==
    LET ln == Line(p) IN ln.action = "CollectGarbage" /\ CollectGarbage(ln.node)

CrashLine(p) ==
    LET ln == Line(p) IN ln.action = "Crash" /\ Crash(ln.node)

TraceStep ==
    \E p \in Procs :
       /\ Pending(p)
       /\ \/ BroadcastLine(p)
          \/ ReceiveLine(p)
          \/ DeliverLine(p)
          \/ ExpireWaitLine(p)
          \/ ExpireRtoLine(p)
          \/ ServeRequestLine(p)
          \/ SendHeartbeatLine(p)
          \/ ReceiveHeartbeatLine(p)
          \/ CollectGarbageLine(p)
          \/ CrashLine(p)
       /\ Agrees(Line(p))
       /\ Taken(p)

TraceNext == TraceStep /\ UNCHANGED log

TraceInit == log = TraceLog /\ Init /\ l = [p \in Procs |-> 0]

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

\* Every variable of Causal but lastAction (which only names the step).
TraceView == <<l, pvars>>

\* Acceptance and progress as in TraceScmp.
ASSUME TLCSet(1, 0 - 1)
TraceProgress ==
    IF Progress(l) > TLCGet(1)
    THEN TLCSet(1, Progress(l)) /\ PrintT(<<"progress", Progress(l)>>)
    ELSE TRUE

-----------------------------------------------------------------------------
(* The rejection report, as in TraceScmp.                                  *)

SpecState ==
    [vc |-> vc, buf |-> buf, store |-> store, missing |-> missing, up |-> up, dlog |-> dlog,
     known |-> known, net |-> net, lastAction |-> lastAction]

Probe == Progress(l) = ReportAt /\ Next /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED log
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == Progress(l) <= ReportAt
ReportState == Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
