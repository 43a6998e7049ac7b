package dev.onceproof.exactlyonce;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one concurrent wrapper of an exactly-once server core for one client (issue 19 item 4): the
 * core's state is shared by the client's session thread and the threads that handle what other
 * servers send and run this server's syncs. Every step of the step interface {@link EoServer}
 * runs the sequential core under one lock, which is the step's linearization point (Strategy 3's
 * core writes its step-log line inside the step, so there, before anything is saved or sent).
 * The step's durable record is appended to the journal under the lock (so the journal's order is
 * the core's) and committed after the lock is released, before the step is handed back for its
 * sends (ordering rule of {@link ServerStep}). No lock is held across that fsync: other steps run
 * meanwhile, and one fsync commits every step appended so far (group commit). A step commits
 * everything appended up to its own record, or up to the last record when it has none (a reply
 * may carry earlier steps' changes).
 *
 * <p>What differs between strategies comes in through the hooks a subclass supplies:
 * <ul>
 *   <li><b>the journal</b>: the strategy's {@link Store}, and {@link #append}, which appends a
 *       step's records of the strategy's type to it;
 *   <li><b>the hand-off</b> ({@link #deliverNext}, {@link #authorize}): how a chosen note reaches the
 *       client. Strategy 3 hands a Deliver or a "Please purge" to the session's channel inside the
 *       critical section that chose it ({@link #handingOver}); Strategies 4-6 call aDeliver outside
 *       the lock, after the attempt's record is durable, and record the outcome
 *       ({@link #recordingOutcome}), which wakes deferred steps;
 *   <li><b>the deferral</b> ({@link #deferrable}): a step the core answers "deferred" (Strategies
 *       4-6: a D reply or a sync while an aDeliver outcome is unknown) waits on the lock until an
 *       outcome is recorded and runs again. The hooks {@link #replyAtOnce} and {@link #syncAtOnce}
 *       say what the {@link Deferral#ANSWER_AT_ONCE} control sends instead.
 * </ul>
 *
 * <p>The lock is a monitor rather than a ReentrantLock with a Condition: Lincheck 2.39's model
 * checking hung on Condition.await in the Strategy 4-6 wrapper.
 *
 * @param <C> the core
 * @param <S> the core's durable state, which a checkpoint saves
 */
public abstract class ConcurrentServer<C extends EoServer, S extends DurableState> implements EoServer {

    /**
     * The session's ordered channel to the client (a connection's send queue). Called under the
     * server's lock, so it must only enqueue, never block on the network.
     */
    @FunctionalInterface
    public interface ClientChannel {
        void send(EoMessage message);
    }

    /**
     * Mutation seam: where a chosen note or purge request is handed to the client.
     * {@link #UNDER_LOCK} is the safeguard (inside the critical section that chose it).
     * {@link #AFTER_UNLOCK} moves the hand-over one line later, just after the lock is released:
     * the choice {@code i in K - D} is still made atomically, but a sync that learns of i's delivery
     * elsewhere and a purge of i can complete before the note reaches the client, which no longer
     * remembers i and processes it again. Only for the Lincheck control; never use it for real.
     */
    public enum Handoff {
        UNDER_LOCK,
        AFTER_UNLOCK
    }

    /**
     * Mutation seam: what a step the core defers does. {@link #WAIT} is the safeguard (wait for an
     * aDeliver outcome, then run again). {@link #ANSWER_AT_ONCE} sends the {@link #replyAtOnce} /
     * {@link #syncAtOnce} answer instead, as a runtime that took "deferred" for "nothing to wait
     * for" would: for Strategies 4-6 the D (and, for a sync, the K) of that moment with the clock
     * now, so a peer's gather, or a peer judging our sync fresh (Strategies 5 and 6), misses the
     * note the client may be processing. Lincheck control only.
     */
    public enum Deferral {
        WAIT,
        ANSWER_AT_ONCE
    }

    /**
     * What the wrapper needs of a journal store besides appending a record of the strategy's type
     * ({@link #append}): {@link #lastSeq} and {@link #claimCheckpoint} run under the core's lock and
     * never wait for the disk; {@link #commit} and {@link #checkpoint} run outside it (the
     * hand-off's commit excepted). {@link dev.onceproof.exactlyonce.store.ServerStore} and
     * {@link dev.onceproof.exactlyonce.store.GatherServerStore} are ones.
     */
    public interface Store<S> {
        /** The sequence number of the last record appended (durable or not). */
        long lastSeq();

        /** Returns once every record up to {@code seq} is durable (one fsync covers a batch). */
        void commit(long seq);

        /** Whether to checkpoint the core's state after record {@code seq} now (a claim; see the store). */
        boolean claimCheckpoint(long seq);

        /** Writes the checkpoint claimed through {@code seq}, which is committed already. */
        void checkpoint(S state, long seq);
    }

    /** The monitor every step runs under; notified whenever an aDeliver outcome is recorded. */
    private final Object lock = new Object();
    protected final C core;
    private final Store<S> store;
    private final Handoff handoff;
    private final Deferral deferral;
    /**
     * Mutation seam, tests only: false hands the client its message before the commit (the commit
     * then comes after the lock, as for every other step), so a note can reach the client while
     * the state it was chosen from is not yet durable.
     */
    private boolean commitBeforeHandoff = true;

    /**
     * What a runtime that keeps a step log does at each step's linearization point (issue 21): called
     * under the lock with the step the core took, before its record is appended, so before the step
     * is durable and before anything it sends leaves (a SIGKILL can then leave a line whose step was
     * not committed, never a committed step without its line). Not called for a step the core
     * defers until it runs.
     */
    @FunctionalInterface
    public interface StepHook {
        void took(ServerStep step);
    }

    private StepHook hook;

    protected ConcurrentServer(C core, Store<S> store, Handoff handoff, Deferral deferral) {
        this.core = Objects.requireNonNull(core, "core");
        this.store = Objects.requireNonNull(store, "store");
        this.handoff = Objects.requireNonNull(handoff, "handoff");
        this.deferral = Objects.requireNonNull(deferral, "deferral");
    }

    /** Calls {@code hook} under the lock at every step from now on (null: none); see {@link StepHook}. */
    public final void onStep(StepHook hook) {
        synchronized (lock) {
            this.hook = hook;
        }
    }

    /** The seam above. */
    final void handoffBeforeCommit() {
        this.commitBeforeHandoff = false;
    }

    // ---- the hooks ---------------------------------------------------------------------------

    // The hand-off hooks are EoServer's deliverNext and authorize, which each subclass implements:
    // how a note it chose (or a purge it authorized) reaches the client.

    /** The core's durable state now (under the lock): what a checkpoint saves. */
    protected abstract S state();

    /**
     * Under the lock, never waiting for the disk: appends the step's record (or records) to the
     * store and returns the sequence number its effects must see durable: the last appended,
     * which for a step without a record ({@link Store#lastSeq}) covers what earlier steps changed.
     */
    protected abstract long append(ServerStep step);

    /** The {@link Deferral#ANSWER_AT_ONCE} control's answer to a deferred message {@code m}. */
    protected ServerStep replyAtOnce(EoMessage m) {
        throw new IllegalStateException(core.strategy() + "'s server defers no message");
    }

    /** The {@link Deferral#ANSWER_AT_ONCE} control's answer to a deferred {@link #sync}. */
    protected ServerStep syncAtOnce() {
        throw new IllegalStateException(core.strategy() + "'s server defers no sync");
    }

    // ---- the step interface (EoServer), each step under the lock --------------------------------

    @Override
    public Strategy strategy() {
        return core.strategy();
    }

    @Override
    public ServerStep createNote(Optional<NoteId> id, String body) {
        return locked(() -> core.createNote(id, body));
    }

    /**
     * A message, as the core routes it, under the lock; one the core defers (Strategies 4-6: a
     * request for D) waits like {@link #deferrable}. An interrupted wait sends nothing: outcome
     * "interrupted", the thread's interrupt flag set again.
     */
    @Override
    public ServerStep receive(EoMessage m) {
        return uninterrupted(() -> deferrable(() -> core.receive(m), () -> replyAtOnce(m)));
    }

    @Override
    public ServerStep startSession() {
        return locked(core::startSession);
    }

    @Override
    public ServerStep timeout() {
        return locked(core::timeout);
    }

    @Override
    public ServerStep endSession() {
        return locked(core::endSession);
    }

    /**
     * The core's sync (Strategies 0-3 a round, 4 to every peer, 5 its periodic and 6 its push
     * sync), which the core may defer; interrupted as {@link #receive}.
     */
    @Override
    public ServerStep sync() {
        return uninterrupted(() -> deferrable(core::sync, this::syncAtOnce));
    }

    /** Records the outcome and wakes the steps deferred while it was unknown. */
    @Override
    public ServerStep aDeliverOk(long session, NoteId i) {
        return recordingOutcome(() -> core.aDeliverOk(session, i));
    }

    /** As {@link #aDeliverOk}. */
    @Override
    public ServerStep aDeliverErr(long session, NoteId i) {
        return recordingOutcome(() -> core.aDeliverErr(session, i));
    }

    /**
     * {@code ServerCrash(s)} for a runtime that keeps this object: the volatile state is lost, the
     * durable state is not (an aDeliver attempt in progress stays unresolved until its outcome is
     * reported).
     */
    @Override
    public void crash() {
        synchronized (lock) {
            core.crash();
        }
    }

    @Override
    public Optional<NoteId> pending() {
        return observe(core::pending);
    }

    @Override
    public S durable() {
        return observe(this::state);
    }

    // ---- the one path of a step --------------------------------------------------------------

    /** Reads the core under the lock. */
    protected final <T> T observe(Supplier<T> read) {
        synchronized (lock) {
            return read.get();
        }
    }

    /** One core step under the lock, its record appended there and committed after it. */
    protected final ServerStep locked(Supplier<ServerStep> step) {
        return handingOver(step, null);
    }

    /**
     * As {@link #locked}, and the step's messages for the client (a Deliver, a "Please purge") handed
     * to {@code client} in the same critical section (race R3, notes Z5: choosing a note and handing
     * it over are one critical section, so a purge can never slip between them, and the client sees
     * notes and purge requests in the order the server decided them). {@code client} null: none.
     */
    protected final ServerStep handingOver(Supplier<ServerStep> step, ClientChannel client) {
        ServerStep done;
        Appended appended;
        synchronized (lock) {
            done = step.get();
            appended = journal(done, false);
            if (handoff == Handoff.UNDER_LOCK && client != null && forClient(done)) {
                // The one commit under the lock, for a protocol reason: the message must not leave
                // before the state it reflects (K, D, the round, which earlier steps may have
                // appended and not yet committed) is durable, and it must leave inside this
                // critical section. Only the session's Deliver and "Please purge" wait here.
                if (commitBeforeHandoff) {
                    store.commit(appended.seq);
                }
                handToClient(done, client);
            }
        }
        appended.complete();
        if (handoff == Handoff.AFTER_UNLOCK && client != null) {
            handToClient(done, client);
        }
        return done;
    }

    /** As {@link #locked}, for a step that records an aDeliver outcome: wakes the deferred steps. */
    protected final ServerStep recordingOutcome(Supplier<ServerStep> step) {
        Appended appended;
        synchronized (lock) {
            appended = journal(step.get(), true);
        }
        return appended.complete();
    }

    /**
     * Runs {@code step}; while the core defers it, waits for an aDeliver outcome and runs it again,
     * which bounds the wait by the primitive's timeout (L199); after a crash it lasts until the
     * runtime reports the unresolved outcomes from the primitive's log (L193). The
     * {@link Deferral#ANSWER_AT_ONCE} control sends {@code atOnce} instead of waiting.
     */
    protected final ServerStep deferrable(Supplier<ServerStep> step, Supplier<ServerStep> atOnce)
            throws InterruptedException {
        Appended appended;
        synchronized (lock) {
            ServerStep done = step.get();
            if (deferred(done) && deferral == Deferral.ANSWER_AT_ONCE) {
                done = atOnce.get();
            }
            while (deferred(done)) {
                lock.wait();
                done = step.get();
            }
            appended = journal(done, false);
        }
        return appended.complete();
    }

    /** A step that may wait on the lock. */
    private interface Waiting {
        ServerStep run() throws InterruptedException;
    }

    /** {@code step}, or outcome "interrupted" (nothing sent, the interrupt flag set again). */
    private static ServerStep uninterrupted(Waiting step) {
        try {
            return step.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ServerStep.of("interrupted");
        }
    }

    private static boolean deferred(ServerStep step) {
        return step.outcome().equals("deferred");
    }

    /**
     * Under the lock: appends the step's record and, when a checkpoint is due, takes the core's
     * state consistent with that record (a copy, paid once per checkpoint, which comes only after
     * the journal outgrew the last one); {@code signal} wakes the deferred steps.
     */
    private Appended journal(ServerStep step, boolean signal) {
        if (hook != null) {
            hook.took(step);
        }
        long seq = append(step);
        S checkpoint = store.claimCheckpoint(seq) ? state() : null;
        if (signal) {
            lock.notifyAll();
        }
        return new Appended(step, seq, checkpoint);
    }

    /**
     * A step whose record is appended: {@link #complete} makes it (and every record before it)
     * durable, writes a checkpoint if one was claimed, and only then hands the step back, so the
     * caller carries out its sends (and an aDeliver call) after the record is durable.
     */
    private final class Appended {
        private final ServerStep step;
        private final long seq;
        private final S checkpoint;

        Appended(ServerStep step, long seq, S checkpoint) {
            this.step = step;
            this.seq = seq;
            this.checkpoint = checkpoint;
        }

        ServerStep complete() {
            store.commit(seq);
            if (checkpoint != null) {
                store.checkpoint(checkpoint, seq);
            }
            return step;
        }
    }

    private static boolean forClient(ServerStep step) {
        for (ServerEffect effect : step.effects()) {
            if (effect instanceof ServerEffect.Send s && forClient(s.message())) {
                return true;
            }
        }
        return false;
    }

    private static boolean forClient(EoMessage m) {
        return m instanceof EoMessage.NoteDelivery || m instanceof EoMessage.PurgeRequest;
    }

    private static void handToClient(ServerStep step, ClientChannel client) {
        for (ServerEffect effect : step.effects()) {
            if (effect instanceof ServerEffect.Send s && forClient(s.message())) {
                client.send(s.message());
            }
        }
    }
}
