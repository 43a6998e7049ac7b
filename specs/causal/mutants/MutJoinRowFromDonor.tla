------------------------- MODULE MutJoinRowFromDonor -------------------------
(* Mutant: a member that installs the join late starts its row of the     *)
(* joiner from its row of the donor at the install (what the core's        *)
(* installJoin(j, donor) did before issue 21), not from the handed prefix. *)
(* The donor may have delivered more since the join, and the member knows  *)
(* it: the row then claims events the joiner lacks.                        *)
(* Expected: KnownIsLowerBound.                                            *)
EXTENDS MCCausalJoin

MutInstallJoin(i, j) ==
    /\ up[i]
    /\ i \in members /\ j \in members /\ donorOf[j] \notin {"", i} /\ i # j
    /\ j \notin view[i]
    /\ view' = [view EXCEPT ![i] = @ \cup {j}]
    /\ known' = IF Collecting THEN [known EXCEPT ![i][j] = Row(i, donorOf[j])] ELSE known
    /\ lastAction' = [name |-> "InstallJoin", node |-> i, target |-> j]
    /\ UNCHANGED <<vc, buf, store, missing, up, dlog, net, sent, members, flushing, reported,
                   report, agreed, gone, donorOf, handed, goneAtJoin, joinStart>>

MutNext == \/ JPlainNext
           \/ JGcNext /\ UNCHANGED <<donorOf, handed, goneAtJoin, joinStart>>
           \/ \E d, j \in Node : Join(d, j)
           \/ \E i, j \in Node : MutInstallJoin(i, j)

MutSpec == JoinInit /\ [][MutNext]_jvars
=============================================================================
