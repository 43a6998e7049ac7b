package dev.onceproof.conformance.replay.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.TraceReplayer;
import dev.onceproof.exactlyonce.ClientCore;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.EoSeams;
import dev.onceproof.exactlyonce.EoClock;
import dev.onceproof.exactlyonce.S3Server;
import dev.onceproof.exactlyonce.S3Variant;
import dev.onceproof.exactlyonce.ServerConfig;
import dev.onceproof.exactlyonce.ServerCore;
import dev.onceproof.exactlyonce.ServerDurableState;
import java.util.TreeSet;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The T_e purge gate replayed with the spec's clock (ExactlyOnceS3Timed, issue 20 items 3 and 6):
 * the stored trace confirms n1 at tick 0 and purges it at tick 2 with T_e = 2. Replay asks each
 * core's gate after every step, so a core built with another T_e than the trace's (the seam: the
 * ServerConfig the factory passes) is stopped where its gate and the spec's part.
 */
class ExactlyOnceTimedGateReplayTest {

    private static final String TRACE = "exactlyonce-s3-timed-purge.jsonl";

    private final Repo repo = Repo.locate();

    /** A lone server that crashes after the ack, reconfirms n1 at the restart and purges it T_e later. */
    private static final String LONE_RESTART = "exactlyonce-s3-timed-lone-restart.jsonl";

    private ReplayResult replay(TraceReplayer replayer) {
        return replay(replayer, TRACE);
    }

    private ReplayResult replay(TraceReplayer replayer, String trace) {
        return replayer.replay(repo.traces().resolve("exactlyonce").resolve(trace));
    }

    /** A factory of real S3 servers whose T_e is {@code te} applied to the trace's. */
    private static Cores.Factory withTe(LongUnaryOperator te) {
        return new Cores.Factory() {
            @Override
            public ServerCore server(String spec, ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
                ServerConfig changed = new ServerConfig(config.self(), config.client(),
                        new TreeSet<>(config.servers()), te.applyAsLong(config.te()));
                return new S3Server(changed, clock, S3Variant.CORRECTED, durable);
            }

            @Override
            public ClientCore client(String spec, ClientId id, int w, int q, ClientStableState stored) {
                return Cores.Factory.REAL.client(spec, id, w, q, stored);
            }
        };
    }

    private ReplayResult replayWith(Cores.Factory factory) {
        return replayWith(factory, TRACE);
    }

    private ReplayResult replayWith(Cores.Factory factory, String trace) {
        return replay(new TraceReplayer(ReplayerRegistry.standard()
                .with(new ExactlyOnceReplayer("ExactlyOnceS3Timed", factory))), trace);
    }

    /** Real S3 servers whose restarts do not reconfirm (the core before the server SIGKILL run's finding). */
    private static final Cores.Factory WITHOUT_RECONFIRM = new Cores.Factory() {
        @Override
        public ServerCore server(String spec, ServerConfig config, EoClock clock, int w, ServerDurableState durable) {
            return EoSeams.withoutReconfirm(new S3Server(config, clock, S3Variant.CORRECTED, durable));
        }

        @Override
        public ClientCore client(String spec, ClientId id, int w, int q, ClientStableState stored) {
            return Cores.Factory.REAL.client(spec, id, w, q, stored);
        }
    };

    @Test
    void theRealCoresFollowTheSpecsClockThroughTheWait() {
        ReplayResult r = replay(new TraceReplayer(ReplayerRegistry.standard()));
        assertThat(r.passed()).as(r.report()).isTrue();
        assertThat(r.spec()).isEqualTo("ExactlyOnceS3Timed");
    }

    @Test
    void theSameCoresWithTheTraceTeArePassedThroughTheSeam() {
        // The control of the two below: the seam itself, with T_e unchanged, breaks nothing.
        ReplayResult r = replayWith(withTe(te -> te));
        assertThat(r.passed()).as(r.report()).isTrue();
    }

    @Test
    void aServerThatIgnoresTeIsCaughtWhenTheNoteIsConfirmed() {
        // L131, Z4: with T_e = 0 the gate opens at the sync that confirms n1, two ticks early.
        ReplayResult r = replayWith(withTe(te -> 0));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("Sync");
        assertThat(r.report()).contains("gate[");
    }

    @Test
    void aServerThatWaitsOneTickTooLongIsCaughtWhenTheWaitIsOver() {
        ReplayResult r = replayWith(withTe(te -> te + 1));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("Tick");
        assertThat(r.failure().params().get("now").asLong()).isEqualTo(2);
    }

    @Test
    void aLoneServerReconfirmsAtItsRestartAndPurgesTeLater() {
        ReplayResult r = replay(new TraceReplayer(ReplayerRegistry.standard()), LONE_RESTART);
        assertThat(r.passed()).as(r.report()).isTrue();
        assertThat(r.spec()).isEqualTo("ExactlyOnceS3Timed");
    }

    @Test
    void aLoneServerThatDoesNotReconfirmIsCaughtWhenTheSpecsGateOpens() {
        // Its gate stays shut after the restart; the spec's opens at the first tick after it.
        ReplayResult r = replayWith(WITHOUT_RECONFIRM, LONE_RESTART);
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("Tick");
        assertThat(r.report()).contains("gate[A][n1]");
    }
}
