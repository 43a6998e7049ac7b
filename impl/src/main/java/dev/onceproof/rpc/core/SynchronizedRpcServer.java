package dev.onceproof.rpc.core;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ScmpServer;
import dev.onceproof.scmp.Timestamp;
import java.util.Objects;

/**
 * A thread-safe {@link RpcServerCore} for a server whose receiver, worker and background threads
 * step it concurrently: every step runs under one lock, so the server's history is a sequence of
 * the sequential core's steps (the spec's interleaving semantics) and replay results carry over.
 *
 * <p>Why one lock and not one per connection: a step touches the RPC entry and the SCMP entry of
 * its connection and sometimes upper, and these must change together (an entry removed by GC must
 * be covered by upper before any receive on that connection looks). Steps are short (no I/O, no
 * user code: the computation runs outside, between {@code Execute} and {@link #complete}), so the
 * lock is held for microseconds. Effects are returned to the caller, who performs them outside the
 * lock; two steps' effects may therefore be performed out of order, which the protocol tolerates
 * (datagrams may be reordered anyway).
 */
public final class SynchronizedRpcServer {

    private final RpcServerCore core;
    /** Serializes stable-storage writes (taken before {@code this}, never inside it). */
    private final Object latestWriter = new Object();

    public SynchronizedRpcServer(RpcServerCore core) {
        this.core = Objects.requireNonNull(core, "core");
    }

    public synchronized ServerStep receive(RpcMessage m) {
        return core.receive(m);
    }

    public synchronized ServerStep complete(ConnId conn, Timestamp ts, Payload result) {
        return core.complete(conn, ts, result);
    }

    public synchronized boolean collectGarbage(ConnId conn) {
        return core.collectGarbage(conn);
    }

    public synchronized int collectGarbage() {
        return core.collectGarbage();
    }

    /**
     * Spec action WriteLatest with the durable write (an fsync, milliseconds) outside the step lock,
     * so receives are not stalled behind it. Safety is the sequential core's: the value is chosen
     * under the lock, written durably, and only then is latest raised, under the lock again; until
     * then receives judge against the old, lower latest, which is only stricter. Writes are
     * serialized by {@link #latestWriter} (also held by crash and recover), and each writes a value
     * above latest, which a prior write has made durable, so stable storage never goes backwards.
     */
    public long writeLatest() {
        synchronized (latestWriter) {
            long target;
            synchronized (this) {
                target = core.latestTarget();
                if (target == ScmpServer.NO_LATEST_WRITE) {
                    return core.latestDurable(target); // raises nothing: returns latest
                }
            }
            core.writeStable(target);
            synchronized (this) {
                return core.latestDurable(target);
            }
        }
    }

    public void crash() {
        synchronized (latestWriter) {
            synchronized (this) {
                core.crash();
            }
        }
    }

    public void recover() {
        synchronized (latestWriter) {
            synchronized (this) {
                core.recover();
            }
        }
    }

    public synchronized RpcServerState state() {
        return core.state();
    }

    public synchronized boolean isUp() {
        return core.isUp();
    }
}
