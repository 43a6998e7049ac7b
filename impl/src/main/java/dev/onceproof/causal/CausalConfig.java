package dev.onceproof.causal;

import java.util.Objects;

/**
 * How one node runs: group size, who it is, the order it enforces, the Reactive Error Recovery
 * timers, and its memory bounds. Times are in the unit of the node's {@link Ticker}. Immutable.
 *
 * <p>A final class with record-style accessors rather than a record: the node holds it from
 * construction, and Lincheck 2.39 cannot walk a record in the object graph it transforms
 * (lincheck#402).
 */
public final class CausalConfig {

    public static final int DEFAULT_MAX_BUFFERED = 4096;
    public static final int DEFAULT_MAX_STORED = 65536;
    public static final int DEFAULT_MAX_MISSING = 4096;

    private final int nodes;
    private final NodeId self;
    private final Mode mode;
    private final long w;
    private final long rto;
    private final long heartbeat;
    private final int maxBuffered;
    private final int maxStored;
    private final int maxMissing;
    private final Recovery recovery;

    /**
     * @param nodes group size n (fixed: paper section 3, first assumption)
     * @param self this node
     * @param mode delivery order
     * @param w how long a missing event may still arrive on its own before it is requested
     *     (paper 5.1); the false-positive rate falls as e^-w (Eq. 11)
     * @param rto how long to wait for a requested copy before asking the next holder (paper 5.3,
     *     Eq. 13); LIVE retries repeat every rto, cycling through the nodes known to hold the event
     * @param heartbeat send this node's delivered prefix to every other node after this long without
     *     broadcasting; 0 turns heartbeats off, which is the paper's protocol and loses liveness for
     *     a lost last event (reading notes Z24)
     * @param maxBuffered events received but not deliverable yet; one more is refused (BUFFER_FULL)
     *     and must be recovered later, which heartbeats make happen
     * @param maxStored events kept to answer requests; a broadcast is refused (STORE_FULL) while the
     *     store is full. Garbage collection frees it once every node is known to have delivered them
     * @param maxMissing missing events tracked at once (each has timers); further gaps are tracked
     *     when a later message or heartbeat reveals them again
     * @param recovery LIVE (retry every RTO, cycling through the holders) or FAITHFUL (the paper's
     *     one retry)
     */
    public CausalConfig(int nodes, NodeId self, Mode mode, long w, long rto, long heartbeat,
            int maxBuffered, int maxStored, int maxMissing, Recovery recovery) {
        Objects.requireNonNull(self, "self");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(recovery, "recovery");
        if (nodes < 1) {
            throw new IllegalArgumentException("group size " + nodes + " is below 1");
        }
        if (self.index() >= nodes) {
            throw new IllegalArgumentException("self " + self + " is outside the group of " + nodes + " nodes");
        }
        if (w < 0 || rto <= 0 || heartbeat < 0) {
            throw new IllegalArgumentException("timers must be w >= 0, rto > 0, heartbeat >= 0; got w=" + w
                    + ", rto=" + rto + ", heartbeat=" + heartbeat);
        }
        if (maxBuffered < 1 || maxStored < 1 || maxMissing < 1) {
            throw new IllegalArgumentException("bounds must be at least 1; got maxBuffered=" + maxBuffered
                    + ", maxStored=" + maxStored + ", maxMissing=" + maxMissing);
        }
        this.nodes = nodes;
        this.self = self;
        this.mode = mode;
        this.w = w;
        this.rto = rto;
        this.heartbeat = heartbeat;
        this.maxBuffered = maxBuffered;
        this.maxStored = maxStored;
        this.maxMissing = maxMissing;
        this.recovery = recovery;
    }

    /** Default bounds, LIVE recovery. */
    public static CausalConfig of(int nodes, NodeId self, Mode mode, long w, long rto, long heartbeat) {
        return new CausalConfig(nodes, self, mode, w, rto, heartbeat,
                DEFAULT_MAX_BUFFERED, DEFAULT_MAX_STORED, DEFAULT_MAX_MISSING, Recovery.LIVE);
    }

    public CausalConfig withBounds(int maxBuffered, int maxStored, int maxMissing) {
        return new CausalConfig(nodes, self, mode, w, rto, heartbeat, maxBuffered, maxStored, maxMissing, recovery);
    }

    public CausalConfig withRecovery(Recovery r) {
        return new CausalConfig(nodes, self, mode, w, rto, heartbeat, maxBuffered, maxStored, maxMissing, r);
    }

    public CausalConfig withSelf(NodeId other) {
        return new CausalConfig(nodes, other, mode, w, rto, heartbeat, maxBuffered, maxStored, maxMissing, recovery);
    }

    public int nodes() {
        return nodes;
    }

    public NodeId self() {
        return self;
    }

    public Mode mode() {
        return mode;
    }

    public long w() {
        return w;
    }

    public long rto() {
        return rto;
    }

    public long heartbeat() {
        return heartbeat;
    }

    public int maxBuffered() {
        return maxBuffered;
    }

    public int maxStored() {
        return maxStored;
    }

    public int maxMissing() {
        return maxMissing;
    }

    public Recovery recovery() {
        return recovery;
    }

    @Override
    public String toString() {
        return "CausalConfig[nodes=" + nodes + ", self=" + self + ", mode=" + mode + ", w=" + w + ", rto=" + rto
                + ", heartbeat=" + heartbeat + ", maxBuffered=" + maxBuffered + ", maxStored=" + maxStored
                + ", maxMissing=" + maxMissing + ", recovery=" + recovery + "]";
    }
}
