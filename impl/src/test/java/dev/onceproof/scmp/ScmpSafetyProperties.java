package dev.onceproof.scmp;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;

/**
 * At-most-once (paper 2.3, SCMP.tla NoDuplicateAccepted and NoOutOfOrderAccept) on random schedules:
 * sends, network duplicates, reorders and losses, per-entry and full garbage collection, latest
 * writes, crashes and recoveries, clients skewed beyond epsilon and server clocks that jump both
 * ways, with one or two rho classes. 2.3: "The correctness of the protocol does not depend on clock
 * synchronization" and "also does not depend on the monotonicity of clocks (in the scheme in which
 * G.latest is kept on stable storage)"; the monotonic scheme gets no jumps, since it does depend on
 * a monotonic clock.
 */
class ScmpSafetyProperties {

    /** A world: scheme, beta, epsilon, rho per class, whether there are two classes, client skews. */
    record Setup(RecoveryScheme scheme, long beta, long epsilon, long rho1, long rho2, boolean twoClasses,
                 long[] skews) {

        ScmpConfig config() {
            if (!twoClasses) {
                return ScmpConfig.singleClass(scheme, beta, epsilon, rho1);
            }
            // Connection c1 is in class k1, the others in k2 (as in specs/scmp/MCScmp.tla).
            return new ScmpConfig(scheme, beta, epsilon, Map.of("k1", new FixedRho(rho1), "k2", new FixedRho(rho2)),
                    c -> c.value().equals("c1") ? "k1" : "k2");
        }

        @Override
        public String toString() {
            return scheme + " beta=" + beta + " epsilon=" + epsilon + " rho=" + rho1 + "/" + rho2
                    + (twoClasses ? " (two classes)" : "") + " skews=" + java.util.Arrays.toString(skews);
        }
    }

    @Property(tries = 400)
    void neverAcceptsADuplicateOrAnOutOfOrderMessage(@ForAll("setups") Setup setup,
                                                     @ForAll("schedules") List<Step> schedule) {
        ScmpWorld world = new ScmpWorld(setup.config(), 1000, setup.skews());
        world.run(schedule);
        Statistics.label("scheme").collect(setup.scheme());
        Statistics.label("accepted messages").collect(world.accepted == 0 ? "none" : world.accepted < 5 ? "1-4" : "5+");
    }

    @Provide
    Arbitrary<Setup> setups() {
        return Combinators.combine(
                Arbitraries.of(RecoveryScheme.class),
                Arbitraries.longs().between(0, 40),
                Arbitraries.longs().between(0, 20),
                Arbitraries.longs().between(0, 80),
                Arbitraries.longs().between(0, 80),
                Arbitraries.of(true, false),
                // Skews up to 60 ms either way: often beyond epsilon ("skewed clients").
                Arbitraries.longs().between(-60, 60).array(long[].class).ofMinSize(1).ofMaxSize(4))
                .as(Setup::new);
    }

    @Provide
    Arbitrary<List<Step>> schedules() {
        Arbitrary<Integer> index = Arbitraries.integers().between(0, 40);
        return Arbitraries.<Step>frequencyOf(
                Tuple.of(8, step(Arbitraries.integers().between(1, 30).map(Step.Tick::new))),
                Tuple.of(2, step(Arbitraries.integers().between(-60, 60).map(Step.ClockJump::new))),
                Tuple.of(10, step(index.map(Step.Send::new))),
                Tuple.of(14, step(Combinators.combine(index, Arbitraries.of(true, false)).as(Step.Deliver::new))),
                Tuple.of(2, step(index.map(Step.Lose::new))),
                Tuple.of(3, step(index.map(Step.CollectOne::new))),
                Tuple.of(3, step(Arbitraries.just(new Step.CollectAll()))),
                Tuple.of(4, step(Arbitraries.just(new Step.WriteLatest()))),
                Tuple.of(1, step(Arbitraries.just(new Step.Crash()))),
                Tuple.of(2, step(Arbitraries.just(new Step.Recover()))),
                Tuple.of(2, step(Arbitraries.just(new Step.FinishRecovery()))))
                .list().ofMinSize(20).ofMaxSize(200);
    }

    private static Arbitrary<Step> step(Arbitrary<? extends Step> arbitrary) {
        return arbitrary.map(s -> s);
    }

    /** The property must be able to fail: the same world over a core that forgets upper is caught. */
    @Example
    void theHistoryCheckCatchesACoreThatForgetsUpper() {
        ScmpWorld world = new ScmpWorld(ScmpConfig.singleClass(RecoveryScheme.RESILIENT, 10, 5, 20), 1000,
                new long[] {0}, (config, clock, storage) -> new ScmpServer(config, clock, storage) {
                    @Override
                    protected void raiseUpper(String rhoClass, long ts) {
                    }
                });
        List<Step> schedule = List.of(new Step.Send(0), new Step.Deliver(0, true), new Step.Tick(50),
                new Step.CollectAll(), new Step.Deliver(0, true));
        assertThatThrownBy(() -> world.run(schedule))
                .hasMessageContaining("Message[conn=c1, ts=1000] accepted after 1000");
    }
}
