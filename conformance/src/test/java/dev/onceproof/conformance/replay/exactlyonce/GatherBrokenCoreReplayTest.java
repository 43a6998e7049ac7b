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
import dev.onceproof.exactlyonce.GatherOp;
import dev.onceproof.exactlyonce.GatherSeams;
import dev.onceproof.exactlyonce.GatherServer;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerStep;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The spec-to-core link for Strategies 4-6 must be able to fail (DESIGN.md): each test builds a
 * gather core with one safeguard removed and shows that replaying a stored trace in which that
 * safeguard matters stops where the core leaves the spec. Traces are chosen by content (the first
 * stored trace of the spec with the step that exercises the safeguard), so the tests do not depend
 * on trace names; a spec whose stored traces lack such a step fails the test.
 */
class GatherBrokenCoreReplayTest {

    private final Repo repo = Repo.locate();
    private static final ObjectMapper JSON = new ObjectMapper();

    private ReplayResult replay(String spec, Path trace, GatherCores.Factory broken) {
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard().with(
                ExactlyOnceReplayer.gather(spec, broken)));
        return replayer.replay(trace);
    }

    /** The first stored trace of {@code spec} with a step satisfying {@code wanted}. */
    private Path traceWith(String spec, String what, Predicate<JsonNode> wanted) throws IOException {
        return traceWith(spec, what, (before, step) -> wanted.test(step));
    }

    /** The same, the predicate also seeing the step before. */
    private Path traceWith(String spec, String what, BiPredicate<JsonNode, JsonNode> wanted) throws IOException {
        try (Stream<Path> files = Files.list(repo.traces().resolve("exactlyonce"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                if (!JSON.readTree(lines.get(0)).path("spec").asText().equals(spec)) {
                    continue;
                }
                JsonNode before = null;
                for (String line : lines.subList(1, lines.size())) {
                    JsonNode step = JSON.readTree(line);
                    if (before != null && wanted.test(before, step)) {
                        return f;
                    }
                    before = step;
                }
            }
        }
        throw new AssertionError("no stored " + spec + " trace has " + what);
    }

    /** A factory whose servers are {@code server}'s, clients the real ones. */
    private static GatherCores.Factory servers(ServerMaker server) {
        return new GatherCores.Factory() {
            @Override
            public GatherServer server(String spec, GatherConfig config, EoClock clock, GatherDurableState durable) {
                return server.make(spec, config, clock, durable);
            }

            @Override
            public GatherClient client(String spec, ClientId id, EoClock clock, long tr, java.util.OptionalLong lastEnd,
                    ClientHistory stored) {
                return GatherCores.Factory.REAL.client(spec, id, clock, tr, lastEnd, stored);
            }
        };
    }

    private interface ServerMaker {
        GatherServer make(String spec, GatherConfig config, EoClock clock, GatherDurableState durable);
    }

    /** Strategy 4's server with one method replaced, the rest as the real core. */
    private static class Broken extends GatherServer {
        Broken(GatherConfig config, EoClock clock, GatherDurableState durable) {
            super(config, clock, durable);
        }

        @Override
        protected boolean timed() {
            return false;
        }

        @Override
        protected SortedSet<ServerId> staleFor(Optional<ClientHistory> history) {
            return new TreeSet<>(config().servers().others());
        }

        @Override
        protected boolean purgesAtGather() {
            return true;
        }
    }

    /**
     * Replay checks the store (issue 19 item 2): a core whose D merges are made but not journaled
     * keeps the spec's state, so only the store check can see it; it stops at the first step that
     * merged a note into D, naming the server's store.
     */
    @Test
    void aServerThatDoesNotJournalItsDMergesIsCaughtByTheStoreCheck() throws IOException {
        Path trace = traceWith("ExactlyOnceS4", "a RecvD with a non-empty D",
                s -> s.path("action").asText().equals("RecvD") && !s.path("params").path("d").isEmpty());
        ReplayResult r = replay("ExactlyOnceS4", trace, servers((spec, config, clock, durable) ->
                GatherSeams.withoutJournaling(GatherCores.Factory.REAL.server(spec, config, clock, durable),
                        GatherOp.AddD.class)));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).as(r.report()).isIn("RecvD", "PurgeSync", "RecvSync");
        assertThat(r.failure().mismatches()).as(r.report()).isNotEmpty()
                .allMatch(m -> m.field().startsWith("store["));
        assertThat(replay("ExactlyOnceS4", trace, GatherCores.Factory.REAL).passed()).as("the real core").isTrue();
    }

    /** The same for the aDeliver attempt: its outcome then does not apply when the log is reopened. */
    @Test
    void aServerThatDoesNotJournalItsAttemptIsCaughtByTheStoreCheck() throws IOException {
        Path trace = traceWith("ExactlyOnceS4", "an ADeliverOK", s -> s.path("action").asText().equals("ADeliverOK"));
        ReplayResult r = replay("ExactlyOnceS4", trace, servers((spec, config, clock, durable) ->
                GatherSeams.withoutJournaling(GatherCores.Factory.REAL.server(spec, config, clock, durable),
                        GatherOp.LogAttempt.class)));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).as(r.report()).isEqualTo("ADeliverOK");
        assertThat(r.failure().mismatches()).as(r.report()).isNotEmpty()
                .allMatch(m -> m.field().startsWith("store[")).anyMatch(m -> m.actual().contains("does not apply"));
    }

    @Test
    void aServerThatSkipsTheGatherIsCaught() throws IOException {
        // Mutant M4-a (Example 4, L211): delivering without gathering D from the others.
        Path trace = traceWith("ExactlyOnceS4", "a StartSession", s -> s.path("action").asText().equals("StartSession"));
        ReplayResult r = replay("ExactlyOnceS4", trace, servers((spec, config, clock, durable) ->
                new Broken(config, clock, durable) {
                    @Override
                    protected SortedSet<ServerId> staleFor(Optional<ClientHistory> history) {
                        return new TreeSet<>();
                    }
                }));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("StartSession");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).anyMatch(f -> f.endsWith(".stale"));
    }

    @Test
    void aServerThatDropsTheGatheredDIsCaught() throws IOException {
        // A.6 "D = D + D[s]": a reply whose D is not merged leaves the server ignorant of a delivery.
        // In the stored traces the note usually reached the server's D by a PurgeSync first; the
        // dropped reply then shows in A.6's purge intersection (sess.common) rather than in D.
        Path trace = traceWith("ExactlyOnceS4", "a RecvD with a non-empty D",
                s -> s.path("action").asText().equals("RecvD") && !s.path("params").path("d").isEmpty());
        ReplayResult r = replay("ExactlyOnceS4", trace, servers((spec, config, clock, durable) ->
                new Broken(config, clock, durable) {
                    @Override
                    public ServerStep recvD(EoMessage.DReply m) {
                        return super.recvD(new EoMessage.DReply(m.from(), m.to(), m.client(), m.session(), m.ts(),
                                new TreeSet<>()));
                    }
                }));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).as(r.report()).isEqualTo("RecvD");
        assertThat(r.failure().mismatches()).extracting(m -> m.field())
                .anyMatch(f -> f.startsWith("D.") || f.endsWith(".common"));
    }

    @Test
    void aServerThatDoesNotLogTheSuccessInDIsCaught() throws IOException {
        // Z9 / mutant M4-d: the aDeliver success and D's update are one durable write.
        Path trace = traceWith("ExactlyOnceS4", "an ADeliverOK", s -> s.path("action").asText().equals("ADeliverOK"));
        ReplayResult r = replay("ExactlyOnceS4", trace, servers((spec, config, clock, durable) ->
                new Broken(config, clock, durable) {
                    @Override
                    public ServerStep aDeliverOk(long session, NoteId i) {
                        return new ServerStep("delivered", List.of());
                    }
                }));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ADeliverOK");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).anyMatch(f -> f.startsWith("D."));
    }

    @Test
    void aServerThatForgetsKAndDInACrashIsCaught() throws IOException {
        // Z13: K, D and the aDeliver log are durable.
        Path trace = traceWith("ExactlyOnceS4", "a ServerCrash of a server holding notes",
                s -> s.path("action").asText().equals("ServerCrash")
                        && !s.path("state").path("K").path(s.path("params").path("server").asText()).isEmpty());
        ReplayResult r = replay("ExactlyOnceS4", trace, servers((spec, config, clock, durable) ->
                GatherCores.Factory.REAL.server(spec, config, clock, GatherDurableState.initial())));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ServerCrash");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).anyMatch(f -> f.startsWith("K."));
    }

    // ---- Strategy 5 ------------------------------------------------------------------------------

    @Test
    void aStrategy5ServerThatTrustsEverySyncIsCaught() throws IOException {
        // Example 5 (ii), L223: a peer whose latest sync is not within T_r must be pulled from.
        Path trace = traceWith("ExactlyOnceS5", "a StartSession with a server to pull from",
                s -> s.path("action").asText().equals("StartSession") && !s.path("params").path("stale").isEmpty());
        ReplayResult r = replay("ExactlyOnceS5", trace, servers((spec, config, clock, durable) ->
                new Broken6(config, clock, durable)));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("StartSession");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).anyMatch(f -> f.endsWith(".stale"));
    }

    // ---- Strategy 6 ------------------------------------------------------------------------------

    /** A Strategy 5 or 6 server that never pulls (neither TS nor the upload is read). */
    private static class Broken6 extends GatherServer {
        Broken6(GatherConfig config, EoClock clock, GatherDurableState durable) {
            super(config, clock, durable);
        }

        @Override
        protected boolean timed() {
            return true;
        }

        @Override
        protected SortedSet<ServerId> staleFor(Optional<ClientHistory> history) {
            return new TreeSet<>();
        }
    }

    @Test
    void aServerThatIgnoresTheHistoryIsCaught() throws IOException {
        // Mutant M6-a (Example 6, L248): no pull although H says a peer may know of a delivery.
        Path trace = traceWith("ExactlyOnceS6", "a StartSession with a server to pull from",
                s -> s.path("action").asText().equals("StartSession") && !s.path("params").path("stale").isEmpty());
        ReplayResult r = replay("ExactlyOnceS6", trace, servers((spec, config, clock, durable) ->
                new Broken6(config, clock, durable)));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("StartSession");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).anyMatch(f -> f.endsWith(".stale"));
    }

    @Test
    void aServerThatStampsTsWithTheReceiptTimeIsCaught() throws IOException {
        // Mutant M5-b / Z11: TS is the sender's send time; a receipt time makes an old D look fresh.
        Path trace = traceWith("ExactlyOnceS6", "a RecvSync of a sync sent in an earlier tick",
                s -> s.path("action").asText().equals("RecvSync")
                        && s.path("params").path("ts").asLong() < s.path("state").path("now").asLong());
        ReplayResult r = replay("ExactlyOnceS6", trace, servers((spec, config, clock, durable) ->
                new ReceiptTime(config, clock, durable)));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).as(r.report()).isEqualTo("RecvSync");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).anyMatch(f -> f.startsWith("TS."));
    }

    /** The real Strategy 6 stale rule, but RecvSync stamps TS with the time the sync arrived. */
    private static final class ReceiptTime extends GatherServer {
        private final EoClock clock;

        ReceiptTime(GatherConfig config, EoClock clock, GatherDurableState durable) {
            super(config, clock, durable);
            this.clock = clock;
        }

        @Override
        protected boolean timed() {
            return true;
        }

        /** S6Server's rule (Z10, Z17), restated: the class itself is final. */
        @Override
        protected SortedSet<ServerId> staleFor(Optional<ClientHistory> history) {
            TreeSet<ServerId> out = new TreeSet<>();
            ServerId self = config().self();
            if (history.isEmpty() || history.get().unknownBesides(self, config().servers().servers())) {
                out.addAll(config().servers().others());
                return out;
            }
            for (ServerId t : config().servers().others()) {
                ClientHistory h = history.get();
                Long last = ts().get(t);
                if (h.open().contains(t) || h.ended().containsKey(t)
                        && (last == null || config().notFresh(last, h.ended().get(t) + config().historyMargin()))) {
                    out.add(t);
                }
            }
            return out;
        }

        @Override
        public ServerStep recvSync(EoMessage.DSync m) {
            return super.recvSync(new EoMessage.DSync(m.from(), m.to(), m.client(), clock.now(), m.k(), m.d(),
                    m.seen()));
        }
    }

    @Test
    void aStrategy5ClientThatForgetsItsPromiseAtARebootIsCaught() throws IOException {
        // MutS5RebootForgetsEnd on the core side: a client rebuilt after a crash while away that acts
        // as if it had never connected (no lastEnd) instead of waiting T_r from the reboot.
        Path trace = traceWith("ExactlyOnceS5", "a ClientCrash while away", (before, step) ->
                step.path("action").asText().equals("ClientCrash")
                        && before.path("state").path("conn").asText().equals("none"));
        GatherCores.Factory broken = new GatherCores.Factory() {
            @Override
            public GatherServer server(String spec, GatherConfig config, EoClock clock, GatherDurableState durable) {
                return GatherCores.Factory.REAL.server(spec, config, clock, durable);
            }

            @Override
            public GatherClient client(String spec, ClientId id, EoClock clock, long tr, java.util.OptionalLong lastEnd,
                    ClientHistory stored) {
                return GatherCores.Factory.REAL.client(spec, id, clock, tr, java.util.OptionalLong.empty(), stored);
            }
        };
        ReplayResult r = replay("ExactlyOnceS5", trace, broken);
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ClientCrash");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).contains("lastEnd");
        assertThat(replay("ExactlyOnceS5", trace, GatherCores.Factory.REAL).passed()).isTrue();
    }

    @Test
    void aClientThatWritesItsHistoryOnlyAtACleanEndIsCaught() throws IOException {
        // Mutant M6-b / Z17: H[s] := OPEN is durable at connect; without it a crash mid-connection
        // leaves an older end time, and a later server trusts a sync older than the deliveries.
        Path trace = traceWith("ExactlyOnceS6", "a Connect", s -> s.path("action").asText().equals("Connect"));
        GatherCores.Factory broken = new GatherCores.Factory() {
            @Override
            public GatherServer server(String spec, GatherConfig config, EoClock clock, GatherDurableState durable) {
                return GatherCores.Factory.REAL.server(spec, config, clock, durable);
            }

            @Override
            public GatherClient client(String spec, ClientId id, EoClock clock, long tr, java.util.OptionalLong lastEnd,
                    ClientHistory stored) {
                return new CleanEndOnly(id, clock, stored);
            }
        };
        ReplayResult r = replay("ExactlyOnceS6", trace, broken);
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("Connect");
        assertThat(r.failure().mismatches()).extracting(m -> m.field()).anyMatch(f -> f.startsWith("H."));
    }

    /** Strategy 6's client without the OPEN entry: H is written at a clean disconnect only. */
    private static final class CleanEndOnly extends GatherClient implements dev.onceproof.exactlyonce.HistoryClient {
        private final EoClock clock;
        private ClientHistory history;

        CleanEndOnly(ClientId id, EoClock clock, ClientHistory stored) {
            super(id);
            this.clock = clock;
            this.history = stored;
        }

        @Override
        protected dev.onceproof.exactlyonce.ConnectStep attempt(ServerId s) {
            return new dev.onceproof.exactlyonce.ConnectStep(dev.onceproof.exactlyonce.ConnectVerdict.CONNECTED,
                    List.of(new dev.onceproof.exactlyonce.ClientEffect.Send(
                            new EoMessage.HistoryUpload(id(), s, history))), java.util.OptionalLong.empty());
        }

        @Override
        protected List<dev.onceproof.exactlyonce.ClientEffect> ended(ServerId s) {
            history = history.ended(s, clock.now());
            return List.of(new dev.onceproof.exactlyonce.ClientEffect.RecordHistory(history));
        }

        @Override
        public ClientHistory history() {
            return history;
        }

        @Override
        public void loseHistory() {
            history = ClientHistory.unknown();
        }
    }
}
