------------------------------ MODULE TraceScmp ------------------------------
(***************************************************************************)
(* Trace validation of SCMP (DESIGN.md, link 5): is a log written by a     *)
(* runtime or a test world a behaviour of SCMP?  In the manner of          *)
(* tlaplus/Examples' EWD998ChanTrace and etcd-io/raft's Traceetcdraft: a   *)
(* cursor l per logged process, a TraceNext that takes the next line of    *)
(* some process by the spec action the line names (its parameters fixed,   *)
(* the variables it logs checked after the step), and a VIEW that keeps    *)
(* the cursor but not lastAction, so behaviours that reach the same spec   *)
(* state by the same prefix of the log are one state.                      *)
(*                                                                         *)
(* What a log need not show, as in the references: stuttering; message    *)
(* loss (Lose only removes from net, so a behaviour without it is a        *)
(* behaviour too); clock ticks the log implies (a line with "now" or       *)
(* "clock" ahead of the spec's is reached by unlogged Ticks).  Variables a *)
(* line does not name are whatever the spec makes them.                    *)
(*                                                                         *)
(* The log is accepted iff a state with every cursor at the end of its     *)
(* process's log is reachable (TraceProgress below).  The generated module *)
(* (conformance's validate package) defines TraceLog and the spec's        *)
(* constants from the header.                                              *)
(***************************************************************************)
EXTENDS SCMP, TLC

CONSTANTS
    TraceLog,   \* <<process 1's lines, process 2's lines, ...>>, each line a record
    TraceSkew,  \* Conns -> the client clock offsets the log's header names
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

\* After the step, the variables the line names have the values it gives it;
\* a map-valued one only at the keys it names (a runtime logs the entry it
\* changed, not the whole table).
Agrees(ln) ==
    /\ Has(ln, "ct") => \A c \in DOMAIN ln.ct : c \in DOMAIN ct' /\ ct'[c] = ln.ct[c]
    /\ Has(ln, "upper") => \A k \in DOMAIN ln.upper : upper'[k] = ln.upper[k]
    /\ Has(ln, "latest") => latest' = ln.latest
    /\ Has(ln, "stableLatest") => stableLatest' = ln.stableLatest
    /\ Has(ln, "refuseUntil") => refuseUntil' = ln.refuseUntil
    /\ Has(ln, "recovering") => recovering' = ln.recovering
    /\ Has(ln, "up") => up' = ln.up
    /\ Has(ln, "clock") => clock' = ln.clock
    /\ Has(ln, "now") => now' = ln.now

-----------------------------------------------------------------------------
(* One disjunct per spec action a line can name.                           *)

\* A world's tick of several milliseconds is that many spec Ticks; the last
\* one takes the line.
TickLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Tick"
    /\ now < ln.now
    /\ Tick
    /\ IF now' = ln.now THEN Taken(p) /\ Agrees(ln) ELSE UNCHANGED l

\* Unlogged Ticks: a line read the server clock ahead of the spec's.
CatchUp(p) ==
    LET ln == Line(p) IN
    /\ ln.action # "Tick"
    /\ Has(ln, "clock")
    /\ clock < ln.clock
    /\ Tick
    /\ UNCHANGED l

ClockJumpLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "ClockJump"
    /\ ClockJump
    /\ lastAction'.to = ln.clock
    /\ Taken(p) /\ Agrees(ln)

SendLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Send"
    /\ Send(ln.conn)
    /\ lastAction'.ts = ln.ts
    /\ Taken(p) /\ Agrees(ln)

\* The verdict the runtime returned must be the spec's Verdict(m).
ReceiveLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Receive"
    /\ Receive([conn |-> ln.conn, ts |-> ln.ts])
    /\ lastAction'.verdict = ln.verdict
    /\ Taken(p) /\ Agrees(ln)

CollectGarbageLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "CollectGarbage"
    /\ CollectGarbage(ln.conn)
    /\ Taken(p) /\ Agrees(ln)

\* A fresh server logs the clock of its Init: a stuttering step takes it.
InitLine(p) ==
    /\ Line(p).action = "Init"
    /\ l[p] = 0
    /\ clock = Line(p).clock
    /\ UNCHANGED vars
    /\ Taken(p)

\* Actions without parameters: WriteLatest, Crash, Recover, FinishRecovery.
PlainLine(p, name, A) ==
    LET ln == Line(p) IN
    /\ ln.action = name
    /\ A
    /\ Taken(p) /\ Agrees(ln)

TraceStep ==
    \E p \in Procs :
        /\ Pending(p)
        /\ \/ InitLine(p)
           \/ TickLine(p)
           \/ CatchUp(p)
           \/ ClockJumpLine(p)
           \/ SendLine(p)
           \/ ReceiveLine(p)
           \/ CollectGarbageLine(p)
           \/ PlainLine(p, "WriteLatest", WriteLatest)
           \/ PlainLine(p, "Crash", Crash)
           \/ PlainLine(p, "Recover", Recover)
           \/ PlainLine(p, "FinishRecovery", FinishRecovery)

TraceNext == TraceStep /\ UNCHANGED log

\* skew first: TLC then checks Init's skew \in [...] instead of enumerating it;
\* log before l, whose domain it gives.
TraceInit == skew = TraceSkew /\ log = TraceLog /\ Init /\ l = [p \in Procs |-> 0]

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

TraceView == <<l, envVars, serverVars, histVars>>

\* Acceptance.  A state constraint that only prints each new maximum of
\* lines taken (over all processes); register 1 persists across states with
\* one worker.  TLC explores every state reachable by a prefix of the log
\* (breadth-first, one worker) and stops when none is left: the log is
\* accepted iff the last maximum printed is its length.  An invariant that a
\* finished state violates would stop sooner, but TLC then prints the whole
\* witness behaviour, which costs time quadratic in the log's length (each
\* state holds the histories); and TLC 2.18 has no POSTCONDITION.  On a
\* rejection, the last maximum names the first line no reachable state takes.
ASSUME TLCSet(1, 0 - 1)
TraceProgress ==
    IF Progress(l) > TLCGet(1)
    THEN TLCSet(1, Progress(l)) /\ PrintT(<<"progress", Progress(l)>>)
    ELSE TRUE

-----------------------------------------------------------------------------
(* The rejection report: a second run that stops at ReportAt lines taken,  *)
(* prints every state there (an invariant, so once per distinct state) and *)
(* every spec action enabled in it (a probe step the action constraint     *)
(* prints and then discards).                                              *)

SpecState ==
    [now |-> now, clock |-> clock, skew |-> skew, lastSent |-> lastSent, net |-> net,
     ct |-> ct, upper |-> upper, latest |-> latest, stableLatest |-> stableLatest,
     up |-> up, refuseUntil |-> refuseUntil, recovering |-> recovering,
     accepted |-> accepted, sends |-> sends, crashClocks |-> crashClocks,
     jumps |-> jumps, recoveredUpper |-> recoveredUpper, lastAction |-> lastAction]

Probe == Progress(l) = ReportAt /\ Next /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED log
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == Progress(l) <= ReportAt
ReportState == Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
