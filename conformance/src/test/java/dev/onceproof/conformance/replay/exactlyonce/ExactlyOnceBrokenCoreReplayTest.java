package dev.onceproof.conformance.replay.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.TraceReplayer;
import dev.onceproof.exactlyonce.ClientCore;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.EoClock;
import dev.onceproof.exactlyonce.S3Server;
import dev.onceproof.exactlyonce.S3Variant;
import dev.onceproof.exactlyonce.ServerConfig;
import dev.onceproof.exactlyonce.ServerCore;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerOp;
import dev.onceproof.exactlyonce.EoSeams;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The spec-to-core link must be able to fail (DESIGN.md): each test builds one core with a
 * safeguard removed (through the replayer's core factory and the cores' own seams) and shows that
 * replaying a stored exactly-once trace of the scenario stops where the core leaves the spec.
 */
class ExactlyOnceBrokenCoreReplayTest {

    private final Repo repo = Repo.locate();

    private ReplayResult replay(String spec, String trace, Cores.Factory broken) {
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard().with(new ExactlyOnceReplayer(spec, broken)));
        return replayer.replay(repo.traces().resolve("exactlyonce").resolve(trace));
    }

    /** Every stored trace of the family replays on the real cores (the registry's replayers). */
    @Test
    void storedExactlyOnceTracesReplay() throws Exception {
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard());
        try (var files = java.nio.file.Files.list(repo.traces().resolve("exactlyonce"))) {
            var all = files.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList();
            assertThat(all).hasSizeGreaterThanOrEqualTo(20);
            for (var f : all) {
                ReplayResult r = replayer.replay(f);
                assertThat(r.passed()).as(r.report()).isTrue();
            }
        }
    }

    /**
     * ExactlyOnceS1Msg's rule "merge" (issue 19 item 1): a server that takes a stale sync message's
     * prefix as it comes moves its prefix back; the replay of the stale-sync trace stops at that merge.
     */
    @Test
    void strategyOneServerThatOverwritesItsPrefixIsCaughtAtTheStaleMerge() {
        ReplayResult r = replay("ExactlyOnceS1Msg", "exactlyonce-s1msg-stale.jsonl", new Cores.Factory() {
            @Override
            public ServerCore server(String spec, ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
                return (ServerCore) dev.onceproof.exactlyonce.EoSeams.prefixOverwrite(
                        Cores.strategyConfig(spec, config.client(), config.servers(), config.te(), w, 0))
                        .server(config.self(), clock, durable);
            }

            @Override
            public ClientCore client(String spec, ClientId id, int w, int q, ClientStableState stored) {
                return Cores.Factory.REAL.client(spec, id, w, q, stored);
            }
        });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isIn("HandleSync", "ReceiveSyncReply");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).anyMatch(f -> f.startsWith("pre"));
    }

    /** A factory of real cores whose Strategy 0 servers forget without the guard named (EoSeams). */
    private static Cores.Factory s0ForgetWithout(boolean confirmed, boolean te) {
        return new Cores.Factory() {
            @Override
            public ServerCore server(String spec, ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
                return EoSeams.s0ForgetWithout(config, clock, durable, confirmed, te);
            }

            @Override
            public ClientCore client(String spec, ClientId id, int w, int q, ClientStableState stored) {
                return Cores.Factory.REAL.client(spec, id, w, q, stored);
            }
        };
    }

    /**
     * ExactlyOnceS0Msg's Forget (issue 19 item 1): a Strategy 0 server whose forget rule does not
     * wait for the other server's confirmation (MutS0MsgForgetUnconfirmed) opens its gate as soon
     * as it acks the note; the replay of the forget trace stops there, at A's ReceiveAck.
     */
    @Test
    void strategyZeroServerThatForgetsUnconfirmedIsCaughtAtTheAck() {
        ReplayResult r = replay("ExactlyOnceS0Msg", "exactlyonce-s0msg-forget.jsonl", s0ForgetWithout(true, false));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ReceiveAck");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).containsExactly("forgetGate[A][n1]");
    }

    /**
     * Issue 20 item 3, the T_e gate in replay: ExactlyOnceS0MsgTimed's trace moves the cores' clock
     * as its Ticks say, so after B's confirmation the spec's gate is shut for T_e. A core whose
     * forget does not wait opens there, and the replay stops at that step (the confirmation), long
     * before the trace's Forget.
     */
    @Test
    void strategyZeroServerThatForgetsBeforeTeIsCaughtInTheTimedTrace() {
        ReplayResult r = replay("ExactlyOnceS0MsgTimed", "exactlyonce-s0msg-timed-refused.jsonl",
                s0ForgetWithout(false, true));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isIn("HandleSync", "ReceiveSyncReply");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).allMatch(f -> f.startsWith("forgetGate["));
    }

    /**
     * The same for Strategy 2's Condition 1 (ExactlyOnceS2Timed): a core that reuses a number as
     * soon as every peer confirmed its successor gone, without waiting T_e, opens its gate at the
     * sync that brings the confirmation, where the trace's gate is shut.
     */
    @Test
    void strategyTwoServerThatReusesBeforeTeIsCaughtInTheTimedTrace() {
        ReplayResult r = replay("ExactlyOnceS2Timed", "exactlyonce-s2-timed-refused.jsonl", new Cores.Factory() {
            @Override
            public ServerCore server(String spec, ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
                return EoSeams.s2WithoutTeWait(config, clock, w, durable);
            }

            @Override
            public ClientCore client(String spec, ClientId id, int w, int q, ClientStableState stored) {
                return Cores.Factory.REAL.client(spec, id, w, q, stored);
            }
        });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("Sync");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).containsExactly("conditionOne[A]");
    }

    /** The same trace: a forget the core makes without journaling it is caught at the Forget. */
    @Test
    void strategyZeroServerThatDoesNotJournalItsForgetIsCaughtAtTheForget() {
        ReplayResult r = replay("ExactlyOnceS0Msg", "exactlyonce-s0msg-forget.jsonl",
                notJournaling(ServerOp.DropRemoved.class));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("Forget");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).allMatch(f -> f.startsWith("store."));
    }

    @Test
    void clientThatKeepsRInVolatileMemoryIsCaught() {
        // L77 / mutant "R volatile": R must survive a client crash.
        ReplayResult r = replay("ExactlyOnceS1", "exactlyonce-s1-client-crash.jsonl", new Cores.Factory() {
            @Override
            public ServerCore server(String spec, ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
                return Cores.Factory.REAL.server(spec, config, clock, w, durable);
            }

            @Override
            public ClientCore client(String spec, ClientId id, int w, int q, ClientStableState stored) {
                return Cores.Factory.REAL.client(spec, id, w, q, new ClientStableState.Streams(new TreeMap<>()));
            }
        });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ClientCrash");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).anyMatch(f -> f.startsWith("R."));
    }

    /** A factory of real cores whose servers leave operations of {@code kind} out of their records. */
    private static Cores.Factory notJournaling(Class<? extends ServerOp> kind) {
        return new Cores.Factory() {
            @Override
            public ServerCore server(String spec, ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
                return EoSeams.withoutJournaling(Cores.Factory.REAL.server(spec, config, clock, w, durable), kind);
            }

            @Override
            public ClientCore client(String spec, ClientId id, int w, int q, ClientStableState stored) {
                return Cores.Factory.REAL.client(spec, id, w, q, stored);
            }
        };
    }

    /**
     * Replay checks the store (issue 19 item 2): a Strategy 3 server that adds a delivered note to
     * D without journaling it still behaves as the spec says, so only the store check sees it:
     * after the first acknowledgement, the journal reopened lacks the note in D.
     */
    @Test
    void strategyThreeServerThatDoesNotJournalAnAddToDIsCaughtAtTheAck() {
        ReplayResult r = replay("ExactlyOnceS3", "exactlyonce-s3-purge.jsonl", notJournaling(ServerOp.AddD.class));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ReceiveAck");
        assertThat(r.failure().mismatches()).extracting(m -> m.field())
                .allMatch(f -> f.startsWith("store.") && f.endsWith("(the journal reopened)"));
    }

    /** The same for Strategy 1's prefix: a removal not journaled is caught at the ack that makes it. */
    @Test
    void strategyOneServerThatDoesNotJournalItsPrefixIsCaughtAtTheAck() {
        ReplayResult r = replay("ExactlyOnceS1", "exactlyonce-s1-client-crash.jsonl",
                notJournaling(ServerOp.AddRemoved.class));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ReceiveAck");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).allMatch(f -> f.startsWith("store."));
    }

    @Test
    void serverThatLosesKAndDInACrashIsCaught() {
        // Notes Z13: K and D are durable; a server that restarts empty has forgotten them.
        ReplayResult r = replay("ExactlyOnceS1", "exactlyonce-s1-sim-seed1.jsonl", new Cores.Factory() {
            @Override
            public ServerCore server(String spec, ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
                return Cores.Factory.REAL.server(spec, config, clock, w, ServerDurableState.initial());
            }

            @Override
            public ClientCore client(String spec, ClientId id, int w, int q, ClientStableState stored) {
                return Cores.Factory.REAL.client(spec, id, w, q, stored);
            }
        });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ServerCrash");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).anyMatch(f -> f.startsWith("K."));
    }

    @Test
    void correctedSessionCannotReplayTheRaceOfThePrintedPseudoCode() {
        // Race R3: the printed A.4 walks a snapshot U taken at the session's start; the corrected
        // core keeps none (it re-checks K - D at every send), so replay tells the two loops apart at
        // the first session.
        ReplayResult r = replay("ExactlyOnceS3Printed", "exactlyonce-s3-printed-r3.jsonl", new Cores.Factory() {
            @Override
            public ServerCore server(String spec, ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
                return new S3Server(config, clock, S3Variant.CORRECTED, durable);
            }

            @Override
            public ClientCore client(String spec, ClientId id, int w, int q, ClientStableState stored) {
                return Cores.Factory.REAL.client(spec, id, w, q, stored);
            }
        });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("StartSession");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).containsExactly("U.A");
    }

    @Test
    void serverWhoseLifetimeWaitNeverEndsIsCaughtAtAuthorize() {
        // L131: the purge waits until no copy can linger; the core's T_e wait must end when the
        // spec's NoCopy guard holds. A core whose wait never ends fails the trace's Authorize step.
        ReplayResult r = replay("ExactlyOnceS3", "exactlyonce-s3-purge.jsonl", new Cores.Factory() {
            @Override
            public ServerCore server(String spec, ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
                ServerConfig alone = new ServerConfig(config.self(), config.client(),
                        new TreeSet<>(config.servers()), Long.MAX_VALUE / 4);
                return new S3Server(alone, clock, S3Variant.CORRECTED, durable);
            }

            @Override
            public ClientCore client(String spec, ClientId id, int w, int q, ClientStableState stored) {
                return Cores.Factory.REAL.client(spec, id, w, q, stored);
            }
        });
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("Authorize");
    }
}
