package dev.onceproof.exactlyonce;

import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Strategy 6, Connect History (L242-254; App. A.8): the client uploads its history H at connect;
 * the server pulls only from the servers it may have been delivered by since this server last
 * heard from them (Example 6): t is stale iff H[t] is OPEN (a connection that never ended
 * cleanly, Z17), or H[t] ended at h and {@code TS[t] <= h + 2ε + T_e} ("fresher than", strict,
 * Z10; H is the client's clock, TS the peer's, Z18; T_e for footnote 3's gap, see
 * {@link GatherConfig#historyMargin()}). H UNKNOWN (lost, fresh device) makes every other server
 * stale: the full synchronization of L254. A server never visited (absent from H) is not pulled,
 * so an irrelevant partition does not block delivery (L252). Syncs go out only when there is news:
 * {@link #pushSync} after a session ends (L246; App. B L887).
 */
public final class S6Server extends GatherServer {

    private boolean pushPending;

    public S6Server(GatherConfig config, EoClock clock, GatherDurableState durable) {
        this(config, clock, durable, true);
    }

    /** Mutation seam for tests: {@code watermark = false} as in {@link GatherServer}'s. */
    S6Server(GatherConfig config, EoClock clock, GatherDurableState durable, boolean watermark) {
        this(config, clock, durable, watermark, true);
    }

    /** Mutation seams for tests: {@code watermark}, {@code replicationRound} as in {@link GatherServer}'s. */
    S6Server(GatherConfig config, EoClock clock, GatherDurableState durable, boolean watermark,
            boolean replicationRound) {
        super(config, clock, durable, watermark, replicationRound);
        if (config.strategy() != Strategy.S6) {
            throw new IllegalArgumentException("S6Server needs a Strategy 6 config, got " + config.strategy());
        }
    }

    public static S6Server fresh(GatherConfig config, EoClock clock) {
        return new S6Server(config, clock, GatherDurableState.initial());
    }

    @Override
    protected boolean timed() {
        return true;
    }

    @Override
    protected SortedSet<ServerId> staleFor(Optional<ClientHistory> history) {
        TreeSet<ServerId> out = new TreeSet<>();
        if (history.isEmpty() || history.get().unknownBesides(config.self(), config.servers().servers())) {
            out.addAll(others());
            return out;
        }
        ClientHistory h = history.get();
        for (ServerId t : others()) {
            if (h.open().contains(t)) {
                out.add(t);
            } else if (h.ended().containsKey(t)) {
                Long last = ts().get(t);
                if (last == null || config.notFresh(last, h.ended().get(t) + config.historyMargin())) {
                    out.add(t);
                }
            }
        }
        return out;
    }

    /** A session ended: there may be news for the others (L246). */
    @Override
    protected void endLiveSession() {
        if (phase() != Phase.IDLE) {
            pushPending = true;
        }
        super.endLiveSession();
    }

    /** Whether a session ended since the last {@link #pushSync}. */
    public boolean pushPending() {
        return pushPending;
    }

    /** The spec's {@code PushSync(s)}: our D (and K) with our clock now to every other server. */
    public ServerStep pushSync() {
        ServerStep step = syncAll("synced");
        if (!step.effects().isEmpty()) {
            pushPending = false;
        }
        return step;
    }

    @Override
    public void crash() {
        super.crash();
        pushPending = true;
    }

    /** The step interface's sync: {@link #pushSync}. */
    @Override
    public ServerStep sync() {
        return pushSync();
    }
}
