------------------------ MODULE TraceCausalMembership ------------------------
(***************************************************************************)
(* Trace validation of the causal group with its view change               *)
(* (CausalMembership.tla; issue 21): are the step logs of a run in which   *)
(* a suspected node is removed, one per node and the coordinator's, a      *)
(* behaviour of CausalMembership?  TraceCausal does this for Causal; the   *)
(* lines of Causal's steps are its own (through the instance TC), each     *)
(* with the membership's guard where CausalMembership puts one and its     *)
(* variables unchanged, and the view change's steps are added.  One        *)
(* cursor, the logs merged (CausalMerge.java: the coordinator's order      *)
(* and messages too).                                                      *)
(*                                                                         *)
(* The nodes log what they take: FlushReport (the seqs of the target they *)
(* delivered, the report), DecideView (the agreed seqs, as the node learns *)
(* the decision), FlushForward (the seqs sent to one survivor) and         *)
(* InstallView.  The coordinator (impl's ViewChange) logs its own steps    *)
(* (its lines marked "coordinator" by the generator): Suspect (who suspects*)
(* whom), FlushReport as it receives a survivor's report, and DecideView. *)
(* So:                                                                     *)
(*  - Suspect is the coordinator's line;                                   *)
(*  - FlushReport(i) is one step of the spec, both sides at once: taken at *)
(*    the survivor's line (where it freezes), and the coordinator's        *)
(*    receipt only checks it, before the decision (the real coordinator    *)
(*    takes no report after it);                                           *)
(*  - DecideView is the coordinator's line; each survivor's DecideView     *)
(*    line is a stutter that checks the same agreed set.                  *)
(* (Before the coordinator logged, Suspect was taken without a line and   *)
(* DecideView at the first survivor's line; a decision made without every *)
(* report could then not be told from one made after them.)               *)
(* A FlushForward whose copies are all in net already (Duplicating keeps  *)
(* a received copy there) changes nothing: a stutter, as CausalMembership *)
(* has it.                                                                 *)
(***************************************************************************)
EXTENDS CausalMembership, TLC

CONSTANTS
    TraceLog,   \* <<the merged lines>>, each line a record
    ReportAt    \* rejection report only: how many lines the longest prefix took

VARIABLES
    l,          \* process -> how many of its lines the behaviour has taken
    log         \* TraceLog, held in a variable that never changes (see TraceRpc)

TC == INSTANCE TraceCausal

traceVars == <<mvars, l, log>>
Procs == DOMAIN log
Pending(p) == l[p] < Len(log[p])
Line(p) == log[p][l[p] + 1]
Taken(p) == l' = [l EXCEPT ![p] = @ + 1]
SetOf(s) == {s[k] : k \in DOMAIN s}
Coord(ln) == "coordinator" \in DOMAIN ln

-----------------------------------------------------------------------------
(* Causal's steps, as CausalMembership guards them.                         *)

PlainLine(p) ==
    /\ \/ TC!BroadcastLine(p)
       \/ TC!ExpireWaitLine(p)
       \/ TC!ExpireRtoLine(p)
       \/ TC!ServeRequestLine(p)
       \/ TC!SendHeartbeatLine(p)
       \/ TC!CrashLine(p)
    /\ UNCHANGED memVars

\* A copy of an excluded node's event outside the agreed set is refused
\* ("excluded"); any other copy is Causal's Receive.
ReceiveLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Receive"
    /\ IF Refused(ln.node, [origin |-> ln.origin, seq |-> ln.seq])
       THEN /\ ln.outcome = "excluded"
            /\ \E e \in net :
                 /\ e.to = ln.node /\ e.type = ln.type /\ e.from = ln.from
                 /\ e.origin = ln.origin /\ e.seq = ln.seq /\ e.vc = ln.vc
                 /\ MReceive(ln.node, e)
       ELSE TC!ReceiveLine(p) /\ UNCHANGED memVars

\* The freeze: MayDeliver.
DeliverLine(p) ==
    LET ln == Line(p) IN
    /\ TC!DeliverLine(p)
    /\ \A m \in buf[ln.node] : (m.origin = ln.origin /\ m.seq = ln.seq) => MayDeliver(ln.node, m)
    /\ UNCHANGED memVars

ReceiveHeartbeatLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "ReceiveHeartbeat"
    /\ ~ExcludedAt(ln.node, ln.from)
    /\ TC!ReceiveHeartbeatLine(p)
    /\ UNCHANGED memVars

\* Stability over the installed view.
CollectGarbageLine(p) ==
    LET ln == Line(p) IN ln.action = "CollectGarbage" /\ MCollectGarbage(ln.node)

-----------------------------------------------------------------------------
(* The view change.                                                         *)

SuspectLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Suspect" /\ Coord(ln)
    /\ Suspect(ln.node, ln.target)

FlushReportLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "FlushReport" /\ ~Coord(ln)
    /\ flushing = ln.target
    /\ FlushReport(ln.node)
    /\ report'[ln.node] = SetOf(ln.seqs)

\* The coordinator receives survivor ln.node's report: the step was taken at
\* the survivor's line; before the decision, the same seqs.
ReportReceivedLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "FlushReport" /\ Coord(ln)
    /\ flushing = ln.target /\ ~Decided
    /\ ln.node \in reported /\ report[ln.node] = SetOf(ln.seqs)
    /\ UNCHANGED mvars

\* The coordinator's line decides; a survivor's line learns the decision.
DecideViewLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "DecideView"
    /\ flushing = ln.target
    /\ IF Coord(ln) THEN DecideView ELSE Decided /\ UNCHANGED mvars
    /\ ~Coord(ln) => ln.node \in members'
    /\ agreed'[ln.target] = SetOf(ln.seqs)

FwdSeqs(j, i) == {s \in (agreed[flushing] \cap report[j]) \ report[i] :
                     Held(j, [origin |-> flushing, seq |-> s])}
FlushForwardLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "FlushForward"
    /\ flushing = ln.target
    /\ FwdSeqs(ln.node, ln.to) = SetOf(ln.seqs)
    /\ \/ FlushForward(ln.node, ln.to)
       \/ /\ Decided /\ Forwards(ln.node, ln.to) \subseteq net
          /\ UNCHANGED mvars

InstallViewLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "InstallView"
    /\ flushing = ln.target
    /\ InstallView(ln.node)

TraceStep ==
    \E p \in Procs :
       /\ Pending(p)
       /\ \/ PlainLine(p)
          \/ ReceiveLine(p)
          \/ DeliverLine(p)
          \/ ReceiveHeartbeatLine(p)
          \/ CollectGarbageLine(p)
          \/ SuspectLine(p)
          \/ FlushReportLine(p)
          \/ ReportReceivedLine(p)
          \/ DecideViewLine(p)
          \/ FlushForwardLine(p)
          \/ InstallViewLine(p)
       /\ TC!Agrees(Line(p))
       /\ Taken(p)

TraceNext == TraceStep /\ UNCHANGED log

TraceInit == log = TraceLog /\ MInit /\ l = [p \in Procs |-> 0]

TraceSpec == TraceInit /\ [][TraceNext]_traceVars

\* Every variable of CausalMembership but lastAction (which only names the step).
TraceView == <<l, mpvars>>

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
     reported |-> reported, report |-> report, agreed |-> agreed, lastAction |-> lastAction]

Probe == TC!Progress(l) = ReportAt /\ MNext /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED log
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == TC!Progress(l) <= ReportAt
ReportState == TC!Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
