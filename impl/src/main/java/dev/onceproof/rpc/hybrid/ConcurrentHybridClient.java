package dev.onceproof.rpc.hybrid;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.steplog.StepLog;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;

/**
 * A hybrid client for threads that share it (a caller and a receiver thread): each step of
 * {@link HybridClientCore} runs under this object's lock, one atomic step of Hybrid.tla.
 *
 * <p><b>Step log.</b> With a {@link StepLog} that is on, each client step of Hybrid.tla (Bind, Call,
 * Retransmit, Timeout, ReceiveReply, and an Init line with the last timestamp it starts from) is
 * logged under this lock and the log's monitor, with the clock reading the step used ({@code clock}:
 * the client's own clock, which Hybrid.tla reads as now + skew[c]), before the step returns the
 * message its caller sends. A reply the core ignores, or a retransmission the clock does not allow
 * yet, changes nothing: no line.
 */
public final class ConcurrentHybridClient {

    private final ConnId conn;
    private final StepClock clock;
    private final HybridClientCore core;
    private final StepLog log;

    public ConcurrentHybridClient(ConnId conn, InstantSource clock, long lastTs, StepLog log) {
        this.conn = Objects.requireNonNull(conn, "conn");
        this.clock = new StepClock(Objects.requireNonNull(clock, "clock"));
        this.log = Objects.requireNonNull(log, "log");
        this.core = new HybridClientCore(conn, this.clock, lastTs);
        if (log.on()) {
            synchronized (log) {
                log.step("Init").field("conn", conn.value()).field("clientTs", lastTs)
                        .field("clock", this.clock.read()).end();
            }
        }
    }

    public synchronized void bind(long incarnation) {
        long reading = clock.read();
        core.bind(incarnation);
        if (log.on()) {
            synchronized (log) {
                log.step("Bind").field("conn", conn.value()).field("inc", incarnation).field("clock", reading).end();
            }
        }
    }

    public synchronized HybridMessage.Call call() {
        long reading = clock.read();
        HybridMessage.Call m = core.call();
        if (log.on()) {
            synchronized (log) {
                log.step("Call").field("conn", conn.value()).field("seq", m.seq()).field("ts", m.ts().value())
                        .field("clock", reading).end();
            }
        }
        return m;
    }

    public synchronized Optional<HybridMessage.Call> retransmit() {
        long reading = clock.read();
        Optional<HybridMessage.Call> m = core.retransmit();
        if (m.isPresent() && log.on()) {
            synchronized (log) {
                log.step("Retransmit").field("conn", conn.value()).field("seq", m.get().seq())
                        .field("ts", m.get().ts().value()).field("clock", reading).end();
            }
        }
        return m;
    }

    public synchronized void timeout() {
        long reading = clock.read();
        core.timeout();
        if (log.on()) {
            synchronized (log) {
                log.step("Timeout").field("conn", conn.value()).field("seq", core.state().seq())
                        .field("clock", reading).end();
            }
        }
    }

    public synchronized Optional<HybridMessage.Ack> receiveReply(HybridMessage.Reply m) {
        long reading = clock.read();
        Optional<HybridMessage.Ack> ack = core.receiveReply(m);
        if (ack.isPresent() && log.on()) {
            synchronized (log) {
                log.step("ReceiveReply").field("conn", conn.value()).field("seq", m.seq()).field("inc", m.inc())
                        .field("replyTs", m.ts().value()).field("ackTs", ack.get().ts().value())
                        .field("clock", reading).end();
            }
        }
        return ack;
    }

    public synchronized HybridClientState state() {
        return core.state();
    }
}
