-------------------- MODULE TraceCausalMembershipRestart --------------------
(***************************************************************************)
(* Trace validation of the view change that restarts its flush on a second *)
(* suspicion, the coordinator's included (CausalMembershipRestart.tla;    *)
(* issue 21, causal part): are the step logs of a run, one per node and    *)
(* the coordinator's, a behaviour of CausalMembershipRestart?  The shape   *)
(* is TraceCausalMembership's (Causal's lines through the instance TC, the *)
(* membership's guards, one cursor over the logs merged by CausalMerge),   *)
(* with flushing a set:                                                    *)
(*  - Suspect is the coordinator's line, with the flushing set after it    *)
(*    and whether it restarted a running flush; a takeover's line may be   *)
(*    TakeOver, a round without the targets its member never reported on;  *)
(*  - a survivor's report on flushing = {x1, ..., xk} is k lines, one per  *)
(*    target in the order of their list "targets" (the round's set): the  *)
(*    first takes FlushReport(i), the spec's one step for the whole set,   *)
(*    the others (right after it) check their target's seqs in the report; *)
(*  - the coordinator's receipt of a report and a survivor's learning of   *)
(*    the decision check, as there, per target;                            *)
(*  - an install of a view without flushing is one line per target this    *)
(*    node still had in its view (a restart's decision taken again leaves *)
(*    out the targets it had removed): the first takes InstallView(i), the *)
(*    others right after it check theirs;                                  *)
(*  - a forward is one line per target (the core forwards per removed      *)
(*    node): the first whose copies are not all in net takes the spec's    *)
(*    FlushForward(j, i), which sends every target's copies at once; a line *)
(*    whose copies are all in net is a stutter, as CausalMembership has it. *)
(*    So a forward that left a target's copies out is not caught here when *)
(*    another target's line took the step (argued: the core sends what    *)
(*    ViewChange.forwards names, and a copy never sent cannot be received *)
(*    in a log only if the spec did not send it either).                  *)
(* Unlogged steps: as in TraceCausalMembership, stuttering and loss (the   *)
(* network duplicates, so a copy never received was lost).                *)
(***************************************************************************)
EXTENDS CausalMembershipRestart, TLC

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
IsCoord(ln) == "coordinator" \in DOMAIN ln
\* The seqs of x among a report's ids.
SeqsIn(ids, x) == {d.seq : d \in {t \in ids : t.origin = x}}
\* ln is the first line of its group (its target heads "targets"), or the
\* line right before it in the merged order is the same node's line of the
\* same action and group, on the target right before it in "targets" (or,
\* not strict, on one before it: an install skips the targets the node
\* had removed already).
Prev(p) == log[p][l[p]]
FirstOfGroup(ln) == ln.target = Head(ln.targets)
NextInGroup(p, ln, strict) ==
    /\ l[p] > 0
    /\ LET pv == Prev(p) IN
       /\ pv.action = ln.action /\ ~IsCoord(pv) /\ pv.node = ln.node
       /\ "targets" \in DOMAIN pv /\ pv.targets = ln.targets
       /\ \E a, b \in DOMAIN ln.targets :
            /\ ln.targets[a] = pv.target /\ ln.targets[b] = ln.target
            /\ IF strict THEN b = a + 1 ELSE a < b

-----------------------------------------------------------------------------
(* Causal's steps, as CausalMembershipRestart guards them.                  *)

PlainLine(p) ==
    /\ \/ TC!BroadcastLine(p)
       \/ TC!ExpireWaitLine(p)
       \/ TC!ExpireRtoLine(p)
       \/ TC!ServeRequestLine(p)
       \/ TC!SendHeartbeatLine(p)
       \/ TC!CrashLine(p)
    /\ UNCHANGED memVars

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

\* The freeze and the wait for a new decision: MayDeliver.
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

CollectGarbageLine(p) ==
    LET ln == Line(p) IN ln.action = "CollectGarbage" /\ MCollectGarbage(ln.node)

-----------------------------------------------------------------------------
(* The view change.                                                         *)

\* The coordinator's suspicion: a new view change, or a restart of the
\* running one for the larger set (its line says which, and the set); or
\* the first line of a takeover that forgot targets its member never
\* reported on (TakeOver: restart says whether it kept any).  A restart
\* for a survivor's report on a forgotten target is a Suspect line.
SuspectLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "Suspect" /\ IsCoord(ln)
    /\ \/ ln.restart = (flushing # {}) /\ Suspect(ln.node, ln.target)
       \/ TakeOver(ln.node) /\ lastAction'.target = ln.target /\ lastAction'.restart = ln.restart
    /\ flushing' = SetOf(ln.flushing)

\* The survivor's report on the round's set; its freeze is the step's.
FlushReportLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "FlushReport" /\ ~IsCoord(ln)
    /\ flushing = SetOf(ln.targets) /\ ln.target \in flushing
    /\ \/ FirstOfGroup(ln) /\ FlushReport(ln.node)
       \/ /\ NextInGroup(p, ln, TRUE)
          /\ lastAction.name = "FlushReport" /\ lastAction.node = ln.node /\ lastAction.targets = flushing
          /\ UNCHANGED mvars
    /\ SeqsIn(report'[ln.node], ln.target) = SetOf(ln.seqs)

\* The coordinator receives survivor ln.node's report on ln.target: the step
\* was taken at the survivor's line; before the decision, the same seqs.
ReportReceivedLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "FlushReport" /\ IsCoord(ln)
    /\ ln.target \in flushing /\ ~Decided
    /\ ln.node \in reported /\ SeqsIn(report[ln.node], ln.target) = SetOf(ln.seqs)
    /\ UNCHANGED mvars

\* The coordinator's line decides (one line per removed node: the first
\* takes DecideView, which decides for all, the others check theirs); a
\* survivor's line learns the decision on its target.
DecideViewLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "DecideView"
    /\ ln.target \in flushing
    /\ IF IsCoord(ln)
       THEN \/ DecideView
            \/ /\ Decided /\ l[p] > 0 /\ Prev(p).action = "DecideView" /\ IsCoord(Prev(p))
               /\ UNCHANGED mvars
       ELSE Decided /\ ln.node \in members /\ UNCHANGED mvars
    /\ agreed'[ln.target] = SetOf(ln.seqs)

FwdSeqs(j, i, x) == {d.seq : d \in {t \in report[j] \ report[i] :
                                        t.origin = x /\ t.seq \in agreed[x] /\ Held(j, t)}}
FlushForwardLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "FlushForward"
    /\ ln.target \in flushing
    /\ FwdSeqs(ln.node, ln.to, ln.target) = SetOf(ln.seqs)
    /\ \/ FlushForward(ln.node, ln.to)
       \/ /\ Decided /\ {ln.node, ln.to} \subseteq members /\ view[ln.to] # members
          /\ Forwards(ln.node, ln.to) \subseteq net
          /\ UNCHANGED mvars

\* The later lines of an install follow the step the first took (its
\* lastAction; the last member's install has ended the view change).
InstallViewLine(p) ==
    LET ln == Line(p) IN
    /\ ln.action = "InstallView"
    /\ ln.target \in SetOf(ln.targets)
    /\ \/ /\ flushing = SetOf(ln.targets) /\ ~ExcludedAt(ln.node, ln.target)
          /\ InstallView(ln.node)
       \/ /\ NextInGroup(p, ln, FALSE)
          /\ lastAction = [name |-> "InstallView", node |-> ln.node, targets |-> SetOf(ln.targets)]
          /\ ExcludedAt(ln.node, ln.target)
          /\ UNCHANGED mvars

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

\* Every variable of CausalMembershipRestart but lastAction (which only names the step).
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
     frozen |-> frozen, awaiting |-> awaiting, reported |-> reported, report |-> report,
     agreed |-> agreed, lastAction |-> lastAction]

Probe == TC!Progress(l) = ReportAt /\ MNext /\ l' = [p \in Procs |-> 0 - 1] /\ UNCHANGED log
ReportSpec == TraceInit /\ [][TraceNext \/ Probe]_traceVars
ReportBound == TC!Progress(l) <= ReportAt
ReportState == TC!Progress(l) = ReportAt => PrintT(<<"at", l, SpecState>>)
ReportProbe ==
    IF \E p \in Procs : l'[p] < 0
    THEN PrintT(<<"enabled", l, SpecState, lastAction'>>) /\ FALSE
    ELSE TRUE
=============================================================================
