package dev.onceproof.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.FixedRho;
import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.ScmpServer;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import dev.onceproof.storage.InMemoryStableStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Condition 1 (Theorem 2) for the estimators of this package on the real SCMP core: whatever the
 * lifetimes (delays, client clock skew) and whatever the server clock does (it may even jump back),
 * the server never accepts a message twice and never accepts one sent before the last message it
 * accepted from that client; and the adaptive estimates stay powers of two >= 1.
 */
class AtMostOnceWithAnyEstimatorProperties {

    /** One step of the environment; fields unused by a kind are ignored. */
    record Op(int kind, int client, int amount, int pick) {
    }

    static final int TICK = 0;
    static final int SEND = 1;
    static final int DELIVER = 2;
    static final int COLLECT = 3;
    static final int JUMP_BACK = 4;

    @Property(tries = 300)
    void unlimitedHorizonNeverAcceptsADuplicateOrOutOfOrderMessage(@ForAll("runs") List<Op> ops) {
        run(new UnlimitedHorizonEstimator(), ops);
    }

    @Property(tries = 300)
    void limitedHorizonNeverAcceptsADuplicateOrOutOfOrderMessage(@ForAll("runs") List<Op> ops,
            @ForAll("limitedParams") int[] shp) {
        run(new LimitedHorizonEstimator(shp[0], shp[1], shp[2]), ops);
    }

    @Property(tries = 100)
    void fixedRhoNeverAcceptsADuplicateOrOutOfOrderMessage(@ForAll("runs") List<Op> ops,
            @ForAll("rhos") long rho) {
        run(new FixedRho(rho), ops);
    }

    /**
     * The check above must be able to fail: a core whose garbage collection forgets to raise upper
     * (the Lemma 1 safeguard) lets a late copy through, with the unlimited horizon estimator.
     */
    @Example
    void theCheckCatchesACoreWhoseCollectionForgetsUpper() {
        List<Op> ops = List.of(new Op(SEND, 0, 0, 0), new Op(DELIVER, 0, 0, 0),
                new Op(TICK, 0, 10, 0), new Op(COLLECT, 0, 0, 0), new Op(DELIVER, 0, 0, 0));
        ManualInstantSource clock = new ManualInstantSource(1);
        ScmpServer forgetful = new ScmpServer(ScmpConfig.singleClass(RecoveryScheme.NON_RESILIENT,
                0, 0, new UnlimitedHorizonEstimator()), clock, new InMemoryStableStorage()) {
            @Override
            protected void raiseUpper(String rhoClass, long ts) {
                // broken on purpose: the removed timestamp is remembered nowhere
            }
        };
        assertThatThrownBy(() -> run(forgetful, clock, forgetful.config().rhoClasses()
                .get(ScmpConfig.DEFAULT_CLASS), ops))
                .isInstanceOf(AssertionError.class).hasMessageContaining("duplicate or out of order");
        run(new UnlimitedHorizonEstimator(), ops); // the correct core passes the same run
    }

    private static void run(LifetimeEstimator estimator, List<Op> ops) {
        ManualInstantSource clock = new ManualInstantSource(1);
        ScmpServer server = new ScmpServer(
                ScmpConfig.singleClass(RecoveryScheme.NON_RESILIENT, 0, 0, estimator), clock,
                new InMemoryStableStorage());
        run(server, clock, estimator, ops);
    }

    private static void run(ScmpServer server, ManualInstantSource clock,
            LifetimeEstimator estimator, List<Op> ops) {
        // Assumption 4: client clocks never go back; each message gets a later timestamp.
        long[] clientClock = {0, 5, 40};
        List<long[]> sent = new ArrayList<>();            // {client, ts}; copies stay deliverable
        Map<Integer, Long> lastAccepted = new HashMap<>();
        for (Op op : ops) {
            switch (op.kind()) {
                case TICK -> clock.advance(op.amount());
                case JUMP_BACK -> clock.set(Math.max(0, clock.millis() - op.amount()));
                case SEND -> {
                    clientClock[op.client()] += 1 + op.amount();
                    sent.add(new long[] {op.client(), clientClock[op.client()]});
                }
                case DELIVER -> {
                    if (sent.isEmpty()) {
                        break;
                    }
                    long[] m = sent.get(op.pick() % sent.size());
                    int c = (int) m[0];
                    Verdict v = server.receive(ConnId.of("c" + c), Timestamp.of(m[1]));
                    if (v == Verdict.ACCEPTED) {
                        long before = lastAccepted.getOrDefault(c, -1L);
                        assertThat(m[1]).as("accepted ts %d of c%d after %d (duplicate or out of order)",
                                m[1], c, before).isGreaterThan(before);
                        lastAccepted.put(c, m[1]);
                    }
                    if (estimator instanceof LimitedHorizonEstimator lh && lh.garbageCollectionDue()) {
                        collect(server, estimator);
                    }
                }
                case COLLECT -> {
                    if (!(estimator instanceof LimitedHorizonEstimator)) {
                        collect(server, estimator);
                    }
                }
                default -> throw new IllegalStateException("op kind " + op.kind());
            }
        }
    }

    private static void collect(ScmpServer server, LifetimeEstimator estimator) {
        server.collectGarbage();
        if (!(estimator instanceof FixedRho)) {
            assertThat(PowerOfTwo.is(estimator.current()))
                    .as("estimate %d is a power of two >= 1", estimator.current()).isTrue();
        }
    }

    @Provide
    Arbitrary<List<Op>> runs() {
        Arbitrary<Op> op = Combinators.combine(
                Arbitraries.frequency(
                        net.jqwik.api.Tuple.of(3, TICK), net.jqwik.api.Tuple.of(3, SEND),
                        net.jqwik.api.Tuple.of(5, DELIVER), net.jqwik.api.Tuple.of(2, COLLECT),
                        net.jqwik.api.Tuple.of(1, JUMP_BACK)),
                Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, 40),
                Arbitraries.integers().between(0, 1000)).as(Op::new);
        return op.list().ofMinSize(1).ofMaxSize(120);
    }

    @Provide
    Arbitrary<int[]> limitedParams() {
        return Combinators.combine(Arbitraries.integers().between(1, 8),
                Arbitraries.integers().between(0, 3), Arbitraries.integers().between(1, 6))
                // S - H >= max(1, H) so that some p >= 1 meets Assumption 3 (p * H <= S - H).
                .as((sMinusH, h, p) -> {
                    int gap = Math.max(sMinusH, h);
                    return new int[] {gap + h, h, h == 0 ? p : Math.min(p, gap / h)};
                });
    }

    @Provide
    Arbitrary<Long> rhos() {
        return Arbitraries.longs().between(0, 50);
    }
}
