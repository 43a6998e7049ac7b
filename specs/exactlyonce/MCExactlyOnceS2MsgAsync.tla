---------------------- MODULE MCExactlyOnceS2MsgAsync ----------------------
(* Bounded models of ExactlyOnceS2MsgAsync (Strategy 2 with the cores'     *)
(* asynchronous replication); the cfg files set the bounds and Settle.     *)
EXTENDS ExactlyOnceS2MsgAsync

\* Reachability for the fixed models: no origin passes Condition 1 for the
\* first time (its successor number is never used).  Must fail: the fix
\* delays confirmations, it must not stop them (a vacuous pass otherwise).
NeverWraps == \A x \in Origins : ctr[x] < W

\* With duplication the state space is unbounded: a received replica stays
\* on the way, and a copy taken after its note was delivered and acked at
\* that server enters its K again (acceptReplica takes a wire id it does
\* not hold; S2Server likewise), one more entry (seen) each time, and a
\* duplicated ack removes it again (TLC: TypeOK's seen <= MaxNotes fails in
\* 11 steps).  The models with AllowDup explore one such re-entry per server.
DupBound == \A s \in Servers : seen[s] <= MaxNotes + 1

\* Reachability for the models with duplication (AllowDup: a received
\* replica stays on the way until a LoseReplica, its expiry, takes it): no
\* peer ever confirms an issued number gone.  Must fail, or the
\* confirmation properties would hold only because nothing settles.
NeverConfirmsIssued ==
    \A x \in Origins : \A t \in Servers \ {x} : \A k \in conf[x][t] : issued[x][k] = Never
\* The ci scope of the lost replica (ExactlyOnceS2MsgAsync, Tagged): the one
\* fault is a lost replica, the client stays with the origin, and the other
\* servers start one sync each (they only hold notes; what is checked is
\* what they drop).  TLC's counterexample of
\* exactlyonce-s2msg-async-settle-forgets lies in it.
LostReplicaScope ==
    /\ conn \in {None} \cup Origins
    /\ \A s \in Servers \ Origins : round[s] <= 1
    /\ lastAction.name \notin {"ServerCrash", "ClientCrash", "Lose", "LoseSync", "Disconnect", "Timeout"}
=============================================================================
