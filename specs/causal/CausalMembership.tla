--------------------------- MODULE CausalMembership ---------------------------
(***************************************************************************)
(* Removal of a suspected node from the causal group, with a flush (issue  *)
(* 19 item 3).  Not in the paper, whose group is fixed (L123: "the number  *)
(* of nodes, n, in the system does not change"): without it a crashed      *)
(* node's row holds the stable prefix for good, garbage collection stops  *)
(* and the store bound ends by refusing every broadcast.                   *)
(*                                                                         *)
(* A view change with flush, as virtual synchrony and JGroups' FLUSH do:   *)
(* a node suspects x (falsely too: the system is asynchronous, a slow node *)
(* looks crashed); every survivor reports which of x's events it has        *)
(* delivered and from then on delivers no more of them on its own (the      *)
(* freeze); the coordinator decides the union of the reports, the agreed   *)
(* set, and removes x from the membership; survivors forward to each other *)
(* the agreed events a survivor lacks; each survivor installs the new view *)
(* once it has delivered every agreed event, dropping what it holds of x's *)
(* other events.  After that x is excluded for good: its events outside    *)
(* the agreed set are refused, its heartbeats ignored, and a node removed  *)
(* by mistake may come back only under a new id (the group never admits   *)
(* x again, which is what MutReadmitOldId breaks).  Stability then counts  *)
(* only the rows of the installed view, so garbage collection continues.   *)
(*                                                                         *)
(* The coordinator's messages (flush request, reports, decision) are not   *)
(* modelled as envelopes: the variables members, flushing, reported,      *)
(* report and agreed are the coordinator's state, and a node's step reads *)
(* them as the message it would have received.  The forwarded events are  *)
(* envelopes (resends), so they can be lost or duplicated like any other.  *)
(* One view change at a time, and only a suspectable node is suspected; a  *)
(* second crash during a flush would need the flush to restart, which this *)
(* spec leaves out (models: Faulty \subseteq Suspectable, one of them).    *)
(***************************************************************************)
EXTENDS Causal

CONSTANT Suspectable   \* nodes a failure detector may suspect, falsely or not

ASSUME SuspectableAreNodes == Suspectable \subseteq Node

VARIABLES
    view,      \* view[i]: the members i counts (its installed view)
    members,   \* the coordinator's membership: Node minus every removed node
    flushing,  \* the node being removed, or "" when no view change runs
    reported,  \* survivors that reported for the running flush (and froze)
    report,    \* report[i]: the seqs of flushing's events i had delivered when it reported
    agreed,    \* agreed[x]: x's seqs every survivor delivers (decided; {} until x is removed)
    gone       \* history: every node ever removed (never read by the protocol)

memVars  == <<view, members, flushing, reported, report, agreed, gone>>
mpvars   == <<pvars, memVars>>
mvars    == <<vars, memVars>>

Survivors == members \ {flushing}
Decided   == flushing # "" /\ flushing \notin members
\* i has installed a view without x: x is excluded at i.
ExcludedAt(i, x) == x \notin view[i]

MTypeOK ==
    /\ view \in [Node -> SUBSET Node]
    /\ members \subseteq Node
    /\ flushing \in Node \cup {""}
    /\ reported \subseteq Node
    /\ report \in [Node -> SUBSET Nat]
    /\ agreed \in [Node -> SUBSET Nat]
    /\ gone \subseteq Node

MInit ==
    /\ Init
    /\ view = [i \in Node |-> Node]
    /\ members = Node
    /\ flushing = ""
    /\ reported = {}
    /\ report = [i \in Node |-> {}]
    /\ agreed = [i \in Node |-> {}]
    /\ gone = {}

-----------------------------------------------------------------------------
(* The membership's guards on the steps of Causal.                          *)

\* The freeze: once i reported for x's removal it delivers no event of x
\* until the decision, and then only an agreed one; once x is excluded, the
\* same.  Without it a survivor could deliver an event after reporting that
\* the others, told the union of the reports, never deliver.
MayDeliver(i, m) ==
    (ExcludedAt(i, m.origin) \/ (m.origin = flushing /\ i \in reported))
        => m.origin \notin members /\ m.seq \in agreed[m.origin]

\* A copy of an excluded node's event that was not agreed is refused: no
\* survivor delivers it, so it is not buffered, and it reveals nothing.
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

\* An excluded node's heartbeat is not read: it would reveal events no
\* survivor will deliver, and its row no longer counts.
MReceiveHeartbeat(i, e) ==
    ~ExcludedAt(i, e.from) /\ ReceiveHeartbeat(i, e) /\ UNCHANGED memVars

\* Stability counts the rows of i's installed view only: the removed row no
\* longer holds the stable prefix (the point of the removal).
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

\* i's failure detector suspects x, and i (as coordinator) starts the flush.
\* Enabled whether x crashed or not: a suspicion may be false.
Suspect(i, x) ==
    /\ up[i]
    /\ flushing = ""
    /\ i \in members /\ x \in members \ {i}
    /\ x \in Suspectable
    /\ flushing' = x
    /\ lastAction' = [name |-> "Suspect", node |-> i, target |-> x]
    /\ UNCHANGED <<pvars, view, members, reported, report, agreed, gone>>

\* A survivor reports which of x's events it has delivered, and freezes x.
FlushReport(i) ==
    /\ up[i]
    /\ flushing # "" /\ ~Decided
    /\ i \in Survivors \ reported
    /\ reported' = reported \cup {i}
    /\ report' = [report EXCEPT ![i] = SeqsOf(i, flushing)]
    /\ lastAction' = [name |-> "FlushReport", node |-> i, target |-> flushing,
                      seqs |-> SeqsOf(i, flushing)]
    /\ UNCHANGED <<pvars, view, members, flushing, agreed, gone>>

\* Every survivor reported: the agreed set is the union of the reports (an
\* event one survivor delivered is delivered by all), and x leaves the
\* membership.  In the ordered modes the union of prefixes is the longest.
DecideView ==
    /\ flushing # "" /\ ~Decided
    /\ reported = Survivors
    /\ agreed' = [agreed EXCEPT ![flushing] = UNION {report[i] : i \in Survivors}]
    /\ members' = Survivors
    /\ gone' = gone \cup {flushing}
    /\ lastAction' = [name |-> "DecideView", target |-> flushing,
                      seqs |-> UNION {report[i] : i \in Survivors}]
    /\ UNCHANGED <<pvars, view, flushing, reported, report>>

\* JGroups' FLUSH retransmits what a member lacks: j sends i the agreed
\* events of x that j reported and i did not, from its store.  Enabled again
\* while i has not installed (a forwarded copy may be lost).
Forwards(j, i) ==
    {ResendEnv(CopyAt(j, [origin |-> flushing, seq |-> s]), j, i) :
        s \in {t \in (agreed[flushing] \cap report[j]) \ report[i] :
                 Held(j, [origin |-> flushing, seq |-> t])}}
FlushForward(j, i) ==
    /\ up[j]
    /\ Decided
    /\ i # j /\ {i, j} \subseteq members
    /\ ~ExcludedAt(i, flushing)
    /\ ~(Forwards(j, i) \subseteq net)
    /\ net' = net \cup Forwards(j, i)
    /\ lastAction' = [name |-> "FlushForward", node |-> j, to |-> i, target |-> flushing]
    /\ UNCHANGED <<nodeVars, sent, memVars>>

\* i has delivered every agreed event: it installs the view without x,
\* dropping x's other events from its buffer and its missing list.  The
\* last survivor to install ends the view change.  No guard that the other
\* survivors have forwarded first, though the runtime waits for it (a
\* survivor installs once every other survivor's FORWARDED arrived): TLC
\* shows the wait is not needed for safety (MCCausalMembershipLateForward:
\* FlushForward to a survivor that installed, every property holding; the
\* installed survivor has delivered the agreed copy, so it is a duplicate).
\* The runtime keeps it so that its forwards precede the receiver's install,
\* as FlushForward's ~ExcludedAt guard and the log merge have it.
InstallView(i) ==
    /\ up[i]
    /\ Decided
    /\ i \in members
    /\ ~ExcludedAt(i, flushing)
    /\ agreed[flushing] \subseteq SeqsOf(i, flushing)
    /\ view' = [view EXCEPT ![i] = members]
    /\ buf' = [buf EXCEPT ![i] = {m \in @ : m.origin # flushing}]
    /\ missing' = [missing EXCEPT ![i] = {r \in @ : r.origin # flushing}]
    /\ IF \A j \in members \ {i} : ExcludedAt(j, flushing)
       THEN flushing' = "" /\ reported' = {} /\ report' = [j \in Node |-> {}]
       ELSE UNCHANGED <<flushing, reported, report>>
    /\ lastAction' = [name |-> "InstallView", node |-> i, target |-> flushing]
    /\ UNCHANGED <<vc, store, up, dlog, known, net, sent, members, agreed, gone>>

-----------------------------------------------------------------------------
MReceiveNext == \E e \in net : MReceive(e.to, e)
MDeliverNext == \E i \in Node : \E m \in buf[i] : MDeliver(i, m)
MHbNext      == \E i \in Node : (SendHeartbeat(i) /\ UNCHANGED memVars)
                                \/ \E e \in net : MReceiveHeartbeat(i, e)
MGcNext      == \E i \in Node : MCollectGarbage(i)
ViewNext     == \/ \E i, x \in Node : Suspect(i, x)
                \/ \E i \in Node : FlushReport(i) \/ InstallView(i)
                \/ DecideView
                \/ \E i, j \in Node : FlushForward(j, i)
\* The steps of Causal the membership does not guard.
PlainNext    == (BroadcastNext \/ RerNext \/ ServeNext \/ EnvNext) /\ UNCHANGED memVars

MNext == PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ MGcNext \/ ViewNext

MSpec == MInit /\ [][MNext]_mvars

\* Causal's fairness, over the guarded steps, and: a crashed node is
\* eventually suspected (the failure detector's completeness), survivors
\* report, forward and install, the coordinator decides, and garbage is
\* collected.  A false suspicion is allowed and never required.  The view
\* change's steps are fair as a group ("some"): each node takes each of
\* them finitely often per view change, so fairness on some reaches every
\* one, and few conjuncts keep TLC's liveness check small (per node and
\* per pair, three nodes took longer than the state space to set up).
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
(* Properties of the removal.  Causal's safety properties (order, no       *)
(* duplicate, ...) are checked on MSpec as they stand.                     *)

\* The nodes that installed a view without x.
InstalledWithout(x) == {i \in Node \ {x} : ExcludedAt(i, x)}

\* Agreement of the flush: every survivor that installed the view without x
\* delivered the same events of x.
RemovedAgreement ==
    \A x \in gone : \A i, j \in InstalledWithout(x) : SeqsOf(i, x) = SeqsOf(j, x)

\* An excluded node's old-id events are never delivered after the view
\* change unless the flush agreed on them: from the decision on, a member
\* (every later member survived x's removal: nobody joins) has delivered
\* no event of x outside the agreed set, whatever the views say then.
ExcludedNotDelivered ==
    \A x \in gone : \A i \in members \ {x} : SeqsOf(i, x) \subseteq agreed[x]

\* Garbage collection drops only what every member of the collector's view
\* delivered (CollectedOnlyIfStable with the removed row excluded).
MCollectedOnlyIfStable ==
    \A i \in Node : \A d \in Range(dlog[i]) :
        (~\E m \in store[i] : IdOf(m) = d) => \A j \in view[i] : Dlv(j, d)

\* Recoverable for the events a member still has to deliver: held
\* somewhere or in transit (the agreed events of a removed node included).
ToDeliver(d) == d.origin \in members \/ d.seq \in agreed[d.origin]
MRecoverable ==
    \A d \in SentIds :
        (ToDeliver(d) /\ \E i \in members : ~Dlv(i, d)) =>
            \/ \E j \in Node : Held(j, d)
            \/ \E e \in net : e.type \in {"data", "resend"} /\ IdOf(e) = d

\* Liveness: a view change ends (every survivor installs), and garbage
\* collection continues: a correct node's store drains once every event is
\* delivered, a crashed node's row notwithstanding.
FlushCompletes == flushing # "" ~> flushing = ""
GcContinues == \A i \in Correct : <>[](store[i] = {})
=============================================================================
