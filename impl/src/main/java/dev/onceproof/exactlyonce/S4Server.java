package dev.onceproof.exactlyonce;

import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Strategy 4, Server Synchronization (L203-215; App. A.6): "Client has no state." Before a server
 * delivers it gathers D from every other server (L211), so it knows every note delivered before;
 * at the end of the gather it purges what every server has in D. One unreachable server blocks the
 * session (App. A.6 {@code {abort;}}, L703). Space is otherwise reclaimed by {@link #purgeSync}.
 */
public final class S4Server extends GatherServer {

    public S4Server(GatherConfig config, EoClock clock, GatherDurableState durable) {
        this(config, clock, durable, true);
    }

    /** Mutation seam for tests: {@code watermark = false} as in {@link GatherServer}'s. */
    S4Server(GatherConfig config, EoClock clock, GatherDurableState durable, boolean watermark) {
        this(config, clock, durable, watermark, true);
    }

    /** Mutation seams for tests: {@code watermark}, {@code replicationRound} as in {@link GatherServer}'s. */
    S4Server(GatherConfig config, EoClock clock, GatherDurableState durable, boolean watermark,
            boolean replicationRound) {
        super(config, clock, durable, watermark, replicationRound);
        if (config.strategy() != Strategy.S4) {
            throw new IllegalArgumentException("S4Server needs a Strategy 4 config, got " + config.strategy());
        }
    }

    public static S4Server fresh(GatherConfig config, EoClock clock) {
        return new S4Server(config, clock, GatherDurableState.initial());
    }

    @Override
    protected boolean timed() {
        return false;
    }

    /** Every other server, always (L211). */
    @Override
    protected SortedSet<ServerId> staleFor(Optional<ClientHistory> history) {
        return new TreeSet<>(others());
    }

    @Override
    protected boolean purgesAtGather() {
        return true;
    }

    /**
     * The sending half of the spec's {@code PurgeSync(s, t)}: our K and D to t, which handles it with
     * {@link #recvPurgeSync} (space only, L213).
     */
    public ServerStep purgeSync(ServerId t) {
        return sync(t);
    }
}
