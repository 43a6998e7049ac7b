package dev.onceproof.bench.adaptive;

import dev.onceproof.adaptive.LimitedHorizonEstimator;
import dev.onceproof.adaptive.PowerOfTwo;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.ScmpServer;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import dev.onceproof.storage.InMemoryStableStorage;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

/**
 * Drives one non-resilient, single-class SCMP core (the paper's standard form, Fig. 1) with one
 * estimator, message by message, and keeps the ground truth the paper's measures need.
 *
 * <p>The workload is written in terms of arrivals: at server time t a message arrives whose lifetime
 * is L, so its timestamp is t - L (client clocks are exact; the lifetime is all delay). The sender is
 * the client whose last timestamp is oldest; if even that one sent later than t - L, a new client
 * joins, so per client timestamps increase in arrival order (Assumption 4, and no message is
 * out of order): every rejection of a first copy is then a lost message (Section 2). Copies of
 * recent messages (network duplication) are mixed in on request; their lifetime is bounded like
 * any other arrival's, so they do not break (t, X)-boundedness.
 *
 * <p>Garbage collection: the limited horizon estimator collects after every S-th message (Fig. 3),
 * asked through {@link LimitedHorizonEstimator#garbageCollectionDue()}; the others every
 * {@code gcPeriod} ticks (the bound G of Section 3.2).
 */
public final class Driver {

    private final ManualInstantSource clock = new ManualInstantSource(0);
    private final LifetimeEstimator estimator;
    private final ScmpServer server;
    private final boolean adaptive;
    private final long gcPeriod;
    private final SplittableRandom rng;

    /** Client pool, ordered by last timestamp: {lastTs, clientId}. */
    private final PriorityQueue<long[]> idle = new PriorityQueue<>((a, b) -> Long.compare(a[0], b[0]));
    private final List<ConnId> ids = new ArrayList<>();
    /** Ground truth per client: the largest timestamp accepted so far (Long.MIN_VALUE: none). */
    private long[] maxAccepted = new long[0];
    /** Recent first copies {clientId, ts}, for duplication. */
    private final long[][] recent = new long[256][];
    private int recentCount;

    private long now;
    private long accepted;
    private long lost;
    private long copies;
    private long copiesAccepted;
    private long violations;
    private long badEstimates;
    private long collections;
    /** Lost messages the core did not report as summary-rejected: must stay 0 (Section 2). */
    private long lostNotSummary;
    /** What the core told the estimator about the last message. */
    private boolean lastSummaryRejected;

    public Driver(Contender contender, int clients, long gcPeriod, long seed) {
        this.estimator = contender.factory().get();
        this.adaptive = contender.adaptive();
        this.gcPeriod = gcPeriod;
        this.rng = new SplittableRandom(seed);
        // The server talks to the estimator through a thin recorder, so the driver can check that
        // every message it counts as lost was summary-rejected, as Section 2 says it must be.
        LifetimeEstimator recorder = new LifetimeEstimator() {
            @Override
            public void onMessage(long lifetime, Verdict verdict, boolean summaryRejected) {
                lastSummaryRejected = summaryRejected;
                estimator.onMessage(lifetime, verdict, summaryRejected);
            }

            @Override
            public long beginGarbageCollection() {
                return estimator.beginGarbageCollection();
            }

            @Override
            public long current() {
                return estimator.current();
            }
        };
        this.server = new ScmpServer(ScmpConfig.singleClass(RecoveryScheme.NON_RESILIENT, 0, 0, recorder),
                clock, new InMemoryStableStorage());
        for (int i = 0; i < clients; i++) {
            idle.add(new long[] {Long.MIN_VALUE, newClient()});
        }
    }

    /** Registers a client that has sent nothing yet; the caller puts it in the pool. */
    private int newClient() {
        int id = ids.size();
        ids.add(ConnId.of("c" + id));
        if (id >= maxAccepted.length) {
            int old = maxAccepted.length;
            maxAccepted = Arrays.copyOf(maxAccepted, Math.max(16, old * 2));
            Arrays.fill(maxAccepted, old, maxAccepted.length, Long.MIN_VALUE);
        }
        return id;
    }

    /** A new message arrives now with this lifetime (>= 1, Assumption 5). */
    public void arrive(long lifetime) {
        long ts = now - lifetime;
        long[] head = idle.peek();
        int client;
        if (head != null && head[0] < ts) {
            idle.poll();
            client = (int) head[1];
        } else {
            client = newClient();
        }
        idle.add(new long[] {ts, client});
        recent[recentCount++ % recent.length] = new long[] {client, ts};
        deliver(client, ts, false);
    }

    /**
     * A copy of a recent message arrives, if one is recent enough that its lifetime now is at most
     * {@code maxLifetime}; returns whether one did.
     */
    public boolean arriveCopy(long maxLifetime) {
        int n = Math.min(recentCount, recent.length);
        for (int attempt = 0; attempt < 4 && n > 0; attempt++) {
            long[] m = recent[rng.nextInt(n)];
            if (now - m[1] <= maxLifetime && now - m[1] >= 1) {
                copies++;
                deliver((int) m[0], m[1], true);
                return true;
            }
        }
        return false;
    }

    private void deliver(int client, long ts, boolean copy) {
        Verdict v = server.receive(ids.get(client), Timestamp.of(ts));
        if (v == Verdict.ACCEPTED) {
            if (ts <= maxAccepted[client]) {
                violations++; // Condition 1 broken: a duplicate or an out-of-order message accepted
            }
            maxAccepted[client] = Math.max(maxAccepted[client], ts);
            accepted++;
            if (copy) {
                copiesAccepted++; // the first copy was lost; this one gets through
            }
        } else if (!copy && ts > maxAccepted[client]) {
            lost++; // not a duplicate, not out of order, rejected (Section 2)
            if (!lastSummaryRejected) {
                lostNotSummary++; // "no table-rejected messages are lost" would be broken
            }
        }
        if (estimator instanceof LimitedHorizonEstimator lh && lh.garbageCollectionDue()) {
            collect();
        }
    }

    /** One tick of the server clock; time-driven estimators collect every gcPeriod ticks. */
    public void tick() {
        now++;
        clock.set(now);
        if (!(estimator instanceof LimitedHorizonEstimator) && now % gcPeriod == 0) {
            collect();
        }
    }

    private void collect() {
        server.collectGarbage();
        collections++;
        if (adaptive && !PowerOfTwo.is(estimator.current())) {
            badEstimates++;
        }
    }

    public SplittableRandom rng() {
        return rng;
    }

    public long now() {
        return now;
    }

    public long estimate() {
        return estimator.current();
    }

    public int tableSize() {
        return server.state().ct().size();
    }

    public long accepted() {
        return accepted;
    }

    public long lost() {
        return lost;
    }

    public long copies() {
        return copies;
    }

    public long violations() {
        return violations;
    }

    public long badEstimates() {
        return badEstimates;
    }

    public long collections() {
        return collections;
    }

    public long lostNotSummary() {
        return lostNotSummary;
    }

    public long copiesAccepted() {
        return copiesAccepted;
    }
}
