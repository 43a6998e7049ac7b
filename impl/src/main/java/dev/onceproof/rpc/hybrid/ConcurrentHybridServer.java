package dev.onceproof.rpc.hybrid;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.steplog.StepLog;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Objects;
import java.util.function.Function;

/**
 * The hybrid server for threads that share it: each step of {@link HybridServerCore} runs under this
 * object's lock, one atomic step of Hybrid.tla, which is the argument for running the sequential core
 * under one lock. The table is small and a step is a map lookup, so one lock costs little.
 *
 * <p><b>Step log.</b> With a {@link StepLog} that is on, each step of Hybrid.tla the server takes
 * (ReceiveCall, ReceiveAck, CollectGarbage, Crash, Recover, and its Init) is logged under this lock
 * and the log's monitor, with the clock reading the step used ({@link StepClock}), before the step
 * returns the REPLY its caller sends: a line precedes every datagram it caused. A CALL, ACK or
 * collection the core ignores changes nothing and is a stutter step: no line. With {@link StepLog#OFF}
 * a hook tests one final field and allocates nothing.
 *
 * <p>The core is built by the caller from the clock this class gives it, so a core broken through
 * one of its mutation seams (an override of {@code judgeWithoutEntry} or {@code upperAfterCollecting})
 * runs here unchanged: trace validation's control.
 */
public final class ConcurrentHybridServer {

    private final StepClock clock;
    private final HybridServerCore core;
    private final StepLog log;
    /** The clock reading the core started at: Hybrid.tla's time 0 for a run's logs. */
    private final long startedAt;

    /**
     * @param core builds the core from the clock it must read (for example
     *             {@code c -> new HybridServerCore(c, rho, incarnation)})
     */
    public ConcurrentHybridServer(InstantSource clock, Function<InstantSource, HybridServerCore> core, StepLog log) {
        this.clock = new StepClock(Objects.requireNonNull(clock, "clock"));
        this.log = Objects.requireNonNull(log, "log");
        synchronized (this) {
            long now = this.clock.read();
            this.startedAt = now;
            this.core = Objects.requireNonNull(core.apply(this.clock), "core");
            if (log.on()) {
                HybridServerState s = this.core.state();
                synchronized (log) {
                    log.step("Init").field("now", now).field("upper", s.upper()).field("inc", s.incarnation()).end();
                }
            }
        }
    }

    public synchronized ServerStep receiveCall(HybridMessage.Call m) {
        long now = clock.read();
        ServerStep step = core.receiveCall(m);
        if (log.on()) {
            synchronized (log) {
                log.step("ReceiveCall").field("conn", m.conn().value()).field("seq", m.seq()).field("inc", m.inc())
                        .field("ts", m.ts().value()).field("outcome", step.outcome().specName()).field("now", now).end();
            }
        }
        return step;
    }

    public synchronized boolean receiveAck(HybridMessage.Ack m) {
        long now = clock.read();
        boolean taken = core.receiveAck(m);
        if (taken && log.on()) {
            synchronized (log) {
                log.step("ReceiveAck").field("conn", m.conn().value()).field("seq", m.seq()).field("inc", m.inc())
                        .field("ts", m.ts().value()).field("now", now).end();
            }
        }
        return taken;
    }

    public synchronized boolean collectGarbage(ConnId conn) {
        long now = clock.read();
        boolean removed = core.collectGarbage(conn);
        if (removed && log.on()) {
            synchronized (log) {
                log.step("CollectGarbage").field("conn", conn.value()).field("now", now)
                        .field("upper", core.state().upper()).end();
            }
        }
        return removed;
    }

    /** Every eligible entry, one atomic step each (the spec collects one connection per step). */
    public synchronized int collectGarbage() {
        int n = 0;
        for (String c : new ArrayList<>(core.state().table().keySet())) {
            if (collectGarbage(ConnId.of(c))) {
                n++;
            }
        }
        return n;
    }

    public synchronized void crash() {
        long now = clock.read();
        core.crash();
        if (log.on()) {
            synchronized (log) {
                log.step("Crash").field("now", now).end();
            }
        }
    }

    /** Restart with a new incarnation, which the caller makes durable before answering anything. */
    public synchronized long recover() {
        long now = clock.read();
        long inc = core.recover();
        if (log.on()) {
            synchronized (log) {
                log.step("Recover").field("inc", inc).field("now", now).field("upper", core.state().upper()).end();
            }
        }
        return inc;
    }

    /**
     * The clock reading the server started at. Clients of a logged run start their stamps just below
     * it (Hybrid.tla's Init: as if each had stamped a message just before its first reading).
     */
    public long startedAt() {
        return startedAt;
    }

    /** What a binding request is answered with (the client logs its Bind). */
    public synchronized long incarnation() {
        return core.incarnation();
    }

    public synchronized HybridServerState state() {
        return core.state();
    }
}
