package dev.onceproof.exactlyonce;

import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Strategy 5, Delay Reconnect (L217-240; App. A.7): the client promises not to connect within T_r
 * of its last connection's end; servers send each other their D every T_u, stamped with the send
 * time, and keep TS, the freshest stamp from each peer. At connect only the peers whose latest
 * stamp is not fresh are pulled (Example 5): stale iff {@code TS[t] <= now - window}, window = T_r - 2ε - T_e
 * ({@link GatherConfig#window()}; strict, Z10: a sync sent in the very tick of a delivery may
 * predate it; the 2ε of two clocks' deviation folded in, L219), a peer never heard from included. The client measures T_r as a duration on its
 * own clock ({@link S5Client}), so its offset cancels.
 */
public final class S5Server extends GatherServer {

    private long lastPeriodic = Long.MIN_VALUE;

    public S5Server(GatherConfig config, EoClock clock, GatherDurableState durable) {
        this(config, clock, durable, true);
    }

    /** Mutation seam for tests: {@code watermark = false} as in {@link GatherServer}'s. */
    S5Server(GatherConfig config, EoClock clock, GatherDurableState durable, boolean watermark) {
        this(config, clock, durable, watermark, true);
    }

    /** Mutation seams for tests: {@code watermark}, {@code replicationRound} as in {@link GatherServer}'s. */
    S5Server(GatherConfig config, EoClock clock, GatherDurableState durable, boolean watermark,
            boolean replicationRound) {
        super(config, clock, durable, watermark, replicationRound);
        if (config.strategy() != Strategy.S5) {
            throw new IllegalArgumentException("S5Server needs a Strategy 5 config, got " + config.strategy());
        }
    }

    public static S5Server fresh(GatherConfig config, EoClock clock) {
        return new S5Server(config, clock, GatherDurableState.initial());
    }

    @Override
    protected boolean timed() {
        return true;
    }

    @Override
    protected SortedSet<ServerId> staleFor(Optional<ClientHistory> history) {
        long limit = clock.now() - config.window();
        TreeSet<ServerId> out = new TreeSet<>();
        for (ServerId t : others()) {
            Long last = ts().get(t);
            if (last == null || config.notFresh(last, limit)) {
                out.add(t);
            }
        }
        return out;
    }

    /** Whether T_u has passed since the last {@link #periodicSync} (always true after a crash). */
    public boolean syncDue() {
        return lastPeriodic == Long.MIN_VALUE || clock.now() - lastPeriodic >= config.tu();
    }

    /** The spec's {@code PeriodicSync(s)}: our D (and K) with our clock now to every other server. */
    public ServerStep periodicSync() {
        ServerStep step = syncAll("synced");
        if (!step.effects().isEmpty()) {
            lastPeriodic = clock.now();
        }
        return step;
    }

    @Override
    public void crash() {
        super.crash();
        lastPeriodic = Long.MIN_VALUE;
    }

    /** The step interface's sync: {@link #periodicSync}. */
    @Override
    public ServerStep sync() {
        return periodicSync();
    }
}
