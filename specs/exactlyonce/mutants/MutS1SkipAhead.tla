---------------------------- MODULE MutS1SkipAhead ----------------------------
(* NEGATIVE CONTROL (notes M1-c): the client accepts x.n when n > R[x]     *)
(* (skipping ahead) instead of only n = R[x] + 1 (A.2, L77).  The notes    *)
(* expected earlier notes to be discarded forever.  They are not, in this  *)
(* spec: a server sends x.(n+1) only after x.n left its K, which needs an  *)
(* ack of x.n, which the client sends only once it has received x.n and so *)
(* holds R[x] >= n (in-order sending with A.1's {abort;} and atomic       *)
(* replication, Z1).  So no gap ever reaches the client and n > R[x] means *)
(* n = R[x] + 1: the mutant has the unmodified spec's behaviours.  The    *)
(* strict test is a second line of defence against M1-d and M1-e (continue *)
(* instead of abort, asynchronous replication), not the first.             *)
(* Two models: MutS1SkipAhead.cfg (the S1 ci safety bounds) and            *)
(* MutS1SkipAheadLive.cfg (the S1 ci liveness bounds) must PASS, with the  *)
(* unmodified models' state counts; NeverSkips holds in both, i.e. the     *)
(* mutated branch (a gap accepted) is never taken.                         *)
EXTENDS MCExactlyOnceS1

\* The one change (ExactlyOnceS1: Expected(i) == i.seq = R[i.server] + 1).
SkipExpected(i) == i.seq > R[i.server]

MutReceiveNote(m) ==
    /\ m \in net
    /\ m.type = "note"
    /\ conn # None
    /\ MayReceive
    /\ LET i == m.note IN
         /\ net' = Consume(m) \cup {AckMsg(m.from, i)}
         /\ IF SkipExpected(i)
            THEN /\ R' = [R EXCEPT ![i.server] = i.seq]
                 /\ delivered' = Append(delivered, i)
            ELSE UNCHANGED <<R, delivered>>
         /\ lastAction' = [name |-> "ReceiveNote", server |-> m.from, note |-> i,
                           verdict |-> IF ~SkipExpected(i) THEN "discarded"
                                       ELSE IF Expected(i) THEN "accepted" ELSE "skipped"]
    /\ UNCHANGED <<conn, created, faults, ctr, K, sess>>

MutReceiveNoteNext == \E m \in net : MutReceiveNote(m)

MutNext ==
    \/ CreateNext
    \/ ConnectNext
    \/ \E s \in Servers :
         \/ StartSession(s) \/ SendNext(s) \/ Timeout(s) \/ ServerCrash(s)
         \/ \E t \in Servers : Sync(s, t)
    \/ MutReceiveNoteNext
    \/ ReceiveAckNext
    \/ ClientFaultNext

MutSpec == Init /\ [][MutNext]_vars

\* ExactlyOnceS1's Fairness with the mutated receipt.
MutFairSpec ==
    /\ MutSpec
    /\ WF_vars(ConnectNext)
    /\ \A s \in Servers : WF_vars(StartSession(s)) /\ WF_vars(SendNext(s)) /\ WF_vars(Timeout(s))
    /\ WF_vars(MutReceiveNoteNext)
    /\ WF_vars(ReceiveAckNext)
    /\ \A s, t \in Servers : WF_vars(Sync(s, t))

\* The mutated branch is never taken: no note beyond R[x] + 1 is accepted.
NeverSkips == lastAction.name = "ReceiveNote" => lastAction.verdict # "skipped"
=============================================================================
