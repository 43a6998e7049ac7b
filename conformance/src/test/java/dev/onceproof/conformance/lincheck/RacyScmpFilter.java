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
 * link must be able to fail"). Every map operation is thread-safe on its own, but the decisions are
 * not atomic: receive checks then acts (get, then put), so two copies of one message can both find
 * no entry and both be accepted; garbage collection removes the entry before it raises upper, so a
 * receive in between sees neither and accepts a duplicate (the 2.3 argument needs both at once).
 */
final class RacyScmpFilter {

    private final ScmpConfig config;
    private final InstantSource clock;
    private final ConcurrentHashMap<ConnId, Long> ct = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> upper = new HashMap<>();

    RacyScmpFilter(ScmpConfig config, InstantSource clock) {
        this.config = config;
        this.clock = clock;
        long now = clock.millis();
        config.rhoClasses().forEach((k, e) -> upper.put(k, new AtomicLong(Math.min(0, now - e.current()))));
    }

    Verdict receive(ConnId conn, Timestamp ts) {
        Long entry = ct.get(conn);
        long bound = entry != null ? entry : upper.get(config.classifier().apply(conn)).get();
        if (ts.value() > bound) {
            ct.put(conn, ts.value());   // RACE: another copy may have been accepted since the get
            return Verdict.ACCEPTED;
        }
        return Verdict.DUPLICATE;
    }

    boolean collectGarbage(ConnId conn) {
        String rhoClass = config.classifier().apply(conn);
        LifetimeEstimator estimator = config.rhoClasses().get(rhoClass);
        Long ts = ct.get(conn);
        if (ts == null || ts > clock.millis() - estimator.current()) {
            return false;
        }
        ct.remove(conn);                                    // RACE: entry gone, upper not yet raised
        upper.get(rhoClass).accumulateAndGet(ts, Math::max);
        return true;
    }
}
