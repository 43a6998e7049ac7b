---------------------------- MODULE MCCausalTrace ----------------------------
(* Models that make traces for replay on the Java core (CONVENTIONS.md,    *)
(* section Causal).  MCCausalTraceSim*.cfg: random simulation.  The other  *)
(* cfgs are targeted: their only invariant is a trap NotX == ~X, and TLC's *)
(* shortest (BFS) counterexample is a trace of scenario X, one the paper   *)
(* (or the live extension) argues about.                                   *)
EXTENDS MCCausal



\* Targeted traces: a lost copy, or one a crash cut off, is one its receiver
\* never got (TLC may otherwise lose a copy after it was received, which
\* reads as if it had been missed).  Only narrows the choices of Lose and
\* Crash; TraceNext implies Next.
NeverGot(e) == e.type \in {"data", "resend"} => ~Has(e.to, IdOf(e))
TraceNext ==
    /\ Next
    /\ lastAction'.name = "Lose" => \A e \in net \ net' : NeverGot(e)
    /\ lastAction'.name = "Crash" => \A e \in net \ net' : NeverGot(e)
TraceSpec == Init /\ [][TraceNext]_vars

DataTo(i, d) == \E e \in net : e.type = "data" /\ e.to = i /\ IdOf(e) = d
ResendTo(i, d, k) == \E e \in net : e.type = "resend" /\ e.to = i /\ IdOf(e) = d /\ e.from = k
Remote(i, d) == d.origin # i

\* Simulation only: TLC picks a successor at random, and every envelope in
\* the network offers a Lose, so unchecked walks are mostly losses and
\* heartbeats sent again after them.  Lose only from a full network, and
\* send a heartbeat only when none of the node's is in transit, and receive
\* a duplicate only where it tells something (a recovered copy, or an
\* original next to a recovered copy: Fig. 1's blue and red), so that the
\* walks reach deliveries and recovery.  SimNext implies Next.
SimNext ==
    /\ Next
    /\ lastAction'.name = "Lose" => Cardinality(net) >= 8
    /\ lastAction'.name = "SendHeartbeat" =>
           ~\E e \in net : e.type = "hb" /\ e.from = lastAction'.node
    /\ (lastAction'.name = "Receive" /\ lastAction'.outcome = "duplicate") =>
           \/ lastAction'.type = "resend"
           \/ \E k \in Node : ResendTo(lastAction'.node, IdOf(lastAction'), k)
SimSpec == Init /\ [][SimNext]_vars

\* 5.1, Fig. 1 with the original lost: a node misses d (its data copy was
\* lost), waits, asks d's original node, and delivers the resend.
LossRecoveredFromOrigin ==
    \E i \in Node, d \in AllIds :
        Remote(i, d) /\ Dlv(i, d) /\ ~DataTo(i, d) /\ ResendTo(i, d, d.origin)
NotLossRecoveredFromOrigin == ~LossRecoveredFromOrigin

\* 5.3: the origin crashed after one other node got its message, cutting
\* its broadcast short; a node that missed it receives it from that node
\* (known as a holder from the causal metadata): the recovered copy arrives.
RecoveryFromThirdNode ==
    /\ lastAction.name = "Receive" /\ lastAction.type = "resend"
    /\ lastAction.outcome = "buffered"
    /\ lastAction.from # lastAction.origin
    /\ ~up[lastAction.origin]
NotRecoveryFromThirdNode == ~RecoveryFromThirdNode

\* Fig. 1, blue: the original arrived first, so the recovered copy is a
\* duplicate and is dropped.
RecoveredCopyDuplicate ==
    /\ lastAction.name = "Receive" /\ lastAction.type = "resend"
    /\ lastAction.outcome = "duplicate"
NotRecoveredCopyDuplicate == ~RecoveredCopyDuplicate

\* Fig. 1, red: the recovered copy arrives while the original is still in
\* transit (the original then arrives as a duplicate, if it ever does).
RecoveredBeforeOriginal ==
    /\ lastAction.name = "Receive" /\ lastAction.type = "resend"
    /\ lastAction.outcome = "buffered"
    /\ DataTo(lastAction.node, IdOf(lastAction))
NotRecoveredBeforeOriginal == ~RecoveredBeforeOriginal

\* Live extension: the last message of n1 is lost, nothing depends on it,
\* and a heartbeat reveals it; the node asks and delivers it.
HeartbeatRevealsLostLast ==
    \E i \in Node, d \in AllIds :
        /\ Remote(i, d) /\ Dlv(i, d) /\ ~DataTo(i, d) /\ d.seq = MaxSeq[d.origin]
NotHeartbeatRevealsLostLast == ~HeartbeatRevealsLostLast

\* FIFO mode: the second event arrives, the lost first one is recovered from
\* its origin, and both are delivered in order.
FifoGapRecovered ==
    \E i \in Node, d \in AllIds :
        /\ Remote(i, d) /\ d.seq = 2 /\ Dlv(i, d) /\ ~DataTo(i, [d EXCEPT !.seq = 1])
NotFifoGapRecovered == ~FifoGapRecovered

\* 5.3 live: the retry after RTO goes to the next known holder, not the origin.
RetryToOtherHolder ==
    lastAction.name = "ExpireRto" /\ lastAction.to # lastAction.origin
NotRetryToOtherHolder == ~RetryToOtherHolder

\* Stability-based garbage collection: a node drops an event from its store
\* once the clocks it received (messages, heartbeats) show every node has
\* delivered it.
GarbageCollected == lastAction.name = "CollectGarbage"
NotGarbageCollected == ~GarbageCollected

\* Recovery = "restart" (L240 read literally): a node that gave up on a
\* missing id after its one retry waits for it again when a later message
\* reveals it: an entry waiting while its request is already out.
RetryRestarted ==
    \E i \in Node : \E r \in missing[i] :
        r.phase = "waiting" /\ \E e \in net : e.type = "req" /\ e.from = i /\ IdOf(e) = IdOf(r)
NotRetryRestarted == ~RetryRestarted

\* The buffer bound: a new copy that must wait is refused when the buffer is
\* full (it is recovered later).
BufferRefused == lastAction.name = "Receive" /\ lastAction.outcome = "refused"
NotBufferRefused == ~BufferRefused
=============================================================================
