package dev.onceproof.exactlyonce;

import java.util.Objects;
import java.util.OptionalLong;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One strategy's parameters for one client and its servers, and the one place that builds its
 * cores ({@link #server}, {@link #client}). Each strategy reads what it needs and ignores the rest:
 * {@code te}, T_e, the maximum message lifetime (3.2, L95; Strategies 2-6); {@code w}, Strategy 2's
 * sequence space W; {@code q}, Strategy 3's R size; {@code tr}, {@code tu}, {@code skew}, T_r, T_u
 * and ε of Strategies 5-6 ({@link GatherConfig} checks them); {@code variant}, Strategy 3's
 * HandleClient; {@code ordering}, the client's record-then-ack rule (Strategies 1-3).
 *
 * <p>The mutation seams are here too, so a test builds a broken core the way a runtime builds the
 * real one: {@link #withoutWatermark} (package-private: syncs' watermarks ignored, Strategies 2-6),
 * {@link #withoutReplicationRound} (package-private: Strategies 3-6 deliver a note before every
 * server stored it),
 * {@link #withSkewLeftOutOfFreshness} (package-private, Strategies 5-6), {@link #withPrefixOverwrite}
 * (package-private, Strategy 1), and the public
 * {@link #withPrintedBoundary}, {@link #withPlainDeliver} and {@link #variant} that the refuted
 * models' replays need.
 * Immutable: every {@code with} returns a new config.
 */
public final class StrategyConfig {

    private final Strategy strategy;
    private final ClientId client;
    private final SortedSet<ServerId> servers;
    private final long te;
    private int w;
    private int q;
    private long tr;
    private long tu;
    private long skew;
    private S3Variant variant = S3Variant.CORRECTED;
    private ClientOrdering ordering = ClientOrdering.RECORD_THEN_ACK;
    private boolean watermark = true;
    private boolean replicationRound = true;
    private boolean prefixByMax = true;
    private boolean printedBoundary;
    private boolean skewInFreshness = true;
    private boolean plainDeliver;
    private boolean replicasAtOnce;

    StrategyConfig(Strategy strategy, ClientId client, SortedSet<ServerId> servers, long te) {
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        this.client = Objects.requireNonNull(client, "client");
        this.servers = new TreeSet<>(Objects.requireNonNull(servers, "servers"));
        this.te = te;
    }

    /** A copy with {@code change} made to it (the config itself never changes). */
    private StrategyConfig with(java.util.function.Consumer<StrategyConfig> change) {
        StrategyConfig c = copy();
        change.accept(c);
        return c;
    }

    private StrategyConfig copy() {
        StrategyConfig c = new StrategyConfig(strategy, client, servers, te);
        c.w = w;
        c.q = q;
        c.tr = tr;
        c.tu = tu;
        c.skew = skew;
        c.variant = variant;
        c.ordering = ordering;
        c.watermark = watermark;
        c.replicationRound = replicationRound;
        c.prefixByMax = prefixByMax;
        c.printedBoundary = printedBoundary;
        c.skewInFreshness = skewInFreshness;
        c.plainDeliver = plainDeliver;
        c.replicasAtOnce = replicasAtOnce;
        return c;
    }

    /** Strategy 2's sequence space W. */
    public StrategyConfig w(int w) {
        return with(c -> c.w = w);
    }

    /** Strategy 3's number of slots in R. */
    public StrategyConfig q(int q) {
        return with(c -> c.q = q);
    }

    /** Strategies 5-6: T_r, T_u and ε in clock ticks (checked by {@link GatherConfig}). */
    public StrategyConfig times(long tr, long tu, long skew) {
        return with(c -> {
            c.tr = tr;
            c.tu = tu;
            c.skew = skew;
        });
    }

    /** Strategy 3's HandleClient; {@link S3Variant#PRINTED} is a seam, never for real. */
    public StrategyConfig variant(S3Variant variant) {
        return with(c -> c.variant = Objects.requireNonNull(variant, "variant"));
    }

    /** The client's order of record and ack; {@link ClientOrdering#ACK_THEN_RECORD} is a seam. */
    public StrategyConfig ordering(ClientOrdering ordering) {
        return with(c -> c.ordering = Objects.requireNonNull(ordering, "ordering"));
    }

    /** Seam (see {@link GatherConfig#withPrintedBoundary}): the printed freshness tests. */
    public StrategyConfig withPrintedBoundary() {
        return with(c -> c.printedBoundary = true);
    }

    /** Seam (see {@link GatherConfig#withPlainDeliver}): ExactlyOnceS4Deliver's replay only. */
    public StrategyConfig withPlainDeliver() {
        return with(c -> c.plainDeliver = true);
    }

    /**
     * Mutation seam, tests only: Strategy 1's servers take a peer's prefix as it comes instead of the
     * larger of the two, so a stale sync moves a prefix back (ExactlyOnceS1Msg's rule "merge").
     */
    StrategyConfig withPrefixOverwrite() {
        return with(c -> c.prefixByMax = false);
    }

    /**
     * For a driver that hands every replica to its server within the createNote step (trace replay
     * of the specs' atomic CreateNote, test worlds, simulations that replicate synchronously): no
     * replica is ever on the way, so Strategy 2's numbers settle when issued (see {@link S2Server}).
     * A runtime on a network leaves this off.
     */
    public StrategyConfig replicasStoredAtOnce() {
        return with(c -> c.replicasAtOnce = true);
    }

    /**
     * Mutation seam, tests only: syncs' watermarks ignored (S2Server, S3Server, GatherServer); for
     * S2Server the removal's incarnation too, its other guard against a stale removal.
     */
    StrategyConfig withoutWatermark() {
        return with(c -> c.watermark = false);
    }

    /**
     * Mutation seam, tests only: Strategy 3-6's servers without the acknowledged replication round
     * (a note deliverable as soon as it is in K; watermarks read against the receiver's numbers).
     */
    StrategyConfig withoutReplicationRound() {
        return with(c -> c.replicationRound = false);
    }

    /** Mutation seam, tests only (see {@link GatherConfig#withSkewLeftOutOfFreshness}). */
    StrategyConfig withSkewLeftOutOfFreshness() {
        return with(c -> c.skewInFreshness = false);
    }

    public Strategy strategy() {
        return strategy;
    }

    public ClientId client() {
        return client;
    }

    public SortedSet<ServerId> servers() {
        return new TreeSet<>(servers);
    }

    public long te() {
        return te;
    }

    public int w() {
        return w;
    }

    public int q() {
        return q;
    }

    public long tr() {
        return tr;
    }

    /** Server {@code self}'s view of the servers (checked: self is one of them). */
    public ServerConfig serverConfig(ServerId self) {
        return new ServerConfig(self, client, servers, te);
    }

    /** Strategies 4-6: server {@code self}'s time parameters, with the seams this config carries. */
    public GatherConfig gatherConfig(ServerId self) {
        GatherConfig c = new GatherConfig(serverConfig(self), strategy, tr, tu, skew);
        if (printedBoundary) {
            c = c.withPrintedBoundary();
        }
        if (plainDeliver) {
            c = c.withPlainDeliver();
        }
        return skewInFreshness ? c : c.withSkewLeftOutOfFreshness();
    }

    /**
     * Server {@code self}'s core, rebuilt from {@code durable} (what it made durable; the strategy's
     * {@link Strategy#initialState} for a server that has never run).
     *
     * @throws IllegalArgumentException {@code durable} is another family's state
     */
    public EoServer server(ServerId self, EoClock clock, DurableState durable) {
        Objects.requireNonNull(durable, "durable");
        if (strategy.gathers()) {
            GatherDurableState g = stateOf(GatherDurableState.class, durable);
            GatherConfig c = gatherConfig(self);
            return switch (strategy) {
                case S4 -> new S4Server(c, clock, g, watermark, replicationRound);
                case S5 -> new S5Server(c, clock, g, watermark, replicationRound);
                default -> new S6Server(c, clock, g, watermark, replicationRound);
            };
        }
        ServerDurableState s = stateOf(ServerDurableState.class, durable);
        ServerConfig c = serverConfig(self);
        return switch (strategy) {
            case S0 -> new S0Server(c, clock, s);
            case S1 -> new S1Server(c, clock, s, prefixByMax);
            // Strategy 2 guards a stale removal twice (the watermark, and the incarnation it names):
            // the seam takes both, or the tag alone would keep what the watermark's control drops.
            case S2 -> watermark ? new S2Server(c, clock, w, s, true, true, true, replicasAtOnce)
                    : new S2Server(c, clock, w, s, false, true, true, replicasAtOnce)
                            .staleRemovalTakesNewerIncarnation();
            default -> new S3Server(c, clock, variant, s, watermark, replicationRound);
        };
    }

    private <T extends DurableState> T stateOf(Class<T> type, DurableState durable) {
        if (!type.isInstance(durable)) {
            throw new IllegalArgumentException(strategy + "'s server needs a " + type.getSimpleName() + ", got a "
                    + durable.getClass().getSimpleName());
        }
        return type.cast(durable);
    }

    /**
     * The client core, over what the client device kept: {@code stable} (Strategies 0-3: R; empty
     * for a client that has never run), {@code history} (Strategy 6's H) and {@code lastEnd}
     * (Strategy 5: when the last connection ended; the crash time after a reboot that lost it).
     *
     * @throws IllegalArgumentException {@code stable} is not this strategy's kind of R
     */
    public ClientCore client(EoClock clock, ClientMemory stored) {
        Objects.requireNonNull(stored, "stored");
        return switch (strategy) {
            case S0 -> new S0Client(client);
            case S1 -> new S1Client(client, stable(ClientStableState.Streams.class, stored), ordering);
            case S2 -> new S2Client(client, w, stable(ClientStableState.Streams.class, stored), ordering);
            case S3 -> new S3Client(client, q, stable(ClientStableState.IdList.class, stored), ordering);
            case S4 -> new S4Client(client);
            case S5 -> new S5Client(client, clock, tr, stored.lastEnd());
            case S6 -> new S6Client(client, clock, stored.history());
        };
    }

    private <T extends ClientStableState> T stable(Class<T> type, ClientMemory stored) {
        if (stored.stable().isEmpty()) {
            return type.cast(type == ClientStableState.IdList.class
                    ? new ClientStableState.IdList(new TreeSet<>())
                    : new ClientStableState.Streams(new java.util.TreeMap<>()));
        }
        ClientStableState s = stored.stable().get();
        if (!type.isInstance(s)) {
            throw new IllegalArgumentException(strategy + "'s client needs stable state " + type.getSimpleName()
                    + ", got " + s.getClass().getSimpleName());
        }
        return type.cast(s);
    }

    /** What a client device keeps across a crash, for {@link #client}; see there. */
    public record ClientMemory(java.util.Optional<ClientStableState> stable, ClientHistory history,
            OptionalLong lastEnd) {

        public ClientMemory {
            Objects.requireNonNull(stable, "stable");
            Objects.requireNonNull(history, "history");
            Objects.requireNonNull(lastEnd, "lastEnd");
        }

        /** A device that has never run: no R, H unknown (Z17), no last connection. */
        public static ClientMemory fresh() {
            return new ClientMemory(java.util.Optional.empty(), ClientHistory.unknown(), OptionalLong.empty());
        }

        public ClientMemory withStable(ClientStableState s) {
            return new ClientMemory(java.util.Optional.of(s), history, lastEnd);
        }

        /** What a client store loaded: empty for a client that never committed. */
        public ClientMemory withStable(java.util.Optional<ClientStableState> s) {
            return new ClientMemory(s, history, lastEnd);
        }

        public ClientMemory withHistory(ClientHistory h) {
            return new ClientMemory(stable, h, lastEnd);
        }

        public ClientMemory withLastEnd(OptionalLong t) {
            return new ClientMemory(stable, history, t);
        }
    }
}
