package dev.onceproof.causal;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The node the runtime's threads share (receiver threads, the timer thread, the application's
 * broadcasts): each step runs on the sequential {@link CausalNode} under one lock, and the events it
 * delivers reach the application in exactly the order the core delivered them, on whichever thread
 * happens to hand them off, without holding the lock while the application runs.
 *
 * <p>Why not simply call the application under the lock: a slow application would stall every
 * receiver. Why not call it after unlocking, from the thread that ran the step: two threads that
 * delivered A and then B (B depending on A) could hand B over first, and the application would see
 * causal order broken although the core kept it ({@code RacyHandOffLincheckTest} shows Lincheck
 * catching exactly that). So deliveries are queued under the lock, in core order, and one thread at
 * a time drains the queue.
 *
 * <p>Checked by Lincheck (model checking and stress) against {@link CausalNode}: every step's result
 * is the result of some sequential order of the steps, and the application's log keeps causal order
 * and has no duplicate in every explored interleaving.
 *
 * <p><b>Mutation seams.</b> {@link #publish} and {@link #handOff} carry the ordering safeguard, so a
 * test can build the racy variant of this class; production code must not override them.
 */
public class ConcurrentCausalNode {

    private final CausalNode core;
    /** Guards the core. */
    private final ReentrantLock lock = new ReentrantLock();
    /** Events the core delivered and the application has not been given yet, in core order. */
    private final ConcurrentLinkedQueue<Event> ready = new ConcurrentLinkedQueue<>();
    /** Held while giving {@link #ready} to the application: one thread at a time, in queue order. */
    private final ReentrantLock handOffLock = new ReentrantLock();
    protected final Consumer<Event> application;

    public ConcurrentCausalNode(CausalNode core, Consumer<Event> application) {
        this.core = Objects.requireNonNull(core, "core");
        this.application = Objects.requireNonNull(application, "application");
    }

    public Step broadcast(Payload payload) {
        return run(() -> core.broadcast(payload));
    }

    public Step handle(CausalMessage m) {
        return run(() -> core.handle(m));
    }

    public Step poll() {
        return run(core::poll);
    }

    public Step refuseMalformed(String detail) {
        return run(() -> core.refuseMalformed(detail));
    }

    public void crash() {
        run(() -> {
            core.crash();
            return Step.of(Outcome.ACCEPTED);
        });
    }

    // The view change (specs/causal/CausalMembership.tla), each step under the lock like the others.

    /**
     * The survivor's report: freezes x and returns its delivered seqs of x in one locked step, so no
     * event of x can be delivered between the two.
     */
    public SeqSet flushReport(NodeId x) {
        lock.lock();
        try {
            Step s = core.flushReport(x);
            if (s.outcome() != Outcome.ACCEPTED) {
                throw new IllegalStateException("flush report on " + x + " refused: " + s.detail());
            }
            return core.deliveredOf(x);
        } finally {
            lock.unlock();
        }
    }

    /**
     * The survivor's report on every node a (maybe restarted) view change removes
     * (CausalMembershipRestart's FlushReport): freezes them and returns its delivered seqs of each in
     * one locked step.
     */
    public java.util.SortedMap<NodeId, SeqSet> flushReport(java.util.Collection<NodeId> xs) {
        lock.lock();
        try {
            Step s = core.flushReport(xs);
            if (s.outcome() != Outcome.ACCEPTED) {
                throw new IllegalStateException("flush report on " + xs + " refused: " + s.detail());
            }
            java.util.TreeMap<NodeId, SeqSet> out = new java.util.TreeMap<>();
            xs.forEach(x -> out.put(x, core.deliveredOf(x)));
            return out;
        } finally {
            lock.unlock();
        }
    }

    /** The decision, then every delivery it releases (agreed events that were held back). */
    public Step decideView(NodeId x, SeqSet seqs) {
        return run(() -> core.decideView(x, seqs).then(core.deliverAll()));
    }

    public Step flushForward(NodeId x, NodeId to, java.util.Collection<Long> seqs) {
        return run(() -> core.flushForward(x, to, seqs));
    }

    public Step installView(NodeId x) {
        return run(() -> core.installView(x));
    }

    public Step installView(java.util.Collection<NodeId> xs) {
        return run(() -> core.installView(xs));
    }

    // The join under a new id (specs/causal/CausalJoin.tla), each step under the lock like the others.

    /** Spec Spare: j is out of the view until it joins. Before any traffic, as on the core. */
    public void spare(NodeId j) {
        lock.lock();
        try {
            core.spare(j);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Spec Join(d, j) at this node, the donor: the snapshot of its state and its install of the view
     * with j in one locked step, so no delivery on another thread falls between the two (a delivery
     * there would count j's row above j's prefix: MutJoinSnapshotEarly).
     */
    public JoinState join(NodeId j) {
        lock.lock();
        try {
            return core.join(j);
        } finally {
            lock.unlock();
        }
    }

    /** Spec InstallJoin(i, j) at this member: j's events, refused until now, are taken from here on. */
    public Step installJoin(NodeId j, NodeId donor, VectorClock start) {
        return run(() -> core.installJoin(j, donor, start));
    }

    /** Spec Join(d, j) at the joiner: this node, of the spare id, starts from the handed state. */
    public void startFrom(JoinState s) {
        lock.lock();
        try {
            core.startFrom(s);
        } finally {
            lock.unlock();
        }
    }

    public java.util.OptionalLong nextDeadline() {
        lock.lock();
        try {
            return core.nextDeadline();
        } finally {
            lock.unlock();
        }
    }

    public Counters counters() {
        lock.lock();
        try {
            return core.counters();
        } finally {
            lock.unlock();
        }
    }

    public CausalState state() {
        lock.lock();
        try {
            return core.state();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Runs one core step. When it returns, the application has been given every event this step
     * delivered (and every event delivered before them): so a caller that sends the step's
     * datagrams afterwards never lets another node see an event this node's application has not.
     */
    private Step run(Supplier<Step> op) {
        Step s;
        lock.lock();
        try {
            s = op.get();
            publish(s.delivered());
        } finally {
            lock.unlock();
        }
        handOff(s.delivered());
        return s;
    }

    /** Under the lock: queue the step's deliveries in core order. Seam (see class comment). */
    protected void publish(List<Event> delivered) {
        ready.addAll(delivered);
    }

    /**
     * After the core lock: give queued events to the application, one thread at a time and in queue
     * order. This step's events were queued before this thread asked for the hand-off lock, so once
     * it has drained the queue under that lock, they have been given (by it or by an earlier
     * holder). A slow application delays other hand-offs, never the core. Seam (see class comment).
     */
    protected void handOff(List<Event> delivered) {
        if (delivered.isEmpty() && ready.isEmpty()) {
            return;
        }
        handOffLock.lock();
        try {
            Event e;
            while ((e = ready.poll()) != null) {
                application.accept(e);
            }
        } finally {
            handOffLock.unlock();
        }
    }
}
