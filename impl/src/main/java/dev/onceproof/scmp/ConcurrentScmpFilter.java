package dev.onceproof.scmp;

import dev.onceproof.steplog.StepLog;
import dev.onceproof.storage.StableStorage;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;

/**
 * The thread-safe SCMP filter for a multi-threaded server: worker threads call {@link #receive}
 * concurrently with a background garbage collector ({@link #collectGarbage()}) and latest writer
 * ({@link #writeLatest()}). Same verdicts as the sequential {@link ScmpServer}; conformance's Lincheck
 * suite checks it is linearizable against it.
 *
 * <p>Why it is safe: each connection's decision runs inside {@link ConcurrentHashMap#compute}, so two
 * copies of one message on one connection are judged one after the other. Garbage collection raises
 * upper <em>inside</em> the same per-key atomic section that removes the entry, so a concurrent
 * receive on that connection sees either the entry or the raised upper, never neither (the 2.3
 * argument: "when it was discarded, G.upper was adjusted such that m.ts <= G.upper"). Upper is an
 * atomic maximum; latest only rises and is durable before it is raised.
 *
 * <p>A crash is the death of the process: build a new filter with {@link #restart}. Each
 * single-entry collection is atomic; a full pass is a sequence of them, not one atomic step.
 * {@link #writeLatest} reads the clock before its durable write and publishes latest after it, so
 * with a clock moving meanwhile it is not linearizable against the core's atomic WriteLatest; that
 * is safe, since a stale reading only publishes a smaller latest (more messages too early, never
 * one accepted above stable storage). Lincheck therefore checks receive, collection and the clock.
 * Estimator calls are serialized by locking the estimator, since estimators need not be thread-safe.
 *
 * <p><b>Mutation seams.</b> {@link Reordering} names orderings this argument forbids; a filter that
 * commits one can be built only from this package (a package-private constructor), so that
 * conformance's Lincheck suite can show it catches each of them in this class, not in a copy.
 * Production code always gets {@link Reordering#NONE}.
 *
 * <p><b>Step log.</b> Given a {@link StepLog} that is on, every spec step (Receive, CollectGarbage,
 * WriteLatest, Recover, FinishRecovery) is logged at its linearization point: the per-key section of
 * a receive or a collection holds the log's monitor from its first read of shared state to its
 * line, so the order of the lines is an order the steps could have taken effect in (a receive that
 * read upper before a collection raised it is logged before that collection). Logging thus
 * serializes the steps; {@link StepLog#OFF} takes no lock and writes nothing.
 */
public final class ConcurrentScmpFilter {

    private final ScmpConfig config;
    private final InstantSource clock;
    private final StableStorage storage;

    /** conn -> timestamp of the last accepted message; an entry only ever moves up or disappears. */
    private final ConcurrentHashMap<ConnId, Long> ct = new ConcurrentHashMap<>();
    /** class name -> the class's upper and estimator, so a message looks its class up once. */
    private final Map<String, RhoClass> classes;
    /** Resilient: no accepted timestamp exceeds it; raised only after stable storage holds it. */
    private volatile long latest;
    /** What this filter last wrote to or read from stable storage; guarded by writeLock. */
    private long stableLatest;
    /** Monotonic: refuse everything while recovering; cleared only after upper is re-established. */
    private volatile boolean recovering;
    private final long refuseUntil;
    private final Object writeLock = new Object();
    private final Reordering reordering;
    private final StepLog log;
    /** Where Receive and CollectGarbage are logged: OFF inside a layer that logs its own steps (RPC). */
    private final StepLog ownLog;

    /**
     * Orderings the safety argument above forbids, each a one-line change a maintainer could make;
     * for tests only (package-private), to show the Lincheck suite catches each in the real class.
     */
    enum Reordering {
        NONE,
        /** finishRecovery clears recovering before raising upper (the issue 13 item 4 finding). */
        RECOVERING_CLEARED_BEFORE_UPPER,
        /** Garbage collection raises upper after the section that removed the entry. */
        UPPER_RAISED_AFTER_REMOVAL,
        /** writeLatest publishes latest before stable storage holds it. */
        LATEST_PUBLISHED_BEFORE_DURABLE,
        /** receive reads the entry and upper, then writes the entry, outside the per-key section. */
        RECEIVE_CHECKS_THEN_ACTS
    }

    /** A freshly created server (spec Init). */
    public ConcurrentScmpFilter(ScmpConfig config, InstantSource clock, StableStorage storage) {
        this(config, clock, storage, false, Reordering.NONE, StepLog.OFF);
    }

    /** A freshly created server (spec Init) that logs its steps to {@code log}. */
    public ConcurrentScmpFilter(ScmpConfig config, InstantSource clock, StableStorage storage, StepLog log) {
        this(config, clock, storage, false, Reordering.NONE, log);
    }

    ConcurrentScmpFilter(ScmpConfig config, InstantSource clock, StableStorage storage, boolean restart,
                         Reordering reordering) {
        this(config, clock, storage, restart, reordering, StepLog.OFF);
    }

    /** A filter that commits one forbidden reordering: mutation seam, for tests only. */
    ConcurrentScmpFilter(ScmpConfig config, InstantSource clock, StableStorage storage, boolean restart,
                         Reordering reordering, StepLog log) {
        this(config, clock, storage, restart, reordering, log, log);
    }

    private ConcurrentScmpFilter(ScmpConfig config, InstantSource clock, StableStorage storage, boolean restart,
                                 Reordering reordering, StepLog log, StepLog ownLog) {
        this.log = Objects.requireNonNull(log, "log");
        this.ownLog = Objects.requireNonNull(ownLog, "ownLog");
        this.reordering = Objects.requireNonNull(reordering, "reordering");
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.storage = Objects.requireNonNull(storage, "storage");
        long now = clock.millis();
        Map<String, RhoClass> byName = new LinkedHashMap<>();
        config.rhoClasses().forEach((k, estimator) ->
                byName.put(k, new RhoClass(k, Math.min(0, now - estimator.current()), estimator)));
        this.classes = Map.copyOf(byName);
        OptionalLong stored = config.scheme() == RecoveryScheme.RESILIENT ? storage.read() : OptionalLong.empty();
        long until = 0;
        switch (config.scheme()) {
            case RESILIENT -> {
                if (restart) {
                    // Fig. 2-2 Crash Recovery: upper := stored latest, then a new latest, durable first.
                    long s = stored.orElseThrow(() -> new IllegalStateException("stable storage holds no"
                            + " latest; a resilient server cannot recover without it (paper 2.3)"));
                    classes.values().forEach(c -> c.upper.set(s));
                    stableLatest = s;
                    long target = now + config.beta();
                    if (target > s) {
                        storage.write(target);
                        stableLatest = target;
                    }
                } else {
                    if (stored.isPresent()) {
                        throw new IllegalStateException("stable storage already holds latest " + stored.getAsLong()
                                + ": a server that ran before must start with ConcurrentScmpFilter.restart");
                    }
                    stableLatest = now + config.beta();
                    storage.write(stableLatest);
                }
                latest = stableLatest;
            }
            case MONOTONIC -> {
                if (restart) {
                    until = now + config.epsilon();
                    recovering = true;
                }
            }
            case NON_RESILIENT -> {
                // Fig. 2-1: a restart is a new server; nothing is promised about earlier messages.
            }
        }
        this.refuseUntil = until;
        if (log.on()) {
            if (restart) {
                logRecover(now);
            } else {
                // Spec Init at this clock reading: a run's logs measure time from it.
                synchronized (log) {
                    log.step("Init").field("clock", now).end();
                }
            }
        }
    }

    /** Spec Recover: the previous incarnation's Crash is logged by whoever saw it die. */
    private void logRecover(long now) {
        synchronized (log) {
            log.step("Recover").field("clock", now);
            if (config.scheme() == RecoveryScheme.RESILIENT) {
                log.longs("upper", uppers()).field("latest", latest).field("stableLatest", stableLatest);
            } else if (config.scheme() == RecoveryScheme.MONOTONIC) {
                log.field("refuseUntil", refuseUntil).field("recovering", true);
            }
            log.end();
        }
    }

    private Map<String, Long> uppers() {
        Map<String, Long> bounds = new HashMap<>();
        classes.forEach((k, c) -> bounds.put(k, c.upper.get()));
        return bounds;
    }

    /** A server process that ran before: recovers at once (Fig. 2-2, or the monotonic quiet period). */
    public static ConcurrentScmpFilter restart(ScmpConfig config, InstantSource clock, StableStorage storage) {
        return new ConcurrentScmpFilter(config, clock, storage, true, Reordering.NONE);
    }

    /**
     * A filter inside a layer that logs its own steps (RPC's ReceiveCall and CollectGarbage, which
     * call this filter inside their sections under the log's monitor): logs only the steps that
     * layer takes from SCMP as they are, Recover, WriteLatest and FinishRecovery.
     */
    public static ConcurrentScmpFilter embedded(ScmpConfig config, InstantSource clock, StableStorage storage,
                                                boolean restart, StepLog log) {
        return new ConcurrentScmpFilter(config, clock, storage, restart, Reordering.NONE, log, StepLog.OFF);
    }

    /** As {@link #restart(ScmpConfig, InstantSource, StableStorage)}, logging to {@code log} (from Recover on). */
    public static ConcurrentScmpFilter restart(ScmpConfig config, InstantSource clock, StableStorage storage,
                                               StepLog log) {
        return new ConcurrentScmpFilter(config, clock, storage, true, Reordering.NONE, log);
    }

    /**
     * One rho class (end of 2.4: "maintain a different G.upper for each"). Immutable but for upper.
     * A final class, not a record: Lincheck walks it (see {@link Timestamp}).
     */
    private static final class RhoClass {
        final String name;
        /** Bound on every removed timestamp of the class; raised before the entry is removed. */
        final AtomicLong upper;
        /** Not thread-safe: every call holds its lock. */
        final LifetimeEstimator estimator;
        /** Whether receive must tell the estimator about each message (false for a constant rho). */
        final boolean observed;

        RhoClass(String name, long upper, LifetimeEstimator estimator) {
            this.name = name;
            this.upper = new AtomicLong(upper);
            this.estimator = estimator;
            this.observed = estimator.observesMessages();
        }
    }

    /**
     * The per-key section of one {@link #receive} and what it decided, in one object: the remapping
     * function handed to {@code ct.compute} is also the holder of its result, so a message costs one
     * allocation here rather than a capturing lambda and a holder. Confined to the calling thread.
     */
    private final class Decision implements BiFunction<ConnId, Long, Long> {
        private final long t;
        private final AtomicLong classUpper;
        /** Whether the verdict or the estimator needs the clock; a clock read costs as much as a step. */
        private final boolean readClock;
        Verdict verdict;
        boolean summaryRejected;
        long now;

        Decision(long t, RhoClass rhoClass) {
            this.t = t;
            this.classUpper = rhoClass.upper;
            this.readClock = rhoClass.observed || config.scheme() == RecoveryScheme.MONOTONIC;
        }

        @Override
        public Long apply(ConnId conn, Long entry) {
            StepLog log = ownLog;
            if (!log.on()) {
                return decide(entry);
            }
            synchronized (log) {
                Long result = decide(entry);
                log.step("Receive").field("conn", conn.value()).field("ts", t).field("verdict", verdict.specName());
                if (verdict == Verdict.ACCEPTED) {
                    log.field("ct", conn.value(), t);
                }
                if (now != Long.MIN_VALUE) {
                    log.field("clock", now);
                }
                log.end();
                return result;
            }
        }

        private Long decide(Long entry) {
            // Everything the verdict depends on is read inside the per-key section, which is
            // therefore the linearization point.
            // Resilient and non-resilient verdicts depend on latest and ct only (Fig. 2-1, 2-2).
            now = readClock ? clock.millis() : Long.MIN_VALUE;
            if (recovering) {
                verdict = Verdict.RECOVERING;
                return entry;
            }
            if (isTooEarly(t, now)) {
                verdict = Verdict.TOO_EARLY;
                return entry;
            }
            long bound = entry != null ? entry : classUpper.get();
            if (t > bound) {
                verdict = Verdict.ACCEPTED;
                return t;
            }
            verdict = Verdict.DUPLICATE;
            summaryRejected = entry == null;
            return entry;
        }
    }

    public Verdict receive(ConnId conn, Timestamp ts) {
        RhoClass rhoClass = classOf(conn);
        long t = ts.value();
        Decision d = new Decision(t, rhoClass);
        if (reordering == Reordering.RECEIVE_CHECKS_THEN_ACTS) {
            Long decided = d.apply(conn, ct.get(conn));
            if (decided != null) {
                ct.put(conn, decided);
            }
        } else {
            ct.compute(conn, d);
        }
        if (rhoClass.observed) {
            synchronized (rhoClass.estimator) {
                rhoClass.estimator.onMessage(d.now - t, d.verdict, d.summaryRejected);
            }
        }
        return d.verdict;
    }

    private boolean isTooEarly(long ts, long now) {
        return switch (config.scheme()) {
            case RESILIENT -> ts > latest;
            case MONOTONIC -> ts > now + config.epsilon();
            case NON_RESILIENT -> false;
        };
    }

    /** Spec CollectGarbage(c): removes c's entry if ts <= clock - rho of its class. */
    public boolean collectGarbage(ConnId conn) {
        RhoClass rhoClass = classOf(conn);
        return collectIfOld(conn, rhoClass, rhoOf(rhoClass));
    }

    /**
     * The current rho of conn's class, read under the estimator's lock (estimators need not be
     * thread-safe). For a layer above that keeps entries at least as long as SCMP (the RPC server's
     * rho' = max(rho, kappa), paper 3.1); the value may be stale by the time it is used, which such a
     * layer must tolerate, as this filter's own collection re-reads it.
     */
    public long rhoOf(ConnId conn) {
        return rhoOf(classOf(conn));
    }

    private static long rhoOf(RhoClass rhoClass) {
        synchronized (rhoClass.estimator) {
            return rhoClass.estimator.current();
        }
    }

    /**
     * Spec {@code upper} of conn's class: every timestamp of the class removed from the connection
     * table is at or below it. For a read-only judgement above SCMP (the RPC server's truncated CALL,
     * which must not create an entry). Upper only rises; read inside the caller's section for conn
     * that also calls {@link #receive} and {@link #collectGarbage(ConnId)}, it is exact for conn,
     * since the removal of conn's entry and the raise of upper happen in one section here.
     */
    public long upperOf(ConnId conn) {
        return classOf(conn).upper.get();
    }

    /** The name of conn's rho class (end of 2.4), as the step log and the spec's ClassOf name it. */
    public String rhoClassOf(ConnId conn) {
        return classOf(conn).name;
    }

    /** Every eligible entry; one estimate per class for the pass. Returns how many were removed. */
    public int collectGarbage() {
        Map<String, Long> rho = new HashMap<>();
        config.rhoClasses().forEach((k, estimator) -> {
            synchronized (estimator) {
                rho.put(k, estimator.beginGarbageCollection());
            }
        });
        int removed = 0;
        for (ConnId conn : ct.keySet()) {
            RhoClass rhoClass = classOf(conn);
            if (collectIfOld(conn, rhoClass, rho.get(rhoClass.name))) {
                removed++;
            }
        }
        return removed;
    }

    private boolean collectIfOld(ConnId conn, RhoClass rhoClass, long rho) {
        AtomicLong classUpper = rhoClass.upper;
        long[] removed = {Long.MIN_VALUE};
        boolean raiseInside = reordering != Reordering.UPPER_RAISED_AFTER_REMOVAL;
        StepLog log = ownLog;
        ct.computeIfPresent(conn, (c, ts) -> {
            if (!log.on()) {
                return collectEntry(ts, clock.millis(), rho, classUpper, raiseInside, removed);
            }
            synchronized (log) {
                long now = clock.millis();
                Long kept = collectEntry(ts, now, rho, classUpper, raiseInside, removed);
                if (kept == null) {
                    log.step("CollectGarbage").field("conn", c.value()).field("clock", now)
                            .field("upper", rhoClass.name, classUpper.get()).end();
                }
                return kept;
            }
        });
        if (!raiseInside && removed[0] != Long.MIN_VALUE) {
            classUpper.accumulateAndGet(removed[0], Math::max);
        }
        return removed[0] != Long.MIN_VALUE;
    }

    private Long collectEntry(long ts, long now, long rho, AtomicLong classUpper, boolean raiseInside,
                              long[] removed) {
        if (ts > now - rho) {
            return ts;
        }
        // Raise first, inside the section: a receive on c waits for this section, then sees upper.
        if (raiseInside) {
            classUpper.accumulateAndGet(ts, Math::max);
        }
        removed[0] = ts;
        return null;
    }

    /** Spec WriteLatest: clock + beta to stable storage, then latest; never backwards. */
    public long writeLatest() {
        if (config.scheme() != RecoveryScheme.RESILIENT) {
            throw new IllegalStateException("writeLatest belongs to the RESILIENT scheme; this filter is "
                    + config.scheme());
        }
        synchronized (writeLock) {
            if (!log.on()) {
                return writeLatestLocked();
            }
            // From the clock read to the line: a receive must not see the new latest before it is logged.
            synchronized (log) {
                return writeLatestLocked();
            }
        }
    }

    private long writeLatestLocked() {
        {
            long target = clock.millis() + config.beta();
            if (target > latest) {
                if (reordering == Reordering.LATEST_PUBLISHED_BEFORE_DURABLE) {
                    latest = target;
                }
                storage.write(target);
                stableLatest = target;
                latest = target;
                if (log.on()) {
                    log.step("WriteLatest").field("clock", target - config.beta()).field("latest", latest)
                            .field("stableLatest", stableLatest).end();
                }
            }
            return latest;
        }
    }

    /** Spec FinishRecovery (monotonic): once epsilon has passed, upper := clock, then accept again. */
    public void finishRecovery() {
        // Checked under the lock: two callers that both saw recovering would both finish, where the
        // core's FinishRecovery is enabled once (Lincheck found it, model checking mode).
        synchronized (writeLock) {
            if (!log.on()) {
                finishRecoveryLocked();
                return;
            }
            // A receive must not see recovering cleared before the line is written.
            synchronized (log) {
                finishRecoveryLocked();
            }
        }
    }

    private void finishRecoveryLocked() {
        {
            if (config.scheme() != RecoveryScheme.MONOTONIC || !recovering) {
                throw new IllegalStateException("finishRecovery needs a MONOTONIC filter built by restart that"
                        + " has not finished; this one is " + config.scheme()
                        + (recovering ? " recovering" : " running"));
            }
            long now = clock.millis();
            if (now < refuseUntil) {
                throw new IllegalStateException("clock " + now + " is below refuseUntil " + refuseUntil
                        + "; recovery lasts epsilon (2.2)");
            }
            if (reordering == Reordering.RECOVERING_CLEARED_BEFORE_UPPER) {
                recovering = false;
            }
            classes.values().forEach(c -> c.upper.accumulateAndGet(now, Math::max));
            // Volatile write after upper is raised: a receive that sees false also sees the new upper.
            recovering = false;
            if (log.on()) {
                log.step("FinishRecovery").field("clock", now).longs("upper", uppers())
                        .field("recovering", false).end();
            }
        }
    }

    /**
     * The spec's server variables. Each field is read atomically, the whole is not a snapshot while
     * other threads are running; exact when quiescent (tests, diagnostics).
     */
    public ScmpState state() {
        Map<String, Long> table = new HashMap<>();
        ct.forEach((conn, ts) -> table.put(conn.value(), ts));
        Map<String, Long> bounds = new HashMap<>();
        classes.forEach((k, c) -> bounds.put(k, c.upper.get()));
        long stable;
        synchronized (writeLock) {
            stable = stableLatest;
        }
        return new ScmpState(table, bounds, latest, stable, true, refuseUntil, recovering);
    }

    /** Monotonic scheme: restarted and finishRecovery() has not run, so every message is refused. */
    public boolean inRecovery() {
        return recovering;
    }

    private RhoClass classOf(ConnId conn) {
        String name = config.classifier().apply(conn);
        RhoClass rhoClass = name == null ? null : classes.get(name);
        if (rhoClass == null) {
            throw new IllegalStateException("classifier put connection " + conn + " in rho class \""
                    + name + "\", which is not one of " + config.rhoClasses().keySet());
        }
        return rhoClass;
    }
}
