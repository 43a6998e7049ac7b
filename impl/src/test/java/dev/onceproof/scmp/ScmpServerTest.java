package dev.onceproof.scmp;

import static dev.onceproof.scmp.Verdict.ACCEPTED;
import static dev.onceproof.scmp.Verdict.DUPLICATE;
import static dev.onceproof.scmp.Verdict.RECOVERING;
import static dev.onceproof.scmp.Verdict.TOO_EARLY;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.storage.InMemoryStableStorage;
import dev.onceproof.storage.StableStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Scenario tests of the sequential core, one per rule of Figures 2-1 and 2-2. */
class ScmpServerTest {

    static final long BETA = 10;
    static final long EPSILON = 5;
    static final long RHO = 100;
    static final ConnId C1 = ConnId.of("c1");
    static final ConnId C2 = ConnId.of("c2");

    final ManualInstantSource clock = new ManualInstantSource(1000);
    final InMemoryStableStorage storage = new InMemoryStableStorage();

    ScmpServer server(RecoveryScheme scheme) {
        return new ScmpServer(ScmpConfig.singleClass(scheme, BETA, EPSILON, RHO), clock, storage);
    }

    static Timestamp ts(long t) {
        return Timestamp.of(t);
    }

    @Test
    void initialStateMatchesSpecInit() {
        // Fig. 2-2 Initialization: "G.upper is set to the minimum of zero and G.time - rho.
        // G.time + beta is written to stable storage and G.latest is set to this value."
        ScmpState s = server(RecoveryScheme.RESILIENT).state();
        assertThat(s).isEqualTo(new ScmpState(Map.of(), Map.of("default", 0L), 1010, 1010, true, 0, false));
        assertThat(storage.read()).hasValue(1010);

        ManualInstantSource early = new ManualInstantSource(30);
        ScmpServer young = new ScmpServer(ScmpConfig.singleClass(RecoveryScheme.NON_RESILIENT, BETA, EPSILON, RHO),
                early, new InMemoryStableStorage());
        assertThat(young.state()).isEqualTo(new ScmpState(Map.of(), Map.of("default", -70L), 0, 0, true, 0, false));
    }

    @Test
    void firstMessageOnNewConnectionIsAccepted() {
        // Fig. 2-1 rule 2b: no entry and m.ts > G.upper: accept and store m.ts in G.CT.
        ScmpServer s = server(RecoveryScheme.NON_RESILIENT);
        assertThat(s.receive(C1, ts(990))).isEqualTo(ACCEPTED);
        assertThat(s.state().ct()).containsExactlyEntriesOf(Map.of("c1", 990L));
    }

    @Test
    void duplicateWithEntryIsRejected() {
        // Fig. 2-1 rule 1a: "if m.ts <= G.CT[m.conn].ts, flag the message as a duplicate".
        ScmpServer s = server(RecoveryScheme.NON_RESILIENT);
        s.receive(C1, ts(990));
        assertThat(s.receive(C1, ts(990))).isEqualTo(DUPLICATE);
    }

    @Test
    void olderMessageOnConnectionIsRejected() {
        // Rule 1a also flags a reordered older message: accepted timestamps rise per connection.
        ScmpServer s = server(RecoveryScheme.NON_RESILIENT);
        s.receive(C1, ts(995));
        assertThat(s.receive(C1, ts(990))).isEqualTo(DUPLICATE);
        assertThat(s.receive(C1, ts(996))).isEqualTo(ACCEPTED);
        assertThat(s.receive(C2, ts(990))).isEqualTo(ACCEPTED);
    }

    @Test
    void collectGarbageRemovesOnlyOldEntries() {
        // 2.2: "G is free to remove an entry ... provided G.CT[C].ts <= G.time - rho".
        ScmpServer s = server(RecoveryScheme.NON_RESILIENT);
        s.receive(C1, ts(900));
        s.receive(C2, ts(901));
        assertThat(s.collectGarbage(C2)).isFalse();
        assertThat(s.collectGarbage()).isEqualTo(1);
        assertThat(s.state().ct()).containsOnlyKeys("c2");
        assertThat(s.state().upper()).containsEntry("default", 900L);
    }

    @Test
    void duplicateAfterGarbageCollectionIsRejected() {
        // 2.3: "Since this entry no longer exists it must have been discarded, and when it was
        // discarded, G.upper was adjusted such that m.ts <= G.upper".
        ScmpServer s = server(RecoveryScheme.NON_RESILIENT);
        s.receive(C1, ts(950));
        clock.set(1100);
        assertThat(s.collectGarbage(C1)).isTrue();
        assertThat(s.receive(C1, ts(950))).isEqualTo(DUPLICATE);
        assertThat(s.receive(C2, ts(940))).isEqualTo(DUPLICATE);
    }

    @Test
    void messageAboveLatestIsTooEarly() {
        // Fig. 2-2 rule 1: "If m.ts > G.latest, refuse the message since it is too early."
        ScmpServer s = server(RecoveryScheme.RESILIENT);
        assertThat(s.receive(C1, ts(1011))).isEqualTo(TOO_EARLY);
        assertThat(s.receive(C1, ts(1010))).isEqualTo(ACCEPTED);
        assertThat(s.state().ct()).containsEntry("c1", 1010L);
    }

    @Test
    void tooEarlyMessageIsAcceptedOnceLatestRises() {
        // 2.2: "we need not discard a message that arrives too early; instead we can just delay".
        ScmpServer s = server(RecoveryScheme.RESILIENT);
        assertThat(s.receive(C1, ts(1015))).isEqualTo(TOO_EARLY);
        clock.set(1005);
        assertThat(s.writeLatest()).isEqualTo(1015);
        assertThat(s.receive(C1, ts(1015))).isEqualTo(ACCEPTED);
    }

    @Test
    void duplicateAfterCrashIsRejected() {
        // 2.3: "G.latest_precrash <= G.upper_postcrash ... if the second copy arrives after the
        // crash, it will be flagged as a duplicate by rule 3a since m.ts <= G.upper".
        ScmpServer s = server(RecoveryScheme.RESILIENT);
        assertThat(s.receive(C1, ts(1008))).isEqualTo(ACCEPTED);
        s.crash();
        clock.set(1500);
        s.recover();
        assertThat(s.state().upper()).containsEntry("default", 1010L);
        assertThat(s.state().latest()).isEqualTo(1510);
        assertThat(s.receive(C1, ts(1008))).isEqualTo(DUPLICATE);
    }

    @Test
    void messagesSentAfterCrashPlusBetaAreAccepted() {
        // 2.4: "even in the worst case we will accept all messages sent after t_cr + beta".
        ScmpServer s = server(RecoveryScheme.RESILIENT);
        clock.set(1200);
        s.writeLatest();
        s.crash();                      // t_cr = 1200, stored latest 1210
        clock.set(1300);
        s.recover();
        assertThat(s.receive(C1, ts(1210))).isEqualTo(DUPLICATE);
        assertThat(s.receive(C1, ts(1211))).isEqualTo(ACCEPTED);
    }

    @Test
    void nonResilientServerForgetsMessagesAcrossCrash() {
        // Fig. 2-1 describes "servers that do not survive crashes": a recovered non-resilient server
        // is a new server, so a copy of a pre-crash message is new to it. This is why the safety
        // properties restart the history at a non-resilient crash, and why SCMP.tla models none.
        ScmpServer s = server(RecoveryScheme.NON_RESILIENT);
        assertThat(s.receive(C1, ts(990))).isEqualTo(ACCEPTED);
        s.crash();
        s.recover();
        assertThat(s.receive(C1, ts(990))).isEqualTo(ACCEPTED);
    }

    @Test
    void writeLatestIsDurableBeforeLatestRises() {
        // Fig. 2-2: "G writes G.time + beta to stable storage and then sets G.latest".
        FailingStorage failing = new FailingStorage();
        ScmpServer s = new ScmpServer(ScmpConfig.singleClass(RecoveryScheme.RESILIENT, BETA, EPSILON, RHO),
                clock, failing);
        clock.set(1100);
        failing.fail = true;
        assertThatThrownBy(s::writeLatest).hasMessageContaining("disk");
        assertThat(s.state().latest()).isEqualTo(1010);
        assertThat(s.receive(C1, ts(1050))).isEqualTo(TOO_EARLY);
    }

    @Test
    void storedLatestNeverGoesBackwardsWhenClockJumpsBack() {
        // 2.3: "The server merely ensures that the value of G.latest on stable storage is monotonic."
        ScmpServer s = server(RecoveryScheme.RESILIENT);
        clock.set(2000);
        s.writeLatest();
        clock.set(500);
        assertThat(s.writeLatest()).isEqualTo(2010);
        s.crash();
        s.recover();
        assertThat(storage.read()).hasValue(2010);
        assertThat(s.state().upper()).containsEntry("default", 2010L);
        assertThat(s.state().latest()).isEqualTo(2010);
    }

    @Test
    void monotonicMessageAboveClockPlusEpsilonIsTooEarly() {
        // 2.2: "the server treats messages as too early if m.ts > G.time + epsilon".
        ScmpServer s = server(RecoveryScheme.MONOTONIC);
        assertThat(s.receive(C1, ts(1006))).isEqualTo(TOO_EARLY);
        assertThat(s.receive(C1, ts(1005))).isEqualTo(ACCEPTED);
    }

    @Test
    void monotonicDuplicateAfterCrashIsRejected() {
        // 2.2: "When restarting after a crash, the server refuses all messages for a period of
        // epsilon, then sets G.upper to G.time and begins normal processing."
        ScmpServer s = server(RecoveryScheme.MONOTONIC);
        assertThat(s.receive(C1, ts(1005))).isEqualTo(ACCEPTED);
        s.crash();
        s.recover();
        assertThat(s.state().refuseUntil()).isEqualTo(1005);
        assertThat(s.receive(C1, ts(1005))).isEqualTo(RECOVERING);
        clock.set(1004);
        assertThatThrownBy(s::finishRecovery).hasMessage(
                "clock 1004 is below refuseUntil 1005; recovery lasts epsilon (2.2)");
        clock.set(1005);
        s.finishRecovery();
        assertThat(s.state().upper()).containsEntry("default", 1005L);
        assertThat(s.receive(C1, ts(1005))).isEqualTo(DUPLICATE);
        assertThat(s.receive(C1, ts(1006))).isEqualTo(ACCEPTED);
    }

    @Test
    void eachRhoClassHasItsOwnUpper() {
        // End of 2.4: "use different rhos for different classes of clients ... it would need to
        // maintain a different G.upper for each category".
        ScmpConfig config = new ScmpConfig(RecoveryScheme.NON_RESILIENT, BETA, EPSILON,
                Map.of("fast", new FixedRho(50), "slow", new FixedRho(300)),
                c -> c.value().startsWith("s") ? "slow" : "fast");
        ScmpServer s = new ScmpServer(config, clock, storage);
        ConnId fast = ConnId.of("f1");
        ConnId slow = ConnId.of("s1");
        s.receive(fast, ts(900));
        s.receive(slow, ts(900));
        assertThat(s.collectGarbage()).isEqualTo(1);   // 900 <= 1000 - 50, but not <= 1000 - 300
        assertThat(s.state().upper()).isEqualTo(Map.of("fast", 900L, "slow", 0L));
        assertThat(s.receive(ConnId.of("f2"), ts(850))).isEqualTo(DUPLICATE);
        assertThat(s.receive(ConnId.of("s2"), ts(850))).isEqualTo(ACCEPTED);
    }

    @Test
    void estimatorHearsEveryMessageAndOneBeginPerClassPerPass() {
        RecordingEstimator fast = new RecordingEstimator(50);
        RecordingEstimator slow = new RecordingEstimator(300);
        ScmpConfig config = new ScmpConfig(RecoveryScheme.RESILIENT, BETA, EPSILON,
                Map.of("fast", fast, "slow", slow), c -> c.value().startsWith("s") ? "slow" : "fast");
        ScmpServer s = new ScmpServer(config, clock, storage);
        s.receive(ConnId.of("f1"), ts(900));
        clock.set(1100);
        s.collectGarbage();
        s.receive(ConnId.of("f2"), ts(880));   // summary rejection: no entry, ts <= upper 900
        s.receive(ConnId.of("f1"), ts(2000));  // too early
        assertThat(fast.messages).containsExactly("100 ACCEPTED false", "220 DUPLICATE true",
                "-900 TOO_EARLY false");
        assertThat(fast.begins).isEqualTo(1);
        assertThat(slow.begins).isEqualTo(1);
        assertThat(slow.messages).isEmpty();
    }

    @Test
    void brokenContractsAreExceptionsNamingTheRule() {
        ScmpServer s = server(RecoveryScheme.RESILIENT);
        s.crash();
        assertThatThrownBy(() -> s.receive(C1, ts(1)))
                .hasMessage("receive needs an up server; it crashed and recover() was not called");
        assertThatThrownBy(s::crash).isInstanceOf(IllegalStateException.class);
        s.recover();
        assertThatThrownBy(s::recover).hasMessage("recover needs a crashed server; this one is up");
        assertThatThrownBy(s::finishRecovery).hasMessageContaining("belongs to the MONOTONIC scheme");
        assertThatThrownBy(() -> server(RecoveryScheme.RESILIENT))
                .hasMessageContaining("stable storage already holds latest 1010");
        ScmpServer monotonic = new ScmpServer(
                ScmpConfig.singleClass(RecoveryScheme.MONOTONIC, BETA, EPSILON, RHO), clock, storage);
        assertThatThrownBy(monotonic::writeLatest).hasMessageContaining("belongs to the RESILIENT scheme");
        ScmpConfig badClassifier = new ScmpConfig(RecoveryScheme.NON_RESILIENT, BETA, EPSILON,
                Map.of("k1", new FixedRho(RHO)), c -> "k9");
        ScmpServer misclassified = new ScmpServer(badClassifier, clock, storage);
        assertThatThrownBy(() -> misclassified.receive(C1, ts(1)))
                .hasMessage("classifier put connection c1 in rho class \"k9\", which is not one of [k1]");
    }

    @Test
    void restartRecoversFromStoredLatest() {
        storage.write(5000);
        ScmpServer s = ScmpServer.restart(ScmpConfig.singleClass(RecoveryScheme.RESILIENT, BETA, EPSILON, RHO),
                clock, storage);
        assertThat(s.state()).isEqualTo(new ScmpState(Map.of(), Map.of("default", 5000L), 5000, 5000, true, 0, false));
        assertThat(s.receive(C1, ts(5000))).isEqualTo(DUPLICATE);
        assertThatThrownBy(() -> ScmpServer.restart(
                ScmpConfig.singleClass(RecoveryScheme.RESILIENT, BETA, EPSILON, RHO), clock, new InMemoryStableStorage()))
                .hasMessageContaining("stable storage holds no latest");
    }

    static final class FailingStorage implements StableStorage {
        final InMemoryStableStorage inner = new InMemoryStableStorage();
        boolean fail;

        @Override
        public OptionalLong read() {
            return inner.read();
        }

        @Override
        public void write(long latest) {
            if (fail) {
                throw new java.io.UncheckedIOException(new java.io.IOException("disk full"));
            }
            inner.write(latest);
        }
    }

    static final class RecordingEstimator implements LifetimeEstimator {
        final long rho;
        final boolean observes;
        final List<String> messages = new ArrayList<>();
        int begins;

        RecordingEstimator(long rho) {
            this(rho, true);
        }

        /** @param observes what {@link #observesMessages()} answers */
        RecordingEstimator(long rho, boolean observes) {
            this.rho = rho;
            this.observes = observes;
        }

        @Override
        public boolean observesMessages() {
            return observes;
        }

        @Override
        public void onMessage(long lifetime, Verdict verdict, boolean summaryRejected) {
            messages.add(lifetime + " " + verdict + " " + summaryRejected);
        }

        @Override
        public long beginGarbageCollection() {
            begins++;
            return rho;
        }

        @Override
        public long current() {
            return rho;
        }
    }
}
