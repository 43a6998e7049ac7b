--------------------------- MODULE TraceCausalJoin ---------------------------
(***************************************************************************)
(* Trace validation of the join under a new id in two steps                *)
(* (CausalJoin.tla; issue 21): are the step logs of a run in which a spare *)
(* joins, one per node (the joiner's included: it logs from its start on), *)
(* and the coordinator's when a view change runs, a behaviour of           *)
(* CausalJoin?  The lines of Causal's steps and of the view change are     *)
(* TraceCausalMembership's (through the instance TM), with the join's      *)
(* variables unchanged and a suspicion only once every member installed   *)
(* the join (JSuspect); the join adds two lines:                           *)
(*  - Join, at the donor's line: Join(d, j), the logged prefix being the   *)
(*    one handed (joinStart[j]);                                           *)
(*  - InstallJoin, at the member's line: InstallJoin(i, j), the logged row *)
(*    being the member's row of j after the step (known[i][j]).            *)
(* The joiner's first line and every InstallJoin of it come after the      *)
(* donor's Join line in the merge (CausalMerge.java).                      *)
(***************************************************************************)
EXTENDS CausalJoin, TLC

CONSTANTS
    TraceLog,   \* <<the merged lines>>, each line a record
    ReportAt    \* rejection report only: how many lines the longest prefix took

VARIABLES
    l,          \* process -> how many of its lines the behaviour has taken
    log         \* TraceLog, held in a variable that never changes (see TraceRpc)

TM == INSTANCE TraceCausalMembership
TC == INSTANCE TraceCausal

traceVars == <<jvars, l, log>>
Procs == DOMAIN log
Pending(p) == l[p] < Len(log[p])
Line(p) == log[p][l[p] + 1]
Taken(p) == l' = [l EXCEPT ![p] = @ + 1]

\* CausalMembership's lines, the join's variables unchanged.
MembershipLine(p) ==
    /\ \/ TM!PlainLine(p)
       \/ TM!ReceiveLine(p)
       \/ TM!DeliverLine(p)
       \/ TM!ReceiveHeartbeatLine(p)
       \/ TM!CollectGarbageLine(p)
       \/ JoinInstalled /\ TM!SuspectLine(p)
       \/ TM!FlushReportLine(p)
       \/ TM!ReportReceivedLine(p)
       \/ TM!DecideViewLine(p)
       \/ TM!FlushForwardLine(p)
       \/ TM!InstallViewLine(p)
    /\ UNCHANGED <<donorOf, handed, goneAtJoin, joinStart>>

JoinLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Join"
    /\ Join(ln.node, ln.target)
    /\ \A k \in DOMAIN ln.vc : joinStart'[ln.target][k] = ln.vc[k]

InstallJoinLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "InstallJoin"
    /\ InstallJoin(ln.node, ln.target)
    /\ Collecting => \A k \in DOMAIN ln.row : known'[ln.node][ln.target][k] = ln.row[k]

TraceStep ==
    \E p \in Procs :
       /\ Pending(p)
       /\ MembershipLine(p) \/ JoinLine(p) \/ InstallJoinLine(p)
       /\ TC!Agrees(Line(p))
       /\ Taken(p)

TraceNext == TraceStep /\ UNCHANGED log

TraceInit == log = TraceLog /\ JoinInit /\ l = [p \in Procs |-> 0]

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

\* Every variable of CausalJoin but lastAction (which only names the step).
TraceView == <<l, jpvars>>

\* Acceptance and progress as in TraceScmp.
ASSUME TLCSet(1, 0 - 1)
TraceProgress ==
    IF TC!Progress(l) > TLCGet(1)
    THEN TLCSet(1, TC!Progress(l)) /\ PrintT(<<"progress", TC!Progress(l)>>)
    ELSE TRUE

-----------------------------------------------------------------------------
(* The rejection report, as in TraceScmp.                                  *)

SpecState ==
    [vc |-> vc, buf |-> buf, store |-> store, missing |-> missing, up |-> up, dlog |-> dlog,
     known |-> known, net |-> net, view |-> view, members |-> members, flushing |-> flushing,
     reported |-> reported, report |-> report, agreed |-> agreed, donorOf |-> donorOf,
     joinStart |-> joinStart, lastAction |-> lastAction]

Probe == TC!Progress(l) = ReportAt /\ JNext /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED log
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == TC!Progress(l) <= ReportAt
ReportState == TC!Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
