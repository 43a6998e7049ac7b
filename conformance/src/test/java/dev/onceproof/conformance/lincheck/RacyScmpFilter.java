package dev.onceproof.conformance.lincheck;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A deliberately broken concurrent filter, to show the Lincheck suite can fail (DESIGN.md, "each
 * link must be able to fail"). Every map operation is thread-safe on its own, but one decision is
 * not atomic, chosen by {@link Race}; the other operation is written as in ConcurrentScmpFilter.
 */
final class RacyScmpFilter {

    enum Race {
        /** Receive checks, then acts (get, then put): two copies can both find no entry. */
        CHECK_THEN_ACT,
        /**
         * Garbage collection removes the entry, then raises upper: a receive in between sees
         * neither, though the 2.3 argument needs one of them ("when it was discarded, G.upper was
         * adjusted such that m.ts <= G.upper").
         */
        REMOVE_THEN_RAISE
    }

    private final Race race;

    private final ScmpConfig config;
    private final InstantSource clock;
    private final ConcurrentHashMap<ConnId, Long> ct = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> upper = new HashMap<>();

    RacyScmpFilter(ScmpConfig config, InstantSource clock, Race race) {
        this.race = race;
        this.config = config;
        this.clock = clock;
        long now = clock.millis();
        config.rhoClasses().forEach((k, e) -> upper.put(k, new AtomicLong(Math.min(0, now - e.current()))));
    }

    Verdict receive(ConnId conn, Timestamp ts) {
        if (race != Race.CHECK_THEN_ACT) {
            return atomicReceive(conn, ts.value());
        }
        if (ts.value() > clock.millis() + config.epsilon()) {
            return Verdict.TOO_EARLY;
        }
        Long entry = ct.get(conn);
        long bound = entry != null ? entry : upper.get(config.classifier().apply(conn)).get();
        if (ts.value() > bound) {
            ct.put(conn, ts.value());   // RACE: another copy may have been accepted since the get
            return Verdict.ACCEPTED;
        }
        return Verdict.DUPLICATE;
    }

    /** As in ConcurrentScmpFilter (monotonic scheme): the whole decision in one per-key section. */
    private Verdict atomicReceive(ConnId conn, long t) {
        AtomicLong classUpper = upper.get(config.classifier().apply(conn));
        Verdict[] verdict = new Verdict[1];
        ct.compute(conn, (c, entry) -> {
            if (t > clock.millis() + config.epsilon()) {
                verdict[0] = Verdict.TOO_EARLY;
                return entry;
            }
            long bound = entry != null ? entry : classUpper.get();
            verdict[0] = t > bound ? Verdict.ACCEPTED : Verdict.DUPLICATE;
            return t > bound ? t : entry;
        });
        return verdict[0];
    }

    boolean collectGarbage(ConnId conn) {
        String rhoClass = config.classifier().apply(conn);
        LifetimeEstimator estimator = config.rhoClasses().get(rhoClass);
        if (race != Race.REMOVE_THEN_RAISE) {
            return atomicCollect(conn, upper.get(rhoClass), estimator.current());
        }
        Long ts = ct.get(conn);
        if (ts == null || ts > clock.millis() - estimator.current()) {
            return false;
        }
        ct.remove(conn);                                    // RACE: entry gone, upper not yet raised
        upper.get(rhoClass).accumulateAndGet(ts, Math::max);
        return true;
    }

    /** As in ConcurrentScmpFilter: upper is raised inside the section that removes the entry. */
    private boolean atomicCollect(ConnId conn, AtomicLong classUpper, long rho) {
        boolean[] removed = {false};
        ct.computeIfPresent(conn, (c, ts) -> {
            if (ts > clock.millis() - rho) {
                return ts;
            }
            classUpper.accumulateAndGet(ts, Math::max);
            removed[0] = true;
            return null;
        });
        return removed[0];
    }
}
