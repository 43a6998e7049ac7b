package dev.onceproof.rpc.hybrid;

import dev.onceproof.scmp.ConnId;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The server of the hybrid (Hybrid.tla, server steps): Birrell and Nelson's connection table and
 * incarnation number with SCMP's {@code upper} for connections without an entry. Single-threaded,
 * sans-IO: the clock is injected (one millisecond is one unit of the spec's time), the caller sends
 * what a step returns and keeps the incarnation on stable storage (ordering rule in package-info).
 *
 * <p>Why no call runs twice (Hybrid.tla, {@code CopiesCovered}): a copy of an executed call of this
 * incarnation is at or below its entry's sequence number while the entry exists; the entry goes only
 * after the client's ack, whose timestamp is above every copy of the call (3.2's proviso, which
 * {@link HybridClientCore} keeps), and {@code upper} rises to that timestamp as it goes.
 *
 * <p><b>Mutation seams.</b> {@link #upperAfterCollecting} and {@link #judgeWithoutEntry} each carry
 * one safeguard; tests override them to show that trace replay catches a core without it.
 */
public class HybridServerCore {

    private final InstantSource clock;
    private final long rho;
    /** Invariant: only entries of the current incarnation; empty while down. */
    private final Map<String, HybridEntry> table = new TreeMap<>();
    /** Invariant: at most now - rho; covers every call of a removed entry (Hybrid.tla, UpperBelowHorizon). */
    private long upper;
    /** On stable storage: survives {@link #crash()}. */
    private long incarnation;
    private boolean up = true;

    /**
     * A server starting with the incarnation read from stable storage (1 on first start).
     *
     * @param rho how long after its ack an idle entry is kept: about the maximum network delay
     */
    public HybridServerCore(InstantSource clock, long rho, long incarnation) {
        this.clock = Objects.requireNonNull(clock, "clock");
        if (rho < 1) {
            throw new IllegalArgumentException("rho " + rho + " is below 1 (Hybrid.tla, ASSUME RhoIsPositive)");
        }
        if (incarnation < 1) {
            throw new IllegalArgumentException("incarnation " + incarnation + " is below 1");
        }
        this.rho = rho;
        this.incarnation = incarnation;
        this.upper = now() - rho; // Fig. 2-1 initialization at clock 0: min(0, 0 - rho)
    }

    /** Rules 1 and 2 of Birrell and Nelson; without an entry SCMP's rule 3 by {@code upper}. */
    public ServerStep receiveCall(HybridMessage.Call m) {
        requireUp("receiveCall");
        CallOutcome o;
        HybridEntry e = table.get(m.conn().value());
        if (m.inc() != incarnation) {
            o = CallOutcome.STALE_INCARNATION;
        } else if (e != null) {
            if (m.seq() > e.seq()) {
                o = CallOutcome.EXECUTE;
            } else if (m.seq() == e.seq() && e.replying()) {
                o = CallOutcome.RETRANSMIT_REPLY;
            } else {
                o = CallOutcome.DUPLICATE;
            }
        } else {
            o = judgeWithoutEntry(m, upper);
        }
        if (o == CallOutcome.EXECUTE) {
            table.put(m.conn().value(), new HybridEntry(m.seq(), true, 0));
        }
        Optional<HybridMessage.Reply> reply = (o == CallOutcome.EXECUTE || o == CallOutcome.RETRANSMIT_REPLY)
                ? Optional.of(new HybridMessage.Reply(m.conn(), m.seq(), m.inc(), m.ts()))
                : Optional.empty();
        return new ServerStep(o, reply);
    }

    /**
     * "When an ack is received, its timestamp is stored in the connection table entry": only the ack
     * of the entry's call while it is replying, in this incarnation.
     *
     * @return whether the ack was taken (false: ignored, nothing changed)
     */
    public boolean receiveAck(HybridMessage.Ack m) {
        requireUp("receiveAck");
        HybridEntry e = table.get(m.conn().value());
        if (m.inc() != incarnation || e == null || e.seq() != m.seq() || !e.replying()) {
            return false;
        }
        table.put(m.conn().value(), new HybridEntry(m.seq(), false, m.ts().value()));
        return true;
    }

    /**
     * Removes conn's entry if it is acknowledged and its ack is rho old, raising upper to the ack's
     * timestamp ("The entry can be removed, and G.upper updated, after a time period approximately
     * equal to the maximum expected delay").
     *
     * @return whether the entry was removed
     */
    public boolean collectGarbage(ConnId conn) {
        requireUp("collectGarbage");
        HybridEntry e = table.get(conn.value());
        if (e == null || e.replying() || e.ackTs() > now() - rho) {
            return false;
        }
        table.remove(conn.value());
        upper = upperAfterCollecting(upper, e);
        return true;
    }

    /** Every eligible entry, in connection order; returns how many went. */
    public int collectGarbage() {
        int n = 0;
        for (String c : new ArrayList<>(table.keySet())) {
            if (collectGarbage(ConnId.of(c))) {
                n++;
            }
        }
        return n;
    }

    /** The process dies: the table is volatile and gone; the incarnation is on stable storage. */
    public void crash() {
        requireUp("crash");
        up = false;
        table.clear();
    }

    /**
     * Restart with a new incarnation; upper starts afresh as at initialization, since every call of
     * the new incarnation is sent after the client binds to it.
     *
     * @return the new incarnation number, to be made durable before any call is answered
     */
    public long recover() {
        if (up) {
            throw new IllegalStateException("recover() on a server that is up (Hybrid.tla, Recover needs ~up)");
        }
        up = true;
        incarnation++;
        upper = now() - rho;
        return incarnation;
    }

    /** What a binding request is answered with. */
    public long incarnation() {
        requireUp("incarnation");
        return incarnation;
    }

    public HybridServerState state() {
        return new HybridServerState(incarnation, up, table, upper);
    }

    // ---- mutation seams --------------------------------------------------------------------

    /** Seam: GC raises upper to the ack's timestamp (never lowers it). */
    protected long upperAfterCollecting(long upper, HybridEntry removed) {
        return Math.max(upper, removed.ackTs());
    }

    /** Seam: a call on a connection without an entry is new only above upper (SCMP rule 3). */
    protected CallOutcome judgeWithoutEntry(HybridMessage.Call m, long upper) {
        return m.ts().value() > upper ? CallOutcome.EXECUTE : CallOutcome.BELOW_UPPER;
    }

    private long now() {
        return clock.millis();
    }

    private void requireUp(String what) {
        if (!up) {
            throw new IllegalStateException(what + "() on a crashed server: call recover() first");
        }
    }
}
