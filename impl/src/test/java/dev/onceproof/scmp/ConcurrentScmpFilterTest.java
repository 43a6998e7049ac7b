package dev.onceproof.scmp;

import static dev.onceproof.scmp.Verdict.ACCEPTED;
import static dev.onceproof.scmp.Verdict.DUPLICATE;
import static dev.onceproof.scmp.Verdict.RECOVERING;
import static dev.onceproof.scmp.Verdict.TOO_EARLY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.storage.InMemoryStableStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Sequential behaviour of the thread-safe filter (the same verdicts as the core) and a stress run;
 * linearizability proper is checked by Lincheck in conformance.
 */
class ConcurrentScmpFilterTest {

    final ManualInstantSource clock = new ManualInstantSource(1000);
    final InMemoryStableStorage storage = new InMemoryStableStorage();
    static final ConnId C1 = ConnId.of("c1");

    ScmpConfig config(RecoveryScheme scheme) {
        return ScmpConfig.singleClass(scheme, 10, 5, 100);
    }

    @Test
    void sameVerdictsAndStateAsTheCoreOnOneScript() {
        ConcurrentScmpFilter filter = new ConcurrentScmpFilter(config(RecoveryScheme.RESILIENT), clock, storage);
        ScmpServer core = new ScmpServer(config(RecoveryScheme.RESILIENT), clock, new InMemoryStableStorage());
        long[][] script = {{1, 990}, {1, 990}, {2, 1011}, {2, 1005}, {1, 980}, {3, 0}};
        for (int round = 0; round < 3; round++) {
            for (long[] step : script) {
                ConnId c = ConnId.of("c" + step[0]);
                Timestamp t = Timestamp.of(step[1] + round * 60);
                assertThat(filter.receive(c, t)).isEqualTo(core.receive(c, t));
            }
            clock.advance(60);
            assertThat(filter.collectGarbage()).isEqualTo(core.collectGarbage());
            assertThat(filter.writeLatest()).isEqualTo(core.writeLatest());
            assertThat(filter.state()).isEqualTo(core.state());
        }
    }

    @Test
    void duplicateAfterRestartIsRejected() {
        // 2.3: "G.latest_precrash <= G.upper_postcrash".
        ConcurrentScmpFilter before = new ConcurrentScmpFilter(config(RecoveryScheme.RESILIENT), clock, storage);
        assertThat(before.receive(C1, Timestamp.of(1009))).isEqualTo(ACCEPTED);
        clock.set(1400);
        ConcurrentScmpFilter after = ConcurrentScmpFilter.restart(config(RecoveryScheme.RESILIENT), clock, storage);
        assertThat(after.receive(C1, Timestamp.of(1009))).isEqualTo(DUPLICATE);
        assertThat(after.receive(C1, Timestamp.of(1011))).isEqualTo(ACCEPTED);
        assertThat(after.receive(C1, Timestamp.of(1411))).isEqualTo(TOO_EARLY);
    }

    @Test
    void monotonicRestartRefusesForEpsilon() {
        ConcurrentScmpFilter after = ConcurrentScmpFilter.restart(config(RecoveryScheme.MONOTONIC), clock, storage);
        assertThat(after.receive(C1, Timestamp.of(1001))).isEqualTo(RECOVERING);
        assertThatThrownBy(after::finishRecovery).hasMessageContaining("clock 1000 is below refuseUntil 1005");
        clock.set(1005);
        after.finishRecovery();
        assertThat(after.receive(C1, Timestamp.of(1005))).isEqualTo(DUPLICATE);
        assertThat(after.receive(C1, Timestamp.of(1006))).isEqualTo(ACCEPTED);
    }

    @Test
    void noMessageAcceptedTwiceUnderConcurrentCollectionAndWrites() throws Exception {
        ConcurrentScmpFilter filter = new ConcurrentScmpFilter(
                ScmpConfig.singleClass(RecoveryScheme.RESILIENT, 50, 5, 3), clock, storage);
        Map<String, AtomicInteger> acceptances = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        Thread background = new Thread(() -> {
            while (!stop.get()) {
                clock.advance(1);
                filter.collectGarbage();
                filter.writeLatest();
            }
        });
        background.start();
        List<Thread> workers = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            Thread t = new Thread(() -> {
                for (int n = 0; n < 20_000; n++) {
                    long ts = 1000 + n / 8;
                    ConnId c = ConnId.of("c" + (n % 4));
                    if (filter.receive(c, Timestamp.of(ts)) == ACCEPTED) {
                        acceptances.computeIfAbsent(c + "@" + ts, k -> new AtomicInteger()).incrementAndGet();
                    }
                }
            });
            workers.add(t);
            t.start();
        }
        for (Thread t : workers) {
            t.join();
        }
        stop.set(true);
        background.join();
        assertThat(acceptances.entrySet()).allSatisfy(e -> assertThat(e.getValue().get()).as(e.getKey()).isEqualTo(1));
        assertThat(acceptances).isNotEmpty();
    }

    @Test
    void estimatorHearsOfEveryMessageUnlessItDeclaresItIgnoresThem() {
        ScmpServerTest.RecordingEstimator adaptive = new ScmpServerTest.RecordingEstimator(100, true);
        ScmpServerTest.RecordingEstimator constant = new ScmpServerTest.RecordingEstimator(100, false);
        for (ScmpServerTest.RecordingEstimator e : List.of(adaptive, constant)) {
            ConcurrentScmpFilter filter = new ConcurrentScmpFilter(
                    ScmpConfig.singleClass(RecoveryScheme.RESILIENT, 10, 5, e), clock, new InMemoryStableStorage());
            filter.receive(C1, Timestamp.of(1001));
            filter.receive(C1, Timestamp.of(1001));
            filter.receive(C1, Timestamp.of(1500));
        }
        // Accepted, duplicate and too early: an estimator learns from all three (2.4, Fig. 1).
        assertThat(adaptive.messages).hasSize(3);
        // A constant rho says it ignores them, so the filter skips the call and its lock.
        assertThat(constant.messages).isEmpty();
        assertThat(new FixedRho(5).observesMessages()).isFalse();
    }
}
