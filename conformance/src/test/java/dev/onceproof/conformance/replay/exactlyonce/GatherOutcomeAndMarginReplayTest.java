package dev.onceproof.conformance.replay.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.TraceReplayer;
import dev.onceproof.exactlyonce.ClientHistory;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.EoClock;
import dev.onceproof.exactlyonce.GatherClient;
import dev.onceproof.exactlyonce.GatherConfig;
import dev.onceproof.exactlyonce.GatherDurableState;
import dev.onceproof.exactlyonce.GatherSeams;
import dev.onceproof.exactlyonce.GatherServer;
import dev.onceproof.exactlyonce.ServerConfig;
import dev.onceproof.exactlyonce.Strategy;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 20 item 6, the deferral and margin paths: replay of the stored traces in which an aDeliver
 * outcome is delayed (ExactlyOnceS4/5/6Outcome) and in which a freshness decision rests on the
 * cores' margins (ExactlyOnceS5/S6 with T_e = 1, 2*skew = 2 and a clock offset), each shown to stop
 * a core broken through a seam where it leaves the spec, and to pass the real core. Traces are
 * chosen by content (the first stored trace of the spec with the step that matters), as in
 * {@link GatherBrokenCoreReplayTest}.
 */
class GatherOutcomeAndMarginReplayTest {

    private final Repo repo = Repo.locate();
    private static final ObjectMapper JSON = new ObjectMapper();

    private ReplayResult replay(String spec, Path trace, GatherCores.Factory cores) {
        return new TraceReplayer(ReplayerRegistry.standard().with(ExactlyOnceReplayer.gather(spec, cores)))
                .replay(trace);
    }

    /** The first stored trace of {@code spec} whose header and some step satisfy the predicates. */
    private Path traceWith(String spec, String what, Predicate<JsonNode> header, Predicate<JsonNode> step)
            throws IOException {
        try (Stream<Path> files = Files.list(repo.traces().resolve("exactlyonce"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                JsonNode h = JSON.readTree(lines.get(0));
                if (!h.path("spec").asText().equals(spec) || !header.test(h)) {
                    continue;
                }
                for (String line : lines.subList(1, lines.size())) {
                    if (step.test(JSON.readTree(line))) {
                        return f;
                    }
                }
            }
        }
        throw new AssertionError("no stored " + spec + " trace has " + what);
    }

    private Path traceWithAction(String spec, String action) throws IOException {
        return traceWith(spec, "a " + action + " step", h -> true, s -> s.path("action").asText().equals(action));
    }

    /** A trace of {@code spec} run with both margins set and a StartSession in it. */
    private Path marginTrace(String spec) throws IOException {
        return traceWith(spec, "T_e > 0, SkewAllowance > 0 and a StartSession",
                h -> h.path("constants").path("Te").asLong(0) > 0
                        && h.path("constants").path("SkewAllowance").asLong(0) > 0,
                s -> s.path("action").asText().equals("StartSession"));
    }

    /** A factory whose servers {@code server} builds; the clients are the real ones. */
    private static GatherCores.Factory servers(ServerMaker server) {
        return new GatherCores.Factory() {
            @Override
            public GatherServer server(String spec, GatherConfig config, EoClock clock, GatherDurableState durable) {
                return server.make(spec, config, clock, durable);
            }

            @Override
            public GatherClient client(String spec, ClientId id, EoClock clock, long tr, OptionalLong lastEnd,
                    ClientHistory stored) {
                return GatherCores.Factory.REAL.client(spec, id, clock, tr, lastEnd, stored);
            }
        };
    }

    private interface ServerMaker {
        GatherServer make(String spec, GatherConfig config, EoClock clock, GatherDurableState durable);
    }

    /** The real cores with the deferral off (the seam ExactlyOnceS4Deliver's replay uses). */
    private static final GatherCores.Factory REVEALS_D_WHILE_UNKNOWN = servers((spec, config, clock, durable) ->
            GatherCores.Factory.REAL.server(spec, config.withPlainDeliver(), clock, durable));

    /** The real cores, but a sync to one peer answers while an outcome is unknown (GatherServer's seam). */
    private static final GatherCores.Factory ANSWERS_PEER_SYNC_WHILE_UNRESOLVED = servers((spec, config, clock, durable) ->
            GatherSeams.answersPeerSyncWhileUnresolved(GatherCores.Factory.REAL.server(spec, config, clock, durable)));

    /** The real cores with T_e left out of the freshness window and margin (built with T_e = 0). */
    private static final GatherCores.Factory TE_LEFT_OUT = servers((spec, config, clock, durable) ->
            GatherCores.Factory.REAL.server(spec, new GatherConfig(new ServerConfig(config.self(), config.client(),
                    config.servers().servers(), 0), config.strategy(), config.tr(), config.tu(), config.skew()),
                    clock, durable));

    /** The real cores with the 2*skew left out of the freshness tests (GatherConfig's seam, via GatherSeams). */
    private static final GatherCores.Factory SKEW_LEFT_OUT = servers((spec, config, clock, durable) ->
            GatherSeams.skewLeftOutOfFreshness(config, clock, durable));

    private void caughtAt(ReplayResult r, String action, String field) {
        assertThat(r.passed()).as(r.report()).isFalse();
        assertThat(r.failure().action()).isEqualTo(action);
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).anyMatch(f -> f.startsWith(field));
    }

    // ---- the deferral path (issue 20 item 2) -----------------------------------------------------

    @Test
    void aServerThatAnswersForItsDWhileAnOutcomeIsUnknownIsCaught() throws IOException {
        // L185, L193: a D without the note of an unresolved call reads as "not delivered".
        Path trace = traceWithAction("ExactlyOnceS4Outcome", "DeferReplyD");
        assertThat(replay("ExactlyOnceS4Outcome", trace, GatherCores.Factory.REAL).passed()).isTrue();
        caughtAt(replay("ExactlyOnceS4Outcome", trace, REVEALS_D_WHILE_UNKNOWN), "DeferReplyD", "DeferReplyD.outcome");
    }

    @Test
    void aServerThatAnswersOnePeersSyncWhileAnOutcomeIsUnknownIsCaught() throws IOException {
        // The single-peer sync (a PurgeSync's half) would carry a D without the unresolved note.
        // Only sync(t) is broken: replyD, syncAll and endGather still defer, so the trace's
        // DeferReplyD/DeferEndGather steps pass and DeferPurgeSync is where it is caught.
        Path trace = traceWithAction("ExactlyOnceS4Outcome", "DeferPurgeSync");
        assertThat(replay("ExactlyOnceS4Outcome", trace, GatherCores.Factory.REAL).passed()).isTrue();
        caughtAt(replay("ExactlyOnceS4Outcome", trace, ANSWERS_PEER_SYNC_WHILE_UNRESOLVED), "DeferPurgeSync",
                "DeferPurgeSync.outcome");
    }

    @Test
    void aStrategy5ServerThatSyncsWhileAnOutcomeIsUnknownIsCaught() throws IOException {
        Path trace = traceWithAction("ExactlyOnceS5Outcome", "DeferSync");
        assertThat(replay("ExactlyOnceS5Outcome", trace, GatherCores.Factory.REAL).passed()).isTrue();
        caughtAt(replay("ExactlyOnceS5Outcome", trace, REVEALS_D_WHILE_UNKNOWN), "DeferSync", "DeferSync.outcome");
    }

    @Test
    void aStrategy6ServerThatPushesWhileAnOutcomeIsUnknownIsCaught() throws IOException {
        Path trace = traceWithAction("ExactlyOnceS6Outcome", "DeferSync");
        assertThat(replay("ExactlyOnceS6Outcome", trace, GatherCores.Factory.REAL).passed()).isTrue();
        caughtAt(replay("ExactlyOnceS6Outcome", trace, REVEALS_D_WHILE_UNKNOWN), "DeferSync", "DeferSync.outcome");
    }

    @Test
    void aStrategy5ServerWhosePeerSyncAnswersWhileAnOutcomeIsUnknownIsCaughtAtItsPeriodicSync() throws IOException {
        // A runtime sends its periodic sync as one sync(t) per peer (GatherNodeMain), so DeferSync
        // asks those too; MutS5PeriodicSyncWhileUnknown is the duplicate such a sync allows.
        Path trace = traceWithAction("ExactlyOnceS5Outcome", "DeferSync");
        caughtAt(replay("ExactlyOnceS5Outcome", trace, ANSWERS_PEER_SYNC_WHILE_UNRESOLVED), "DeferSync",
                "DeferSync.sync(");
    }

    @Test
    void aStrategy6ServerWhosePeerSyncAnswersWhileAnOutcomeIsUnknownIsCaughtAtItsPushSync() throws IOException {
        Path trace = traceWithAction("ExactlyOnceS6Outcome", "DeferSync");
        caughtAt(replay("ExactlyOnceS6Outcome", trace, ANSWERS_PEER_SYNC_WHILE_UNRESOLVED), "DeferSync",
                "DeferSync.sync(");
    }

    // ---- the margin path (issue 20 item 3) -------------------------------------------------------

    @Test
    void aStrategy5ServerWithoutTheTeMarginIsCaught() throws IOException {
        Path trace = marginTrace("ExactlyOnceS5");
        assertThat(replay("ExactlyOnceS5", trace, GatherCores.Factory.REAL).passed()).isTrue();
        caughtAt(replay("ExactlyOnceS5", trace, TE_LEFT_OUT), "StartSession", "sess");
    }

    @Test
    void aStrategy5ServerWithoutTheSkewMarginIsCaught() throws IOException {
        Path trace = marginTrace("ExactlyOnceS5");
        caughtAt(replay("ExactlyOnceS5", trace, SKEW_LEFT_OUT), "StartSession", "sess");
    }

    @Test
    void aStrategy6ServerWithoutTheTeMarginIsCaught() throws IOException {
        Path trace = marginTrace("ExactlyOnceS6");
        assertThat(replay("ExactlyOnceS6", trace, GatherCores.Factory.REAL).passed()).isTrue();
        caughtAt(replay("ExactlyOnceS6", trace, TE_LEFT_OUT), "StartSession", "sess");
    }

    @Test
    void aStrategy6ServerWithoutTheSkewMarginIsCaught() throws IOException {
        Path trace = marginTrace("ExactlyOnceS6");
        caughtAt(replay("ExactlyOnceS6", trace, SKEW_LEFT_OUT), "StartSession", "sess");
    }
}
