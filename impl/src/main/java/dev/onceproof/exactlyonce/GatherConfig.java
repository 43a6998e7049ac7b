package dev.onceproof.exactlyonce;

import java.util.Objects;
import java.util.SortedSet;

/**
 * The time parameters of Strategies 4-6, all in {@link EoClock} ticks, checked when built (a bad
 * value is refused with the rule it breaks, named):
 * <ul>
 *   <li>{@code tr}, T_r: Strategy 5's reconnect delay (L221), measured from the end of the last
 *       connection to the start of the next (footnote 3, L225);</li>
 *   <li>{@code tu}, T_u: Strategy 5's period of synchronizations (L229; App. B L848);</li>
 *   <li>{@code skew}, ε: the most any clock deviates from true time (L219 "a bounded maximum clock
 *       drift ... added to the appropriate parameters"); two clocks differ by at most 2ε (Z10);</li>
 *   <li>{@code te}, T_e: the maximum message lifetime (L95): a sync is received at most T_e after it
 *       was sent.</li>
 * </ul>
 * Rules: every value {@code >= 0} (R1); for Strategy 5, {@code tu >= 1} (R2: a period of 0 is no
 * period) and {@code tr - 2 * skew - te >= 0} (R3: the freshness window {@link #window()} is not
 * negative; T_r = 0 with exact clocks is Strategy 4, L373, and allowed). Whether syncs every T_u can
 * keep peers fresh at all ({@code tu + te < window}, else every connect pulls, L238) is a matter of
 * performance, reported by {@link #fastPathPossible()}, not refused.
 *
 * <p>A final class rather than a record, for Lincheck (see {@link Note}).
 */
public final class GatherConfig {

    /** Largest parameter accepted: far beyond any sane time, far below overflow in sums. */
    public static final long MAX_TIME = 1L << 52;

    private final ServerConfig servers;
    private final Strategy strategy;
    private final long tr;
    private final long tu;
    private final long skew;
    private final boolean printedBoundary;
    private final boolean skewInFreshness;
    private final boolean plainDeliver;

    public GatherConfig(ServerConfig servers, Strategy strategy, long tr, long tu, long skew) {
        this(servers, strategy, tr, tu, skew, false, true, false);
    }

    private GatherConfig(ServerConfig servers, Strategy strategy, long tr, long tu, long skew,
            boolean printedBoundary, boolean skewInFreshness, boolean plainDeliver) {
        this.printedBoundary = printedBoundary;
        this.plainDeliver = plainDeliver;
        this.skewInFreshness = skewInFreshness;
        this.servers = Objects.requireNonNull(servers, "servers");
        this.strategy = Objects.requireNonNull(strategy, "strategy");
        if (!strategy.gathers()) {
            throw new IllegalArgumentException("GatherConfig is for Strategies 4-6, not " + strategy);
        }
        check("T_r", tr);
        check("T_u", tu);
        check("skew", skew);
        long te = servers.te();
        check("T_e", te);
        if (strategy == Strategy.S5) {
            if (tu < 1) {
                throw new IllegalArgumentException("rule R2: T_u = " + tu + " must be at least 1 tick for "
                        + "Strategy 5's periodic synchronization");
            }
            if (tr - 2 * skew - te < 0) {
                throw new IllegalArgumentException("rule R3: the freshness window T_r - 2*skew - T_e = " + tr
                        + " - 2*" + skew + " - " + te + " is negative: the client's promise is shorter than the "
                        + "clocks' uncertainty plus a message lifetime, so no sync could ever be judged fresh");
            }
        }
        this.tr = tr;
        this.tu = tu;
        this.skew = skew;
    }

    private static void check(String name, long v) {
        if (v < 0 || v > MAX_TIME) {
            throw new IllegalArgumentException("rule R1: " + name + " = " + v + " must be in 0.." + MAX_TIME
                    + " ticks");
        }
    }

    /**
     * Mutation seam, for the specs' refuted "faithful" models and the replay of their
     * counterexamples only: the freshness tests as printed (A.7 {@code TS[s] < now - Tr}, A.8
     * {@code TS[s] < H(s)}), where a sync sent in the same tick as the bound counts as fresh although
     * it may predate the connection's last delivery (Z10). Never use it for real.
     */
    public GatherConfig withPrintedBoundary() {
        return new GatherConfig(servers, strategy, tr, tu, skew, true, skewInFreshness, plainDeliver);
    }

    /**
     * Mutation seam for tests only (the notes' M5-d and the S6 skew mutant): the freshness tests
     * leave the 2ε out (window T_r - T_e, margin T_e) while the future-stamp check still allows for
     * ε. {@code S5SkewTest} shows the duplicate this lets through. Package-private: conformance's
     * replay reaches it through its test-side factory {@code GatherSeams}.
     */
    GatherConfig withSkewLeftOutOfFreshness() {
        return new GatherConfig(servers, strategy, tr, tu, skew, printedBoundary, false, plainDeliver);
    }

    /**
     * Mutation seam, for the replay of ExactlyOnceS4Deliver only (3.3.1's impossibility: the plain
     * Deliver in place of aDeliver): the server reveals its D (replyD, syncs) even while an
     * outcome is unknown, as that spec, which lacks the aDeliver contract, lets it. Never use it for
     * real: a peer would take a note delivered but not yet in D as undelivered.
     */
    public GatherConfig withPlainDeliver() {
        return new GatherConfig(servers, strategy, tr, tu, skew, printedBoundary, skewInFreshness, true);
    }

    /** Whether D is revealed while an aDeliver outcome is unknown ({@link #withPlainDeliver}). */
    public boolean plainDeliver() {
        return plainDeliver;
    }

    public boolean printedBoundary() {
        return printedBoundary;
    }

    /** Whether a sync sent at {@code ts} is too old for {@code bound}: {@code ts <= bound} (Z10). */
    public boolean notFresh(long ts, long bound) {
        return printedBoundary ? ts < bound : ts <= bound;
    }

    /** Strategy 4: no time parameter is used. */
    public static GatherConfig s4(ServerId self, ClientId client, SortedSet<ServerId> all) {
        return new GatherConfig(new ServerConfig(self, client, all, 0), Strategy.S4, 0, 0, 0);
    }

    public ServerConfig servers() {
        return servers;
    }

    public Strategy strategy() {
        return strategy;
    }

    public ServerId self() {
        return servers.self();
    }

    public ClientId client() {
        return servers.client();
    }

    public long tr() {
        return tr;
    }

    public long tu() {
        return tu;
    }

    public long skew() {
        return skew;
    }

    public long te() {
        return servers.te();
    }

    /**
     * Strategy 5's freshness window T_r - 2ε - T_e: a peer whose latest sync was sent at or before
     * {@code now - window} is stale (strict, Z10). The 2ε covers two clocks' deviation; the T_e
     * covers footnote 3's gap (Z10): T_r runs from the client's last message, and the server logs the
     * connection's last delivery up to one message lifetime later. At least T_u + T_e + 1 (rule R3).
     */
    public long window() {
        return tr - (skewInFreshness ? 2 * skew : 0) - servers.te();
    }

    /** Strategy 5: whether a peer's periodic sync (at most T_u + T_e old) can be inside the window. */
    public boolean fastPathPossible() {
        return tu + servers.te() < window();
    }

    /**
     * Strategy 6: how much later than the client's end time {@code h} a peer's sync must have been
     * sent to be known to hold the connection's deliveries: 2ε (H is the client's clock, TS the
     * peer's, Z18) plus T_e (footnote 3's gap, Z10). Fresh iff {@code TS > h + margin}.
     */
    public long historyMargin() {
        return (skewInFreshness ? 2 * skew : 0) + servers.te();
    }
}
