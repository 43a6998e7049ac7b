----------------------- MODULE CausalMembershipRestart -----------------------
(***************************************************************************)
(* The view change with flush of CausalMembership, made to survive a       *)
(* second failure during the flush, the coordinator's included (issue 19   *)
(* item 3).  Not in the paper, whose group is fixed (L123: "the number of  *)
(* nodes, n, in the system does not change").  CausalMembership runs one   *)
(* view change for one suspect, and its coordinator's state (members,      *)
(* flushing, reported, report, agreed) never fails; if the coordinator or  *)
(* a survivor the flush waits for crashed, that flush would wait for ever, *)
(* garbage collection would stop for good, and the store bound would end  *)
(* by refusing every broadcast: what the removal was for.                  *)
(*                                                                         *)
(* Here, as in virtual synchrony and JGroups' FLUSH, a suspicion during a  *)
(* running flush restarts it for the set of suspected nodes: flushing is a *)
(* set, the coordinator is the first survivor in the ring order of Nodes   *)
(* (JGroups: the oldest member), so when it is suspected the next survivor *)
(* takes over, and the reports the old coordinator held are lost with it:  *)
(* the new coordinator collects every survivor's report again (Suspect    *)
(* clears reported and report), decides, and the survivors install a view  *)
(* without every removed node.  A restart may come after a decision that   *)
(* some survivors acted on (they were forwarded agreed events, delivered   *)
(* them, installed): the decision is then taken again.                     *)
(*                                                                         *)
(* Why the union of the new reports stays right (the argument TLC checks   *)
(* as RemovedAgreement and InstalledDeliveredAgreed): a survivor that      *)
(* reported froze the reported nodes (frozen, which a restart keeps); from *)
(* then on it delivers an event of them only if a decision agreed on it,   *)
(* and not at all between a report and the next decision (awaiting).  So *)
(* its report in a later round is its earlier report plus agreed events of *)
(* an earlier decision: every report of round r+1 is a subset of the agreed *)
(* set of the last decided round.  The new agreed set is therefore a      *)
(* subset of the old one, and if a survivor of the new round had installed *)
(* the old decision, it delivered all of the old agreed set, reports it,   *)
(* and the new agreed set equals the old: no survivor that installed is    *)
(* asked to deliver more, and none that did not install delivered outside  *)
(* it.  What the new set leaves out was delivered only by nodes the new    *)
(* round removes (virtual synchrony's agreement is among the members that  *)
(* go on together, not with a crashed one).                                *)
(*                                                                         *)
(* A takeover may also forget (TakeOver, issue 21 item 6; the finding of  *)
(* the UDP runtime stored as validate/causal/udp-missed-takeover-seed17):  *)
(* the next survivor rebuilds the coordinator's state from what it knows  *)
(* as a member, the targets it reported on, so a target whose flush       *)
(* request never reached it is dropped from the round, and comes back by   *)
(* a restart when a survivor's report names it.  Safe because the         *)
(* taker-over's report is in every decision of the view change, so a      *)
(* target it never reported on was never removed, and a survivor that      *)
(* froze it delivers none of its events while it is a member: its later   *)
(* report in the union's round is what it had delivered when it froze.    *)
(*                                                                         *)
(* A module beside CausalMembership, not a change to it: flushing becomes  *)
(* a set and the freeze a per-survivor variable, so CausalMembership's     *)
(* stored traces (causal-removal, causal-false-suspicion, causal-gc-after- *)
(* removal, causal-freeze), its trace validation (TraceCausalMembership    *)
(* and the logs stored under validate/causal/) and its twenty models and   *)
(* mutants keep their counts and verdicts.  With one suspectable node a   *)
(* suspicion never restarts and the steps are CausalMembership's (argued, *)
(* not checked: no refinement mapping between the two is model-checked).  *)
(*                                                                         *)
(* As there, the coordinator's messages (flush request, reports, decision) *)
(* are its variables, read by the survivors' steps, and the forwarded      *)
(* events are envelopes that may be lost or duplicated.                    *)
(***************************************************************************)
EXTENDS Causal

CONSTANT Suspectable   \* nodes a failure detector may suspect, falsely or not

ASSUME SuspectableAreNodes == Suspectable \subseteq Node

VARIABLES
    view,      \* view[i]: the members i counts (its installed view)
    members,   \* the group's membership: Node minus every node a decision removed
    flushing,  \* the nodes the running view change removes; {} when none runs
    frozen,    \* frozen[i]: the nodes i reported on in this view change (the freeze; a restart keeps it)
    awaiting,  \* awaiting[i]: the nodes i reported on since the last decision it learnt
    reported,  \* survivors that reported to the current coordinator in this round
    report,    \* report[i]: the ids of flushing's events i had delivered when it reported this round
    agreed,    \* agreed[x]: x's seqs every survivor delivers (decided; {} until x is removed)
    gone       \* history: every node ever removed (never read by the protocol)

memVars  == <<view, members, flushing, frozen, awaiting, reported, report, agreed, gone>>
mpvars   == <<pvars, memVars>>
mvars    == <<vars, memVars>>

Survivors == members \ flushing
\* Every node of the running view change is removed by the current round's
\* decision (after a restart the earlier decision no longer counts: the
\* round's new suspect is still a member).
Decided   == flushing # {} /\ flushing \cap members = {}
\* The coordinator: the first survivor in the ring order (JGroups: the
\* oldest member).  Suspecting it hands its part to the next survivor.
Coord     == CHOOSE c \in Survivors : \A d \in Survivors : Pos(c) <= Pos(d)
\* i has installed a view without x: x is excluded at i.
ExcludedAt(i, x) == x \notin view[i]
\* The ids of the nodes in X that i has delivered.
DeliveredOf(i, X) == {d \in Range(dlog[i]) : d.origin \in X}

MTypeOK ==
    /\ view \in [Node -> SUBSET Node]
    /\ members \subseteq Node
    /\ flushing \subseteq Node
    /\ frozen \in [Node -> SUBSET Node]
    /\ awaiting \in [Node -> SUBSET Node]
    /\ reported \subseteq Node
    /\ report \in [Node -> SUBSET AllIds]
    /\ agreed \in [Node -> SUBSET Nat]
    /\ gone \subseteq Node

MInit ==
    /\ Init
    /\ view = [i \in Node |-> Node]
    /\ members = Node
    /\ flushing = {}
    /\ frozen = [i \in Node |-> {}]
    /\ awaiting = [i \in Node |-> {}]
    /\ reported = {}
    /\ report = [i \in Node |-> {}]
    /\ agreed = [i \in Node |-> {}]
    /\ gone = {}

-----------------------------------------------------------------------------
(* The membership's guards on the steps of Causal.                          *)

\* The freeze: once i reported on x it delivers an event of x only if a
\* decision removed x and agreed on the event, and none at all between a
\* report and the next decision (awaiting): a restart after a decision
\* takes the decision again, so an event of the old agreed set that i
\* delivered after its new report could be missing from the new union
\* (MutDeliverAfterNewReport).  Before its new report it may still deliver
\* the old agreed events (a survivor learns of the restart only from the
\* new coordinator's request); its report then includes them.  awaiting is
\* i's own knowledge, not the round's: a second restart before i's report
\* to it does not release what i reported.  Once x is excluded, the same.
MayDeliver(i, m) ==
    (ExcludedAt(i, m.origin) \/ m.origin \in frozen[i])
        => /\ m.origin \notin members /\ m.seq \in agreed[m.origin]
           /\ m.origin \notin awaiting[i]

\* A copy of an excluded node's event that was not agreed is refused.
Refused(i, m) == ExcludedAt(i, m.origin) /\ m.seq \notin agreed[m.origin]

MReceive(i, e) ==
    IF Refused(i, MsgOf(e))
    THEN /\ up[i] /\ e \in net /\ e.to = i /\ e.type \in {"data", "resend"}
         /\ net' = IF Duplicating THEN net ELSE net \ {e}
         /\ lastAction' = [name |-> "Receive", node |-> i, from |-> e.from, type |-> e.type,
                           origin |-> e.origin, seq |-> e.seq, vc |-> e.vc, outcome |-> "excluded"]
         /\ UNCHANGED <<nodeVars, sent, memVars>>
    ELSE Receive(i, e) /\ UNCHANGED memVars

MDeliver(i, m) == MayDeliver(i, m) /\ Deliver(i, m) /\ UNCHANGED memVars

MReceiveHeartbeat(i, e) ==
    ~ExcludedAt(i, e.from) /\ ReceiveHeartbeat(i, e) /\ UNCHANGED memVars

\* Stability counts the rows of i's installed view only.
MStable(i, d) == \A j \in view[i] : d.seq <= Row(i, j)[d.origin]

MCollectGarbage(i) ==
    /\ Collecting
    /\ up[i]
    /\ \E m \in store[i] : MStable(i, IdOf(m))
    /\ store' = [store EXCEPT ![i] = {m \in @ : ~MStable(i, IdOf(m))}]
    /\ lastAction' = [name |-> "CollectGarbage", node |-> i]
    /\ UNCHANGED <<vc, buf, missing, up, dlog, known, net, sent, memVars>>

-----------------------------------------------------------------------------
(* The view change.                                                         *)

\* Survivor i's failure detector suspects survivor x (falsely too).  With
\* no view change running this starts one; during one it restarts it for
\* flushing \cup {x}: a new round whose coordinator (Coord, x's successor
\* if x coordinated) knows no report, so every survivor reports again.  A
\* decision already taken for flushing is taken again (Decided is FALSE
\* until the new round decides: x is still a member).
Suspect(i, x) ==
    /\ up[i]
    /\ i \in Survivors /\ x \in Survivors \ {i}
    /\ x \in Suspectable
    /\ flushing' = flushing \cup {x}
    /\ reported' = {}
    /\ report' = [j \in Node |-> {}]
    /\ lastAction' = [name |-> "Suspect", node |-> i, target |-> x, restart |-> flushing # {}]
    /\ UNCHANGED <<pvars, view, members, frozen, awaiting, agreed, gone>>

\* The coordinator x is suspected by the survivor i that comes first in ring
\* order once x is out, and i takes over from what it knows as a member
\* (impl ViewCoordinator.takeOver: ViewChange.resume(view, unfinished) and
\* Suspect(self, x)): the targets of the running round it reported on,
\* frozen[i] (ViewMember.unfinished: the targets of the last round it
\* reported on, which hold those of its earlier reports, since it answers
\* a flush that leaves one out with its old report instead).  A target no
\* report of i named, i never heard of: the old coordinator's request to
\* i was lost, or i had not answered it.  The
\* new round flushes only what i knows and x, and the forgotten targets
\* are survivors again.  (When i knows every target, this is Suspect(i, x).)
\* i comes first among the survivors of the new round: a forgotten target
\* before it in ring order would be the coordinator i watches, not i.
\* What keeps this safe (argued in the header, checked by TLC): a
\* forgotten target t is one i did not report on, and every decision of
\* this view change had i's report (i was a survivor of every round), so
\* none removed t: t is a member and outside gone, so no property about a
\* removed node speaks of it yet.  A survivor j that reported on t keeps
\* t in frozen[j]: with t a member, MayDeliver refuses j every event of t
\* until a decision removes t, so j's report on t stays what it delivered
\* when the union's round (the restart that adds t back) asks it again.
\* That restart is Suspect(c, t): the coordinator's restart for the
\* targets of a survivor's report it had not heard of (ViewCoordinator
\* .receive), a suspicion of t as far as the state goes.  That refusal
\* is not a guard here: a survivor may report to a round that left out a
\* target it froze, and the round may decide and end without it, which is
\* safe too (t stays a member, and the end of the view change lifts the
\* freeze of a node nobody removed); the runtime's refusal only makes the
\* restart come sooner.  Forgetting a
\* target i reported on could drop one a decision removed, and a survivor
\* would install a view without it lacking its agreed events
\* (MutTakeOverForgetsReported, refuted in ci).
KnownAt(i) == flushing \cap frozen[i]
TakeOver(i) ==
    LET x == Coord
        F == KnownAt(i) \cup {x}
    IN /\ up[i]
       /\ i \in Survivors \ {x} /\ x \in Suspectable
       /\ flushing \ frozen[i] # {}
       /\ \A d \in members \ F : Pos(i) <= Pos(d)
       /\ flushing' = F
       /\ reported' = {}
       /\ report' = [j \in Node |-> {}]
       /\ lastAction' = [name |-> "Suspect", node |-> i, target |-> x, restart |-> F # {x}]
       /\ UNCHANGED <<pvars, view, members, frozen, awaiting, agreed, gone>>

\* A survivor reports to the coordinator which events of the nodes being
\* removed it has delivered, and freezes them.
FlushReport(i) ==
    /\ up[i]
    /\ flushing # {} /\ ~Decided
    /\ i \in Survivors \ reported
    /\ reported' = reported \cup {i}
    /\ report' = [report EXCEPT ![i] = DeliveredOf(i, flushing)]
    /\ frozen' = [frozen EXCEPT ![i] = @ \cup flushing]
    /\ awaiting' = [awaiting EXCEPT ![i] = flushing]
    /\ lastAction' = [name |-> "FlushReport", node |-> i, targets |-> flushing,
                      ids |-> DeliveredOf(i, flushing)]
    /\ UNCHANGED <<pvars, view, members, flushing, agreed, gone>>

\* The coordinator, up, has every survivor's report of this round: each
\* removed node's agreed set is the union of the reports (an event one
\* survivor delivered is delivered by all), and the nodes leave.  Every
\* survivor learns the decision (its awaiting ends); a removed node, which
\* is told nothing more, keeps its freeze.
AgreedSeqs(x) == {d.seq : d \in {e \in UNION {report[i] : i \in Survivors} : e.origin = x}}
DecideView ==
    /\ flushing # {} /\ ~Decided
    /\ up[Coord]
    /\ reported = Survivors
    /\ agreed' = [x \in Node |-> IF x \in flushing THEN AgreedSeqs(x) ELSE agreed[x]]
    /\ members' = Survivors
    /\ gone' = gone \cup flushing
    /\ awaiting' = [i \in Node |-> IF i \in Survivors THEN {} ELSE awaiting[i]]
    /\ lastAction' = [name |-> "DecideView", node |-> Coord, targets |-> flushing,
                      agreed |-> [x \in flushing |-> AgreedSeqs(x)]]
    /\ UNCHANGED <<pvars, view, flushing, frozen, reported, report>>

\* j sends i the agreed events j reported this round and i did not.  Only
\* to a member that has not installed this view (a view without every
\* removed node).
Forwards(j, i) ==
    {ResendEnv(CopyAt(j, d), j, i) :
        d \in {t \in report[j] \ report[i] : t.seq \in agreed[t.origin] /\ Held(j, t)}}
FlushForward(j, i) ==
    /\ up[j]
    /\ Decided
    /\ i # j /\ {i, j} \subseteq members
    /\ view[i] # members
    /\ ~(Forwards(j, i) \subseteq net)
    /\ net' = net \cup Forwards(j, i)
    /\ lastAction' = [name |-> "FlushForward", node |-> j, to |-> i, targets |-> flushing]
    /\ UNCHANGED <<nodeVars, sent, memVars>>

\* i has delivered every agreed event of every removed node: it installs
\* the view without them, dropping their other events.  The last member to
\* install ends the view change and the members' freeze (exclusion takes
\* over); a removed node is told nothing more and stays frozen.
InstallView(i) ==
    /\ up[i]
    /\ Decided
    /\ i \in members
    /\ view[i] # members
    /\ \A x \in flushing : agreed[x] \subseteq SeqsOf(i, x)
    /\ view' = [view EXCEPT ![i] = members]
    /\ buf' = [buf EXCEPT ![i] = {m \in @ : m.origin \notin flushing}]
    /\ missing' = [missing EXCEPT ![i] = {r \in @ : r.origin \notin flushing}]
    /\ IF \A j \in members \ {i} : view[j] = members
       THEN /\ flushing' = {} /\ reported' = {} /\ report' = [j \in Node |-> {}]
            /\ frozen' = [j \in Node |-> IF j \in members THEN {} ELSE frozen[j]]
       ELSE UNCHANGED <<flushing, frozen, reported, report>>
    /\ lastAction' = [name |-> "InstallView", node |-> i, targets |-> flushing]
    /\ UNCHANGED <<vc, store, up, dlog, known, net, sent, members, awaiting, agreed, gone>>

-----------------------------------------------------------------------------
MReceiveNext == \E e \in net : MReceive(e.to, e)
MDeliverNext == \E i \in Node : \E m \in buf[i] : MDeliver(i, m)
MHbNext      == \E i \in Node : (SendHeartbeat(i) /\ UNCHANGED memVars)
                                \/ \E e \in net : MReceiveHeartbeat(i, e)
MGcNext      == \E i \in Node : MCollectGarbage(i)
ViewNext     == \/ \E i, x \in Node : Suspect(i, x)
                \/ \E i \in Node : TakeOver(i)
                \/ \E i \in Node : FlushReport(i) \/ InstallView(i)
                \/ DecideView
                \/ \E i, j \in Node : FlushForward(j, i)
PlainNext    == (BroadcastNext \/ RerNext \/ ServeNext \/ EnvNext) /\ UNCHANGED memVars

MNext == PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ MGcNext \/ ViewNext

MSpec == MInit /\ [][MNext]_mvars

\* CausalMembership's fairness: a crashed node is eventually suspected (the
\* failure detector's completeness), whether or not a flush runs, which is
\* what lets a flush whose coordinator or survivor crashed restart.
MRtoId(i, d)      == \E r \in missing[i] : IdOf(r) = d /\ ExpireRto(i, r) /\ UNCHANGED memVars
MServeId(j, i, d) == \E e \in net : /\ e.type = "req" /\ e.to = j /\ e.from = i
                                    /\ IdOf(e) = d /\ ServeRequest(j, e) /\ UNCHANGED memVars
MFairness ==
    /\ \A i \in Node :
         /\ WF_mpvars(\E m \in buf[i] : MDeliver(i, m))
         /\ WF_mpvars(\E r \in missing[i] : ExpireWait(i, r) /\ UNCHANGED memVars)
         /\ SF_mpvars(\E e \in net : e.to = i /\ MReceive(i, e))
         /\ WF_mpvars(SendHeartbeat(i) /\ UNCHANGED memVars)
         /\ SF_mpvars(\E e \in net : MReceiveHeartbeat(i, e))
         /\ WF_mpvars(MCollectGarbage(i))
    /\ WF_mpvars(\E i, x \in Node : ~up[x] /\ Suspect(i, x))
    /\ WF_mpvars(\E i \in Node : FlushReport(i) \/ InstallView(i))
    /\ WF_mpvars(DecideView)
    /\ SF_mpvars(\E i, j \in Node : FlushForward(j, i))
    /\ \A i \in Node, d \in AllIds :
         /\ WF_mpvars(MRtoId(i, d))
         /\ \A j \in Node \ {i} : SF_mpvars(MServeId(j, i, d))

MFairSpec == MSpec /\ MFairness

-----------------------------------------------------------------------------
(* Properties: CausalMembership's, over the members that go on.            *)

InstalledWithout(x) == {i \in Node \ {x} : ExcludedAt(i, x)}

\* Agreement of the flush among the members that go on together: a member
\* that installed a view without x delivered the same events of x as every
\* other such member.  A node a later round removes may have delivered
\* more (it delivered an event, installed and crashed before forwarding
\* it); virtual synchrony asks agreement only of the members that go on.
RemovedAgreement ==
    \A x \in gone : \A i, j \in InstalledWithout(x) \cap members : SeqsOf(i, x) = SeqsOf(j, x)

\* The same, against the decision: a member that installed a view without x
\* delivered exactly x's agreed events, also after a restart took the
\* decision again (the new set equals the old once a survivor installed).
InstalledDeliveredAgreed ==
    \A x \in gone : \A i \in InstalledWithout(x) \cap members : SeqsOf(i, x) = agreed[x]

\* No member delivers an event of a removed node outside its agreed set.
ExcludedNotDelivered ==
    \A x \in gone : \A i \in members \ {x} : SeqsOf(i, x) \subseteq agreed[x]

MCollectedOnlyIfStable ==
    \A i \in Node : \A d \in Range(dlog[i]) :
        (~\E m \in store[i] : IdOf(m) = d) => \A j \in view[i] : Dlv(j, d)

ToDeliver(d) == d.origin \in members \/ d.seq \in agreed[d.origin]
MRecoverable ==
    \A d \in SentIds :
        (ToDeliver(d) /\ \E i \in members : ~Dlv(i, d)) =>
            \/ \E j \in Node : Held(j, d)
            \/ \E e \in net : e.type \in {"data", "resend"} /\ IdOf(e) = d

\* Liveness: every view change ends, also one whose coordinator crashed
\* mid-flush, and garbage collection continues at every correct member (a
\* correct node removed by a false suspicion has left the group: its
\* store no longer drains, and it would come back only under a new id).
FlushCompletes == flushing # {} ~> flushing = {}
GcContinues == \A i \in Correct : <>[](i \in members => store[i] = {})
=============================================================================
