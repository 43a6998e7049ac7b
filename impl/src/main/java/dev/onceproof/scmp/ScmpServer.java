package dev.onceproof.scmp;

import dev.onceproof.storage.StableStorage;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * The SCMP server core (Liskov, Shrira, Wroclawski 1990, Figures 2-1 and 2-2 and the monotonic-clock
 * alternative of 2.2): decides whether a message is new. Sans-IO and deterministic: time comes from
 * the injected {@link InstantSource} (milliseconds, the spec's unit), latest goes to the injected
 * {@link StableStorage}; no threads, no wall clock. Not thread-safe; see ConcurrentScmpFilter.
 *
 * <p>Method names are the spec's actions (specs/CONVENTIONS.md): {@link #receive}, {@link
 * #collectGarbage(ConnId)}, {@link #collectGarbage()}, {@link #writeLatest}, {@link #crash}, {@link
 * #recover}, {@link #finishRecovery}; {@link #state} is the spec's server variables. {@link
 * #collectGarbage(String)} is a pass over one rho class (Chaudhuri-Coan-Welch Fig. 3's schedule).
 *
 * <p><b>Mutation seams.</b> The protected methods {@link #isTooEarly}, {@link #isNew}, {@link
 * #raiseUpper}, {@link #persistLatest}, {@link #recoveredUpper} and {@link #isRecovering} each carry
 * exactly one safeguard. They exist so the conformance suite can build deliberately broken cores and
 * show that trace replay catches them; production code must not override them.
 */
public class ScmpServer {

    private final ScmpConfig config;
    private final InstantSource clock;
    private final StableStorage storage;

    /** Fig. 2-1: conn -> timestamp of the last accepted message. Lost on crash (volatile memory). */
    private final Map<ConnId, Long> ct = new HashMap<>();
    /**
     * Per rho class (end of 2.4): every timestamp removed from ct for a connection of this class is
     * at or below it, and after a recovery so is every timestamp accepted before the crash. Only
     * ever raised, except that a crash or recovery re-establishes it.
     */
    private final Map<String, Long> upper = new LinkedHashMap<>();
    /** Resilient: every accepted timestamp is at or below it, and latest <= stableLatest (2.3). */
    private long latest;
    /** Mirror of the value this server last wrote to or read from stable storage; never decreases. */
    private long stableLatest;
    /** False between crash() and recover(): a down server takes no steps. */
    private boolean up = true;
    /** Monotonic: the clock at recovery + epsilon; finishRecovery() may not run before it (2.2). */
    private long refuseUntil;
    /**
     * Monotonic: between recover() and finishRecovery() upper is not yet re-established, so every
     * message is refused (2.2: "the server refuses all messages for a period of epsilon").
     */
    private boolean recovering;

    /** A freshly created server (spec Init; Fig. 2-2 "Initialization"). */
    public ScmpServer(ScmpConfig config, InstantSource clock, StableStorage storage) {
        this(config, clock, storage, false);
    }

    /**
     * @param restart false: a freshly created server; true: a process that ran before, constructed
     *                down so that the caller (see {@link #restart}) calls {@link #recover()}
     */
    protected ScmpServer(ScmpConfig config, InstantSource clock, StableStorage storage, boolean restart) {
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.storage = Objects.requireNonNull(storage, "storage");
        long now = clock.millis();
        // Fig. 2-1: "G.upper is set to the minimum of zero and G.time - rho".
        for (Map.Entry<String, LifetimeEstimator> k : config.rhoClasses().entrySet()) {
            upper.put(k.getKey(), Math.min(0, now - k.getValue().current()));
        }
        // Only the resilient scheme uses stable storage (2.2: the monotonic alternative "eliminates
        // the need for stable storage"), so only it may be stopped by a corrupt one.
        boolean resilient = config.scheme() == RecoveryScheme.RESILIENT;
        OptionalLong stored = resilient ? storage.read() : OptionalLong.empty();
        if (restart) {
            up = false;
            stableLatest = stored.orElse(0);
            latest = stableLatest;
            return;
        }
        if (resilient) {
            if (stored.isPresent()) {
                throw new IllegalStateException("stable storage already holds latest " + stored.getAsLong()
                        + ": a server that ran before must start with ScmpServer.restart (Fig. 2-2 crash recovery)");
            }
            // Fig. 2-2 Initialization: "G.time + beta is written to stable storage and G.latest is set".
            latest = now + config.beta();
            storage.write(latest);
            stableLatest = latest;
        }
    }

    /** A server process that ran before: starts down and recovers from stable storage at once. */
    public static ScmpServer restart(ScmpConfig config, InstantSource clock, StableStorage storage) {
        ScmpServer server = new ScmpServer(config, clock, storage, true);
        server.recover();
        return server;
    }

    /** Spec action Receive(m): judges one message; ACCEPTED means deliver it, exactly once. */
    public Verdict receive(ConnId conn, Timestamp ts) {
        requireUp("receive");
        String rhoClass = classOf(conn);
        long t = ts.value();
        long now = clock.millis();
        Verdict verdict;
        boolean summaryRejected = false;
        if (isRecovering()) {
            verdict = Verdict.RECOVERING;
        } else if (isTooEarly(t)) {
            verdict = Verdict.TOO_EARLY;
        } else {
            Long entry = ct.get(conn);
            long bound = entry != null ? entry : upper.get(rhoClass);
            if (isNew(t, bound)) {
                ct.put(conn, t);
                verdict = Verdict.ACCEPTED;
            } else {
                summaryRejected = entry == null;
                verdict = Verdict.DUPLICATE;
            }
        }
        config.rhoClasses().get(rhoClass).onMessage(now - t, verdict, summaryRejected);
        return verdict;
    }

    /**
     * Spec action CollectGarbage(c): removes c's entry if its timestamp is at or below clock - rho of
     * c's class (2.2: "G is free to remove an entry ... provided G.CT[C].ts <= G.time - rho").
     *
     * @return whether the entry was removed
     */
    public boolean collectGarbage(ConnId conn) {
        requireUp("collectGarbage");
        String rhoClass = classOf(conn);
        return collectIfOld(conn, rhoClass, clock.millis() - config.rhoClasses().get(rhoClass).current());
    }

    /**
     * Every eligible entry, one estimate per class for the pass (Chaudhuri-Coan-Welch standard form):
     * {@link #collectGarbage(String)} for every class, in the configuration's class order.
     *
     * @return how many entries were removed
     */
    public int collectGarbage() {
        requireUp("collectGarbage");
        int removed = 0;
        for (String rhoClass : config.rhoClasses().keySet()) {
            removed += collectGarbage(rhoClass);
        }
        return removed;
    }

    /**
     * A garbage-collection pass over one rho class (end of 2.4: one upper per class): asks that
     * class's estimator once for the pass's estimate and removes the class's entries at or below
     * clock minus it; other classes, their estimators and their upper are untouched. This is what
     * lets each class be collected on its own schedule, as Chaudhuri, Coan and Welch's Fig. 3 needs
     * (a pass exactly when its class has received S messages).
     *
     * @return how many entries were removed
     * @throws IllegalArgumentException when rhoClass is not one of the configuration's classes
     */
    public int collectGarbage(String rhoClass) {
        requireUp("collectGarbage");
        LifetimeEstimator estimator = config.rhoClasses().get(rhoClass);
        if (estimator == null) {
            throw new IllegalArgumentException("rho class \"" + rhoClass + "\" is not one of "
                    + config.rhoClasses().keySet());
        }
        long cutoff = clock.millis() - estimator.beginGarbageCollection();
        int removed = 0;
        for (ConnId conn : new ArrayList<>(ct.keySet())) {
            if (classOf(conn).equals(rhoClass) && collectIfOld(conn, rhoClass, cutoff)) {
                removed++;
            }
        }
        return removed;
    }

    private boolean collectIfOld(ConnId conn, String rhoClass, long cutoff) {
        Long ts = ct.get(conn);
        if (ts == null || ts > cutoff) {
            return false;
        }
        // Fig. 2-1: "G.upper is set to the maximum of its former value and the timestamps of the
        // removed entries"; raised first so no state exists where neither remembers ts.
        raiseUpper(rhoClass, ts);
        ct.remove(conn);
        return true;
    }

    /**
     * Spec action WriteLatest (Fig. 2-2 "Maintaining Latest"): writes clock + beta to stable storage,
     * then raises latest. Never goes backwards: after a clock jump back it does nothing.
     *
     * @return latest after the step
     */
    public long writeLatest() {
        requireUp("writeLatest");
        requireScheme(RecoveryScheme.RESILIENT, "writeLatest");
        long target = clock.millis() + config.beta();
        if (target > latest) {
            persistLatest(target);
            latest = target;
        }
        return latest;
    }

    /**
     * Spec action Crash: volatile memory is lost (footnote 1), so the table goes; upper, latest and
     * refuseUntil keep stale values that nothing reads until recover() overwrites them, as in
     * SCMP.tla. Stable storage is untouched.
     */
    public void crash() {
        requireUp("crash");
        up = false;
        ct.clear();
        recovering = false;
    }

    /**
     * Spec action Recover. Resilient (Fig. 2-2 "Crash Recovery"): upper := stored latest for every
     * class, empty table, a new latest. Monotonic: refuse for epsilon ({@link #finishRecovery}).
     * Non-resilient (Fig. 2-1): starts afresh; nothing is promised about pre-crash duplicates.
     */
    public void recover() {
        if (up) {
            throw new IllegalStateException("recover needs a crashed server; this one is up");
        }
        ct.clear();
        long now = clock.millis();
        switch (config.scheme()) {
            case RESILIENT -> {
                OptionalLong stored = storage.read();
                if (stored.isEmpty()) {
                    throw new IllegalStateException("stable storage holds no latest; a resilient server"
                            + " cannot recover without it (paper 2.3: it has failed catastrophically)");
                }
                stableLatest = stored.getAsLong();
                for (String k : config.rhoClasses().keySet()) {
                    upper.put(k, recoveredUpper(k, stableLatest));
                }
                // "Establish a new G.latest": durable first; never below what is stored.
                long target = now + config.beta();
                if (target > stableLatest) {
                    persistLatest(target);
                }
                latest = stableLatest;
            }
            case MONOTONIC -> {
                refuseUntil = now + config.epsilon();
                recovering = true;
            }
            case NON_RESILIENT -> {
                for (Map.Entry<String, LifetimeEstimator> k : config.rhoClasses().entrySet()) {
                    upper.put(k.getKey(), Math.min(0, now - k.getValue().current()));
                }
            }
        }
        up = true;
    }

    /**
     * Spec action FinishRecovery (monotonic scheme): once epsilon has passed, "sets G.upper to
     * G.time and begins normal processing". Every message accepted before the crash had ts <= the
     * crash-time clock + epsilon <= the clock now, as the clock is monotonic.
     */
    public void finishRecovery() {
        requireUp("finishRecovery");
        requireScheme(RecoveryScheme.MONOTONIC, "finishRecovery");
        if (!recovering) {
            throw new IllegalStateException("finishRecovery needs a recovering server; recover() was not called");
        }
        long now = clock.millis();
        if (now < refuseUntil) {
            throw new IllegalStateException("clock " + now + " is below refuseUntil " + refuseUntil
                    + "; recovery lasts epsilon (2.2)");
        }
        for (String k : config.rhoClasses().keySet()) {
            upper.put(k, recoveredUpper(k, now));
        }
        recovering = false;
    }

    /** The spec's server variables, as an immutable value. */
    public ScmpState state() {
        Map<String, Long> ctByName = new HashMap<>();
        ct.forEach((conn, ts) -> ctByName.put(conn.value(), ts));
        return new ScmpState(ctByName, upper, latest, stableLatest, up, refuseUntil, recovering);
    }

    /** Monotonic scheme: recovered but finishRecovery() has not run, so every message is refused. */
    public boolean inRecovery() {
        return recovering;
    }

    /** When finishRecovery() may run (monotonic scheme); 0 before any recovery. */
    public long refuseUntil() {
        return refuseUntil;
    }

    public ScmpConfig config() {
        return config;
    }

    // ---- mutation seams: one safeguard each ------------------------------------------------

    /** Seam: Fig. 2-2 rule 1 (ts > latest), or ts > clock + epsilon for the monotonic scheme. */
    protected boolean isTooEarly(long ts) {
        return switch (config.scheme()) {
            case RESILIENT -> ts > latest;
            case MONOTONIC -> ts > clock.millis() + config.epsilon();
            case NON_RESILIENT -> false;
        };
    }

    /** Seam: rules 1a/2a: new only if strictly above the bound (entry, or the class's upper). */
    protected boolean isNew(long ts, long bound) {
        return ts > bound;
    }

    /** Seam: garbage collection keeps upper at or above every removed timestamp. */
    protected void raiseUpper(String rhoClass, long ts) {
        upper.merge(rhoClass, ts, Math::max);
    }

    /** Seam: latest reaches stable storage before it bounds anything (write durable on return). */
    protected void persistLatest(long value) {
        storage.write(value);
        stableLatest = value;
    }

    /**
     * Seam: the upper a recovery establishes. Resilient: the stored latest (2.3: "G.latest_precrash
     * <= G.upper_postcrash"); monotonic: the clock at the end of the quiet period.
     */
    protected long recoveredUpper(String rhoClass, long bound) {
        return bound;
    }

    /** Seam: the monotonic scheme's quiet period after a crash. */
    protected boolean isRecovering() {
        return recovering;
    }

    // ---- helpers ---------------------------------------------------------------------------

    private String classOf(ConnId conn) {
        String rhoClass = config.classifier().apply(conn);
        if (rhoClass == null || !config.rhoClasses().containsKey(rhoClass)) {
            throw new IllegalStateException("classifier put connection " + conn + " in rho class \""
                    + rhoClass + "\", which is not one of " + config.rhoClasses().keySet());
        }
        return rhoClass;
    }

    private void requireUp(String action) {
        if (!up) {
            throw new IllegalStateException(action + " needs an up server; it crashed and recover() was not called");
        }
    }

    private void requireScheme(RecoveryScheme scheme, String action) {
        if (config.scheme() != scheme) {
            throw new IllegalStateException(action + " belongs to the " + scheme + " scheme; this server is "
                    + config.scheme());
        }
    }
}
