--------------------- MODULE MutJoinSuspectBeforeInstalled ---------------------
(* Mutant: a suspicion starts a view change while a member has not         *)
(* installed the last join yet (no JoinInstalled guard), and that member   *)
(* installs the view without the suspect only, as the core's installView   *)
(* does, so the joiner stays out of its view.  When the suspect is the     *)
(* donor, no member left counts the joiner's row: the member collects an   *)
(* event the joiner lacks, and the donor, which held it for the joiner, is *)
(* removed.  Expected: JCollectedOnlyIfStable.                             *)
EXTENDS MCCausalJoin

\* CausalMembership's InstallView with the view the core installs: i's
\* view without the removed node (not members, which has the joiner).
MutInstallView(i) ==
    /\ up[i]
    /\ Decided
    /\ i \in members
    /\ ~ExcludedAt(i, flushing)
    /\ agreed[flushing] \subseteq SeqsOf(i, flushing)
    /\ view' = [view EXCEPT ![i] = @ \ {flushing}]
    /\ buf' = [buf EXCEPT ![i] = {m \in @ : m.origin # flushing}]
    /\ missing' = [missing EXCEPT ![i] = {r \in @ : r.origin # flushing}]
    /\ IF \A j \in members \ {i} : ExcludedAt(j, flushing)
       THEN flushing' = "" /\ reported' = {} /\ report' = [j \in Node |-> {}]
       ELSE UNCHANGED <<flushing, reported, report>>
    /\ lastAction' = [name |-> "InstallView", node |-> i, target |-> flushing]
    /\ UNCHANGED <<vc, store, up, dlog, known, net, sent, members, agreed, gone>>

MutViewNext == \/ \E i, x \in Node : Suspect(i, x)
               \/ \E i \in Node : FlushReport(i) \/ MutInstallView(i)
               \/ DecideView
               \/ \E i, j \in Node : FlushForward(j, i)

MutNext == \/ (PlainNext \/ MReceiveNext \/ MDeliverNext \/ MHbNext \/ MutViewNext)
              /\ UNCHANGED <<donorOf, handed, goneAtJoin, joinStart>>
           \/ JGcNext /\ UNCHANGED <<donorOf, handed, goneAtJoin, joinStart>>
           \/ JoinNext

MutSpec == JoinInit /\ [][MutNext]_jvars
=============================================================================
