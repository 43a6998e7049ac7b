package dev.onceproof.scmp;

import static dev.onceproof.scmp.Verdict.ACCEPTED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.storage.InMemoryStableStorage;
import java.time.InstantSource;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * One test per mutation seam of {@link ScmpServer}: a subclass that disables the seam's safeguard
 * accepts one message twice, and the real server, in the same scenario, does not. If a safeguard
 * were removed from the core itself, the real-server half of its test would fail.
 */
class MutationSeamTest {

    static final ConnId C1 = ConnId.of("c1");
    final ManualInstantSource clock = new ManualInstantSource(1000);

    /** Builds a server for a scheme: the real one, or a broken subclass. */
    interface Factory {
        ScmpServer make(ScmpConfig config, InstantSource clock, InMemoryStableStorage storage);
    }

    /** Runs the scenario; returns how many times the message (c1, ts) was accepted. */
    int acceptances(RecoveryScheme scheme, Factory factory, Function<ScmpServer, Integer> scenario) {
        clock.set(1000);
        ScmpConfig config = ScmpConfig.singleClass(scheme, 10, 5, 100);
        return scenario.apply(factory.make(config, clock, new InMemoryStableStorage()));
    }

    static int count(Verdict... verdicts) {
        int n = 0;
        for (Verdict v : verdicts) {
            n += v == ACCEPTED ? 1 : 0;
        }
        return n;
    }

    void assertOnlyMutantAcceptsTwice(RecoveryScheme scheme, Factory mutant, Function<ScmpServer, Integer> scenario) {
        assertThat(acceptances(scheme, ScmpServer::new, scenario)).as("real server").isLessThanOrEqualTo(1);
        assertThat(acceptances(scheme, mutant, scenario)).as("mutant").isEqualTo(2);
    }

    @Test
    void tooEarlySeamKeepsAcceptedBelowLatest() {
        // Fig. 2-2 rule 1; without it a message above latest is accepted, and after a crash the
        // recovered upper (stored latest) does not cover it.
        assertOnlyMutantAcceptsTwice(RecoveryScheme.RESILIENT,
                (c, k, s) -> new ScmpServer(c, k, s) {
                    @Override
                    protected boolean isTooEarly(long ts) {
                        return false;
                    }
                },
                s -> {
                    Verdict first = s.receive(C1, Timestamp.of(1050));
                    s.crash();
                    s.recover();
                    return count(first, s.receive(C1, Timestamp.of(1050)));
                });
    }

    @Test
    void isNewSeamRejectsEqualTimestamp() {
        // Fig. 2-1 rule 1a: "if m.ts <= G.CT[m.conn].ts" (not <) flag the message as a duplicate.
        assertOnlyMutantAcceptsTwice(RecoveryScheme.NON_RESILIENT,
                (c, k, s) -> new ScmpServer(c, k, s) {
                    @Override
                    protected boolean isNew(long ts, long bound) {
                        return ts >= bound;
                    }
                },
                s -> count(s.receive(C1, Timestamp.of(990)), s.receive(C1, Timestamp.of(990))));
    }

    @Test
    void raiseUpperSeamRemembersCollectedEntries() {
        // Fig. 2-1 Garbage Collection: "Then G.upper is set to the maximum of its former value and
        // the timestamps of the removed entries"; a collector that forgets upper forgets the message.
        assertOnlyMutantAcceptsTwice(RecoveryScheme.NON_RESILIENT,
                (c, k, s) -> new ScmpServer(c, k, s) {
                    @Override
                    protected void raiseUpper(String rhoClass, long ts) {
                    }
                },
                s -> {
                    Verdict first = s.receive(C1, Timestamp.of(950));
                    clock.set(1100);
                    s.collectGarbage();
                    return count(first, s.receive(C1, Timestamp.of(950)));
                });
    }

    @Test
    void persistLatestSeamMakesLatestDurableFirst() {
        // Fig. 2-2 Maintaining Latest: write to stable storage, "and then sets G.latest"; a latest
        // that is raised but never stored is lost by the crash, and recovery's upper is too low.
        assertOnlyMutantAcceptsTwice(RecoveryScheme.RESILIENT,
                (c, k, s) -> new ScmpServer(c, k, s) {
                    @Override
                    protected void persistLatest(long value) {
                    }
                },
                s -> {
                    clock.set(1100);
                    s.writeLatest();
                    Verdict first = s.receive(C1, Timestamp.of(1105));
                    s.crash();
                    s.recover();
                    s.writeLatest();
                    return count(first, s.receive(C1, Timestamp.of(1105)));
                });
    }

    @Test
    void recoveredUpperSeamUsesStoredLatest() {
        // Fig. 2-2 Crash Recovery: "Initialize G.upper to be the value of G.latest on stable storage."
        assertOnlyMutantAcceptsTwice(RecoveryScheme.RESILIENT,
                (c, k, s) -> new ScmpServer(c, k, s) {
                    @Override
                    protected long recoveredUpper(String rhoClass, long bound) {
                        return 0;
                    }
                },
                s -> {
                    Verdict first = s.receive(C1, Timestamp.of(1005));
                    s.crash();
                    s.recover();
                    return count(first, s.receive(C1, Timestamp.of(1005)));
                });
    }

    @Test
    void isRecoveringSeamRefusesDuringQuietPeriod() {
        // 2.2 monotonic alternative: "the server refuses all messages for a period of epsilon".
        assertOnlyMutantAcceptsTwice(RecoveryScheme.MONOTONIC,
                (c, k, s) -> new ScmpServer(c, k, s) {
                    @Override
                    protected boolean isRecovering() {
                        return false;
                    }
                },
                s -> {
                    Verdict first = s.receive(C1, Timestamp.of(1005));
                    s.crash();
                    s.recover();
                    return count(first, s.receive(C1, Timestamp.of(1005)));
                });
    }
}
