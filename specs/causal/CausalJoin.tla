------------------------------ MODULE CausalJoin ------------------------------
(***************************************************************************)
(* A node removed by mistake comes back under a new id (issue 19 item 3).  *)
(* Not in the paper, whose group is fixed (L123: "the number of nodes, n,  *)
(* in the system does not change"); CausalMembership only shrinks the      *)
(* group, so over a year of false suspicions it dies out.                  *)
(*                                                                         *)
(* A spare id (one of Spare: ids never used, not members at the start)     *)
(* joins with state transfer, as virtual synchrony and JGroups' state      *)
(* transfer do: while no view change runs, a member, the donor, hands the  *)
(* joiner its delivered prefix (its vector clock, the log of what its      *)
(* application applied, its store) and the agreed sets (agreed is the      *)
(* coordinator's state here, read by every node); the joiner counts as     *)
(* having delivered everything the donor had, never delivers those events  *)
(* again, and delivers causally from there; every member installs the      *)
(* view with the joiner in the same step (the coordinator's decision, not  *)
(* modelled as envelopes, as in CausalMembership), after which stability   *)
(* counts the joiner's row.  The snapshot and the install are one step:    *)
(* a donor that delivered an event between the two would hand a prefix    *)
(* older than the row the members start the joiner with                   *)
(* (MutJoinSnapshotEarly).                                                 *)
(*                                                                         *)
(* The members' initial row for the joiner is their row of the donor: a    *)
(* lower bound of the joiner's progress, since i's row of the donor is at  *)
(* most the donor's clock (KnownIsLowerBound), which is the joiner's clock *)
(* at the join, which only grows.  KnownIsLowerBound checks it on every    *)
(* state; the joiner's own rows are the donor's rows, for the same reason. *)
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
    goneAtJoin \* history: goneAtJoin[j] is the ids removed before j joined
\* None is read by the protocol except Joinable's "never joined" (which
\* the runtime knows from its id allocation: a spare id is handed out once).

jVars == <<memVars, donorOf, handed, goneAtJoin>>
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

\* The ids that may join: spares that never joined.  MutJoinOldId widens it.
Joinable == {j \in Spare : j \notin members \cup gone /\ donorOf[j] = ""}

\* The members' row for the joiner, and the joiner's rows: the donor's.
JoinKnown(d, j) ==
    IF ~Collecting THEN known
    ELSE [i \in Node |->
            IF i = j THEN [k \in Node |-> IF k = j THEN NoVc ELSE Row(d, k)]
            ELSE IF i \in members THEN [known[i] EXCEPT ![j] = Row(i, d)]
            ELSE known[i]]

\* The join: the donor d hands its state to the spare j, and every member
\* and j install the view members \cup {j}.  No view change runs (the
\* donor has installed the last one, so its prefix holds every agreed
\* event of a removed node).  InstallJoin takes the handed state as
\* arguments (prefix v, log l, store st) so that the mutants change one:
\* Join hands the donor's state of this very step.
InstallJoin(d, j, v, l, st) ==
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
    /\ view' = [i \in Node |-> IF i \in members THEN view[i] \cup {j}
                               ELSE IF i = j THEN view[d] \cup {j}
                               ELSE view[i]]
    /\ donorOf' = [donorOf EXCEPT ![j] = d]
    /\ handed' = [handed EXCEPT ![j] = Range(l)]
    /\ goneAtJoin' = [goneAtJoin EXCEPT ![j] = gone]
    /\ lastAction' = [name |-> "Join", node |-> d, target |-> j]
    /\ UNCHANGED <<net, sent, flushing, reported, report, agreed, gone>>

Join(d, j) == j \in Joinable /\ InstallJoin(d, j, vc[d], dlog[d], store[d])

JoinNext == \E d, j \in Node : Join(d, j)

\* Stability counts the rows of the installed view, the joiner's included
\* (CausalMembership's MStable).  MutJoinGcIgnoresJoiner replaces it.
JCollectGarbage(i) == MCollectGarbage(i)
JGcNext == \E i \in Node : JCollectGarbage(i)

JNext == \/ (PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ ViewNext)
              /\ UNCHANGED <<donorOf, handed, goneAtJoin>>
         \/ JGcNext /\ UNCHANGED <<donorOf, handed, goneAtJoin>>
         \/ JoinNext

JSpec == JoinInit /\ [][JNext]_jvars

-----------------------------------------------------------------------------
(* Properties of the join.  Causal's safety (CausalOrder and             *)
(* NoDuplicateDelivery over the joiner's whole log, the handed part        *)
(* included), CausalMembership's (ExcludedNotDelivered: the old id stays   *)
(* out; MCollectedOnlyIfStable and MRecoverable over views with the        *)
(* joiner), and KnownIsLowerBound (the joiner's initial row) are checked   *)
(* as they stand.                                                          *)

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
=============================================================================
