package dev.onceproof.scmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.storage.InMemoryStableStorage;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Used from one thread, {@link ConcurrentScmpFilter} gives the sequential core's verdicts and ends in
 * the same abstract state, step by step, in every scheme; a crash of the filter is a process restart
 * ({@link ConcurrentScmpFilter#restart}) on the same stable storage. Lincheck (conformance) covers the
 * concurrent histories.
 */
class ConcurrentFilterMatchesCoreProperties {

    /** kind: 0 receive, 1 tick, 2 jump, 3 collect one, 4 collect all, 5 write latest, 6 crash, 7 finish. */
    record Op(int kind, int conn, int amount) {
    }

    @Property(tries = 300)
    void sameVerdictsAndStateAsTheCore(@ForAll RecoveryScheme scheme, @ForAll("ops") List<Op> ops) {
        ScmpConfig config = new ScmpConfig(scheme, 15, 5, Map.of("k1", new FixedRho(20), "k2", new FixedRho(45)),
                c -> c.value().equals("c1") ? "k1" : "k2");
        ManualInstantSource clock = new ManualInstantSource(1000);
        InMemoryStableStorage coreStorage = new InMemoryStableStorage();
        InMemoryStableStorage filterStorage = new InMemoryStableStorage();
        ScmpServer core = new ScmpServer(config, clock, coreStorage);
        ConcurrentScmpFilter filter = new ConcurrentScmpFilter(config, clock, filterStorage);
        for (Op op : ops) {
            ConnId conn = ConnId.of("c" + (1 + op.conn()));
            switch (op.kind()) {
                case 0 -> {
                    Timestamp ts = Timestamp.of(clock.millis() - 40 + op.amount());
                    assertThat(filter.receive(conn, ts)).as("receive(%s, %s)", conn, ts)
                            .isEqualTo(core.receive(conn, ts));
                }
                case 1 -> clock.advance(op.amount() % 20);
                case 2 -> {
                    if (scheme != RecoveryScheme.MONOTONIC) {
                        clock.advance(op.amount() - 40);
                    }
                }
                case 3 -> assertThat(filter.collectGarbage(conn)).isEqualTo(core.collectGarbage(conn));
                case 4 -> assertThat(filter.collectGarbage()).isEqualTo(core.collectGarbage());
                case 5 -> {
                    if (scheme == RecoveryScheme.RESILIENT) {
                        assertThat(filter.writeLatest()).isEqualTo(core.writeLatest());
                    }
                }
                case 6 -> {
                    core.crash();
                    core.recover();
                    filter = ConcurrentScmpFilter.restart(config, clock, filterStorage);
                }
                default -> {
                    if (core.inRecovery() && clock.millis() >= core.refuseUntil()) {
                        core.finishRecovery();
                        filter.finishRecovery();
                    }
                }
            }
            ScmpState expected = core.state();
            if (expected.recovering()) {
                // While a monotonic server refuses everything, upper is not read: the core keeps the
                // stale pre-crash value (as SCMP.tla does), a restarted process starts from Init's.
                expected = new ScmpState(expected.ct(), filter.state().upper(), expected.latest(),
                        expected.stableLatest(), expected.up(), expected.refuseUntil(), true);
            }
            assertThat(filter.state()).as("after %s", op).isEqualTo(expected);
        }
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        return Combinators.combine(
                Arbitraries.integers().between(0, 7).injectDuplicates(0.3),
                Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(0, 80))
                .as(Op::new).list().ofMinSize(10).ofMaxSize(120);
    }
}
