------------------------------ MODULE CausalJoin ------------------------------
(***************************************************************************)
(* A node removed by mistake comes back under a new id (issue 19 item 3).  *)
(* Not in the paper, whose group is fixed (L123: "the number of nodes, n,  *)
(* in the system does not change"); CausalMembership only shrinks the      *)
(* group, so over a year of false suspicions it dies out.                  *)
(*                                                                         *)
(* A spare id (one of Spare: ids never used, not members at the start)     *)
(* joins with state transfer, as virtual synchrony and JGroups' state      *)
(* transfer do, in two steps as the core takes them (issue 21).            *)
(* Join(d, j): while no view change runs, a member, the donor, hands the   *)
(* joiner its delivered prefix (its vector clock, the log of what its      *)
(* application applied, its store) and the agreed sets (agreed is the      *)
(* coordinator's state here, read by every node), and installs the view   *)
(* with j itself; the coordinator adds j to members.  The joiner counts as *)
(* having delivered everything the donor had, never delivers those events  *)
(* again, and delivers causally from there.  InstallJoin(i, j): each other *)
(* member installs the view with j later, one step each (the coordinator's *)
(* install message, not modelled as an envelope, as in CausalMembership). *)
(* Until then i counts j as excluded: it refuses j's events ("excluded",   *)
(* MReceive's Refused), does not read its heartbeats, and its stability    *)
(* does not count j's row, so it may collect an event j lacks, which the   *)
(* donor (who counts j) still holds (JCollectedOnlyIfStable; the control   *)
(* MCCausalJoinGcWindow.cfg shows MCollectedOnlyIfStable, which asks that  *)
(* of every member of the installed view, broken by exactly that).  A      *)
(* refused event of j is recovered after the install (RER).  No view      *)
(* change starts before every member installed the join (JSuspect), so    *)
(* InstallView's view (members) is i's view without the removed node, as  *)
(* the core's installView has it.  The snapshot and the donor's install   *)
(* are one step: a donor that delivered an event                           *)
(* between the two would count j's row above j's prefix                   *)
(* (MutJoinSnapshotEarly).                                                 *)
(*                                                                         *)
(* A member's initial row for the joiner is the handed prefix (joinStart,  *)
(* which the coordinator's install message carries): the joiner's clock   *)
(* at the join, which only grows.  Not the member's row of the donor at    *)
(* the install: the donor may have delivered more by then, and that row   *)
(* would claim events the joiner lacks (MutJoinRowFromDonor).  The donor's *)
(* own row is its clock, the handed prefix itself; the joiner's rows are   *)
(* the donor's rows (lower bounds, KnownIsLowerBound).  KnownIsLowerBound  *)
(* checks all of them on every state.                                     *)
(*                                                                         *)
(* Sends address every id, spares included: a copy to a spare waits in the *)
(* network until it joins (a spare takes no step before: up is FALSE).    *)
(* That gives the joiner copies the runtime would send it only through    *)
(* RER; a copy of something the donor had delivered is then a duplicate.  *)
(* The removed id stays out: a spare is an id never used (Join's guard),  *)
(* which is what MutJoinOldId breaks.                                      *)
(***************************************************************************)
EXTENDS CausalMembership

CONSTANT Spare   \* ids never used: not members at the start, each may join once

ASSUME SpareAreNodes == Spare \subseteq Node /\ Spare \cap Suspectable = {}

VARIABLES
    donorOf,   \* history: donorOf[j] is the donor j joined from, "" before
    handed,    \* history: handed[j] is the ids the donor had delivered when j joined
    goneAtJoin, \* history: goneAtJoin[j] is the ids removed before j joined
    joinStart  \* joinStart[j]: the prefix j was handed (NoVc before); the install carries it
\* The histories are not read by the protocol except Joinable's "never
\* joined" (which the runtime knows from its id allocation: a spare id is
\* handed out once) and InstallJoin's donor (the install message names it).

jVars == <<memVars, donorOf, handed, goneAtJoin, joinStart>>
jvars  == <<vars, jVars>>
jpvars == <<pvars, jVars>>   \* without lastAction: the VIEW of the models

\* Init with the spares idle (up FALSE: no step of Causal is enabled for
\* them) and outside every view and the membership.
JoinInit ==
    /\ vc = [i \in Node |-> NoVc]
    /\ buf = [i \in Node |-> {}]
    /\ store = [i \in Node |-> {}]
    /\ missing = [i \in Node |-> {}]
    /\ up = [i \in Node |-> i \notin Spare]
    /\ dlog = [i \in Node |-> <<>>]
    /\ known = [i \in Node |-> [j \in Node |-> NoVc]]
    /\ net = {}
    /\ sent = {}
    /\ lastAction = [name |-> "Init"]
    /\ view = [i \in Node |-> Node \ Spare]
    /\ members = Node \ Spare
    /\ flushing = ""
    /\ reported = {}
    /\ report = [i \in Node |-> {}]
    /\ agreed = [i \in Node |-> {}]
    /\ gone = {}
    /\ donorOf = [i \in Node |-> ""]
    /\ handed = [i \in Node |-> {}]
    /\ goneAtJoin = [i \in Node |-> {}]
    /\ joinStart = [i \in Node |-> NoVc]

\* The ids that may join: spares that never joined.  MutJoinOldId widens it.
Joinable == {j \in Spare : j \notin members \cup gone /\ donorOf[j] = ""}

\* The donor's row for the joiner (its own clock, the handed prefix) and
\* the joiner's rows (the donor's).
JoinKnown(d, j) ==
    IF ~Collecting THEN known
    ELSE [i \in Node |->
            IF i = j THEN [k \in Node |-> IF k = j THEN NoVc ELSE Row(d, k)]
            ELSE IF i = d THEN [known[d] EXCEPT ![j] = vc[d]]
            ELSE known[i]]

\* Join(d, j), the donor's step: d hands its state to the spare j and
\* installs the view with j, j starts from the state with the donor's view
\* and itself, and the coordinator adds j to members.  No view change runs
\* (the donor has installed the last one, so its prefix holds every agreed
\* event of a removed node).  Hand takes the handed state as arguments
\* (prefix v, log l, store st) so that the mutants change one: Join hands
\* the donor's state of this very step.
Hand(d, j, v, l, st) ==
    /\ flushing = ""
    /\ up[d] /\ d \in members
    /\ vc' = [vc EXCEPT ![j] = v]
    /\ dlog' = [dlog EXCEPT ![j] = l]
    /\ store' = [store EXCEPT ![j] = st]
    /\ buf' = [buf EXCEPT ![j] = {}]
    /\ missing' = [missing EXCEPT ![j] = {}]
    /\ up' = [up EXCEPT ![j] = TRUE]
    /\ known' = JoinKnown(d, j)
    /\ members' = members \cup {j}
    /\ view' = [view EXCEPT ![d] = view[d] \cup {j}, ![j] = view[d] \cup {j}]
    /\ donorOf' = [donorOf EXCEPT ![j] = d]
    /\ handed' = [handed EXCEPT ![j] = Range(l)]
    /\ goneAtJoin' = [goneAtJoin EXCEPT ![j] = gone]
    /\ joinStart' = [joinStart EXCEPT ![j] = v]
    /\ lastAction' = [name |-> "Join", node |-> d, target |-> j]
    /\ UNCHANGED <<net, sent, flushing, reported, report, agreed, gone>>

Join(d, j) == j \in Joinable /\ Hand(d, j, vc[d], dlog[d], store[d])

\* InstallJoin(i, j): member i installs the view with j, which joined from
\* another member; its row of j starts from the handed prefix.
\* MutJoinRowFromDonor starts it from i's row of the donor instead.
InstallRow(i, j) == joinStart[j]
InstallJoin(i, j) ==
    /\ up[i]
    /\ i \in members /\ j \in members /\ donorOf[j] \notin {"", i} /\ i # j
    /\ j \notin view[i]
    /\ view' = [view EXCEPT ![i] = @ \cup {j}]
    /\ known' = IF Collecting THEN [known EXCEPT ![i][j] = InstallRow(i, j)] ELSE known
    /\ lastAction' = [name |-> "InstallJoin", node |-> i, target |-> j]
    /\ UNCHANGED <<vc, buf, store, missing, up, dlog, net, sent, members, flushing, reported,
                   report, agreed, gone, donorOf, handed, goneAtJoin, joinStart>>

JoinNext == \/ \E d, j \in Node : Join(d, j)
            \/ \E i, j \in Node : InstallJoin(i, j)

\* Every member installed the view with every joiner.
JoinInstalled == \A i \in members : members \subseteq view[i]

\* A suspicion starts a view change only once every member installed the
\* last join (the coordinator takes one view change at a time, as JGroups'
\* GMS queues joins and suspicions).  Without it a member that had not
\* installed the join installs the view without the suspect and without
\* the joiner (the core's installView excludes the removed node only), and
\* if the suspect was the donor nobody counts the joiner's row: the member
\* collects an event the joiner lacks and the donor is gone
\* (MutJoinSuspectBeforeInstalled).
JSuspect(i, x) == JoinInstalled /\ Suspect(i, x)

JViewNext == \/ \E i, x \in Node : JSuspect(i, x)
             \/ \E i \in Node : FlushReport(i) \/ InstallView(i)
             \/ DecideView
             \/ \E i, j \in Node : FlushForward(j, i)

\* Stability counts the rows of the installed view, the joiner's included
\* (CausalMembership's MStable).  MutJoinGcIgnoresJoiner replaces it.
JCollectGarbage(i) == MCollectGarbage(i)
JGcNext == \E i \in Node : JCollectGarbage(i)

\* The steps that leave the join's variables as they are.
JPlainNext == (PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ JViewNext)
                  /\ UNCHANGED <<donorOf, handed, goneAtJoin, joinStart>>

JNext == \/ JPlainNext
         \/ JGcNext /\ UNCHANGED <<donorOf, handed, goneAtJoin, joinStart>>
         \/ JoinNext

JSpec == JoinInit /\ [][JNext]_jvars

-----------------------------------------------------------------------------
(* Properties of the join.  Causal's safety (CausalOrder and             *)
(* NoDuplicateDelivery over the joiner's whole log, the handed part        *)
(* included), CausalMembership's (ExcludedNotDelivered: the old id stays   *)
(* out; MRecoverable with the joiner a member), and KnownIsLowerBound      *)
(* (every row of the joiner) are checked as they stand.                    *)
(* MCollectedOnlyIfStable does not hold across the install window (see the *)
(* head of the module): JCollectedOnlyIfStable replaces it in the          *)
(* collection models.                                                      *)

Joined == {j \in Node : donorOf[j] # ""}

\* A joiner never delivers an event its donor had handed it: its
\* application got those with the state.  The handed ids fill the first
\* places of its log (the transferred log), so a handed id further on is a
\* second delivery of it (what MutJoinEmptyPrefix shows).
JoinerSkipsHanded ==
    \A j \in Joined : \A x \in DOMAIN dlog[j] :
        dlog[j][x] \in handed[j] => x <= Cardinality(handed[j])

\* Control (expected violated, MCCausalJoinReached.cfg): no node that joined
\* after a removal delivers anything it was not handed.  Its counterexample
\* shows a removal, a join under a new id, and the joiner delivering a
\* later event.
RejoinerDeliversNothing ==
    \A j \in Joined : goneAtJoin[j] # {} => Range(dlog[j]) \subseteq handed[j]

\* Collection across the install window: an event i collected is delivered
\* by every member of i's view, or that member joined and its donor still
\* holds the event (the donor counts the joiner's row from the join on; a
\* member that had not installed yet counted only the others).  So a
\* joiner lacks a collected event only while its donor holds it; a donor
\* that crashes in that window would take the last copy (Faulty is empty
\* in the join models: see README, the open point of issue 21).
JCollectedOnlyIfStable ==
    \A i \in Node : \A d \in Range(dlog[i]) :
        (~\E m \in store[i] : IdOf(m) = d) =>
            \A k \in view[i] : Dlv(k, d) \/ (k \in Joined /\ Held(donorOf[k], d))
=============================================================================
