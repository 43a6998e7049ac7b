package dev.onceproof.rpc.runtime;

import dev.onceproof.rpc.core.ConcurrentRpcServer;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.rpc.core.RpcServerState;
import dev.onceproof.rpc.core.ServerEffect;
import dev.onceproof.rpc.core.ServerStep;
import dev.onceproof.rpc.wire.DatagramAuth;
import dev.onceproof.rpc.wire.DecodeResult;
import dev.onceproof.rpc.wire.Keyring;
import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcDecoder;
import dev.onceproof.rpc.wire.RpcEncoder;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.rpc.wire.WireFormat;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.storage.StableStorage;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The at-most-once RPC server on real UDP: a thin shell around the sans-IO, thread-safe core
 * {@link ConcurrentRpcServer} (paper 3.1, Figure 3-1, over the concurrent SCMP filter).
 *
 * <p>{@link ServerOptions#threads()} server threads share one channel and one core. Each receives a
 * datagram, steps the core with it and sends what the core says; when the core accepts a call, the
 * same thread runs the {@link CallHandler}, reports completion to the core and sends its REPLY. So
 * the worker threads themselves share the concurrent filter: two copies of one CALL received by two
 * threads are judged one after the other inside the core's per-connection section, and only one is
 * executed. A background thread writes latest to stable storage (resilient server, Fig. 2-2) and
 * garbage-collects the connection table.
 *
 * <p>A server started on stable storage that already holds latest is a restart after a crash
 * (Fig. 2-2 "Crash Recovery"): its upper starts at the stored latest, so no call accepted before the
 * crash can run again.
 */
public final class RpcUdpServer implements AutoCloseable {

    private static final int LOGGED_MALFORMED = 10;
    /** One direct send buffer per sending thread: no allocation or copy per reply. */
    private static final ThreadLocal<ByteBuffer> SEND_BUFFER =
            ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(WireFormat.MAX_DATAGRAM));
    /** How soon a monotonic restart retries finishRecovery if the clock is not yet past epsilon. */
    private static final long RECOVERY_RETRY_MILLIS = 10;

    private final ConcurrentRpcServer core;
    private final ScmpConfig scmpConfig;
    private final CallHandler handler;
    private final ServerOptions options;
    private final DatagramChannel channel;
    private final InetSocketAddress address;
    private final List<Thread> threads = new ArrayList<>();
    private final ScheduledExecutorService background;
    /** The background executor's one thread, joined at close: a terminated executor's worker may still be alive. */
    private volatile Thread backgroundThread;
    private final ServerCounters counters = new ServerCounters();
    /** Null: wire format version 1; else every datagram in and out is version 2 under these keys. */
    private final Keyring keys;
    private final boolean recovered;
    private volatile boolean closing;

    private RpcUdpServer(ConcurrentRpcServer core, boolean recovered, ScmpConfig scmpConfig,
                         CallHandler handler, ServerOptions options, DatagramChannel channel) throws IOException {
        this.core = core;
        this.recovered = recovered;
        this.scmpConfig = scmpConfig;
        this.handler = handler;
        this.options = options;
        this.keys = options.keys();
        this.channel = channel;
        this.address = (InetSocketAddress) channel.getLocalAddress();
        for (int i = 0; i < options.threads(); i++) {
            threads.add(new Thread(this::serveLoop, "rpc-server-" + address.getPort() + "-" + i));
        }
        this.background = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rpc-background-" + address.getPort());
            t.setDaemon(true);
            backgroundThread = t;
            return t;
        });
    }

    /**
     * Binds the socket and starts every thread. If {@code storage} already holds latest, this is a
     * restart: the core recovers from it; otherwise the core initializes it (Fig. 2-2).
     *
     * @param kappa how long a reply is kept for a client still interested in it (paper 3.1)
     */
    public static RpcUdpServer start(ServerOptions options, ScmpConfig scmpConfig, long kappa,
                                     StableStorage storage, InstantSource clock, CallHandler handler)
            throws IOException {
        return start(options, scmpConfig, kappa, storage, clock, handler, StepLog.OFF);
    }

    /**
     * As {@link #start(ServerOptions, ScmpConfig, long, StableStorage, InstantSource, CallHandler)},
     * with the core logging its RPC.tla steps to {@code log} (trace validation); a restart's log begins
     * with its Recover.
     */
    public static RpcUdpServer start(ServerOptions options, ScmpConfig scmpConfig, long kappa,
                                     StableStorage storage, InstantSource clock, CallHandler handler, StepLog log)
            throws IOException {
        if (scmpConfig.scheme() == RecoveryScheme.RESILIENT
                && options.latestPeriodMillis() >= scmpConfig.beta()) {
            throw new IllegalArgumentException("latest period " + options.latestPeriodMillis()
                    + " ms is not below beta " + scmpConfig.beta() + " ms; latest would fall behind the"
                    + " clock and timely calls would be refused as too early (Fig. 2-2)");
        }
        boolean recovered = storage.read().isPresent();
        ConcurrentRpcServer core = ConcurrentRpcServer.logged(scmpConfig, clock, storage, kappa, recovered, log);
        DatagramChannel channel = DatagramChannel.open();
        try {
            channel.bind(options.bind());
        } catch (IOException e) {
            channel.close();
            throw new IOException("cannot bind UDP " + options.bind() + ": " + e.getMessage(), e);
        }
        RpcUdpServer server = new RpcUdpServer(core, recovered, scmpConfig, handler, options, channel);
        server.startThreads();
        return server;
    }

    private void startThreads() {
        threads.forEach(Thread::start);
        if (scmpConfig.scheme() == RecoveryScheme.RESILIENT) {
            background.scheduleWithFixedDelay(this::writeLatest, options.latestPeriodMillis(),
                    options.latestPeriodMillis(), TimeUnit.MILLISECONDS);
        }
        if (core.inRecovery()) {
            // Monotonic restart: every call is refused for epsilon, then upper := clock (2.2).
            background.schedule(this::finishRecovery, scmpConfig.epsilon() + 1, TimeUnit.MILLISECONDS);
        }
        background.scheduleWithFixedDelay(this::collectGarbage, options.gcPeriodMillis(),
                options.gcPeriodMillis(), TimeUnit.MILLISECONDS);
    }

    public InetSocketAddress address() {
        return address;
    }

    /** Whether this server started from a latest already on stable storage (a restart). */
    public boolean recovered() {
        return recovered;
    }

    public ServerCounters.Snapshot counters() {
        return counters.snapshot();
    }

    /**
     * The core's abstract state (the spec's server variables); exact when no call is in progress.
     * Waits for a durable write of latest in progress (it reads what stable storage holds).
     */
    public RpcServerState state() {
        return core.state();
    }

    /** One server thread: receive, judge, execute what was accepted, reply; until close(). */
    private void serveLoop() {
        // Direct, so the kernel writes into it in place: receiving into a heap buffer makes the JDK
        // borrow a temporary direct one and copy anyway. The decoder reads a copy in a heap array.
        ByteBuffer buf = ByteBuffer.allocateDirect(WireFormat.MAX_DATAGRAM + 1);
        byte[] datagram = new byte[WireFormat.MAX_DATAGRAM + 1];
        ConnId lastConn = null; // a client making sequential calls sends the same id each time
        ServerCounters.Lane lane = counters.newLane();
        while (!closing) {
            buf.clear();
            SocketAddress from;
            try {
                from = channel.receive(buf);
            } catch (ClosedChannelException e) {
                return;
            } catch (IOException e) {
                if (!closing) {
                    System.err.println("rpc server " + address + ": receive failed: " + e);
                }
                continue;
            }
            lane.datagram();
            int length = buf.position();
            buf.get(0, datagram, 0, length);
            // With keys, nothing reaches the core before its tag is checked: a forged datagram is
            // counted and dropped here, before any protocol state changes.
            DecodeResult decoded = keys == null ? RpcDecoder.decode(datagram, 0, length, lastConn)
                    : DatagramAuth.open(datagram, 0, length, lastConn, keys);
            if (decoded instanceof DecodeResult.Unauthenticated u) {
                counters.unauthenticated.increment();
                if (counters.unauthenticated.sum() <= LOGGED_MALFORMED) {
                    System.err.println("rpc server " + address + ": dropped unauthenticated datagram from "
                            + from + ": " + u.detail());
                }
                continue;
            }
            if (decoded instanceof DecodeResult.Malformed m) {
                counters.malformed.increment();
                if (counters.malformed.sum() <= LOGGED_MALFORMED) {
                    System.err.println("rpc server " + address + ": dropped malformed datagram from "
                            + from + ": " + m);
                }
                continue;
            }
            RpcMessage message = ((DecodeResult.Decoded) decoded).message();
            lastConn = message.conn();
            ServerStep step;
            try {
                step = core.receive(message);
            } catch (RuntimeException e) {
                // A broken contract in the core must not silence the server for every other client.
                counters.internalErrors.increment();
                System.err.println("rpc server " + address + ": core failed on " + message + " from " + from);
                e.printStackTrace();
                continue;
            }
            count(step);
            for (ServerEffect effect : step.effects()) {
                if (effect instanceof ServerEffect.Send s) {
                    send(s.message(), from);
                } else if (effect instanceof ServerEffect.Execute x) {
                    execute(x.conn(), x.ts(), x.payload(), from, lane);
                }
            }
        }
    }

    private void count(ServerStep step) {
        switch (step.outcome()) {
            case ACK -> counters.acks.increment();
            case RETRANSMIT_REPLY -> counters.retransmittedReplies.increment();
            case REJECT -> counters.rejects.increment();
            case TOO_EARLY -> counters.tooEarly.increment();
            default -> {
                // EXECUTE is counted when the handler ends; the rest need no counter.
            }
        }
    }

    /** Runs the handler, then reports completion; the core's REPLY goes to the caller's address. */
    private void execute(ConnId conn, Timestamp ts, Payload args, SocketAddress client, ServerCounters.Lane lane) {
        Payload result;
        try {
            result = Payload.of(handler.execute(conn, ts, args.toByteArray()));
        } catch (Exception e) {
            // No reply: the call may have done part of its work, so the client must see "unknown".
            counters.handlerFailures.increment();
            System.err.println("rpc server " + address + ": handler failed on call " + conn + "/" + ts
                    + "; no reply is sent: " + e);
            return;
        }
        lane.executed();
        ServerStep done;
        try {
            done = core.complete(conn, ts, result);
        } catch (RuntimeException e) {
            counters.internalErrors.increment();
            System.err.println("rpc server " + address + ": core failed completing call " + conn + "/" + ts
                    + "; no reply is sent");
            e.printStackTrace();
            return;
        }
        for (ServerEffect effect : done.effects()) {
            if (effect instanceof ServerEffect.Send s) {
                lane.replied();
                send(s.message(), client);
            }
        }
    }

    private void send(RpcMessage message, SocketAddress to) {
        try {
            ByteBuffer out = SEND_BUFFER.get().clear();
            if (keys == null) {
                RpcEncoder.encode(message, out);
            } else {
                // The conn's key exists: the message answers a datagram authenticated under it.
                DatagramAuth.seal(message, keys.sendingKey(message.conn()), out);
            }
            channel.send(out.flip(), to);
        } catch (ClosedChannelException e) {
            // Closing: the client's retransmission will find the next incarnation, or time out.
        } catch (IOException e) {
            System.err.println("rpc server " + address + ": cannot send " + message.type() + " to " + to
                    + ": " + e);
        }
    }

    private void writeLatest() {
        try {
            core.writeLatest();
            counters.latestWrites.increment();
        } catch (RuntimeException e) {
            // Safe to go on: without a new latest, calls become too early rather than duplicated.
            System.err.println("rpc server " + address + ": cannot write latest to stable storage: " + e);
        }
    }

    private void finishRecovery() {
        try {
            core.finishRecovery();
        } catch (IllegalStateException e) {
            // The injected clock is not yet epsilon past the restart: try again shortly.
            background.schedule(this::finishRecovery, RECOVERY_RETRY_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private void collectGarbage() {
        try {
            counters.collected.add(core.collectGarbage());
        } catch (RuntimeException e) {
            System.err.println("rpc server " + address + ": garbage collection failed: " + e);
        }
    }

    /** Stops receiving, waits for running handlers to finish, stops every thread. */
    @Override
    public void close() throws IOException {
        if (closing) {
            return;
        }
        closing = true;
        background.shutdown();
        channel.close(); // wakes every thread blocked in receive
        threads.forEach(RpcUdpServer::join);
        try {
            if (!background.awaitTermination(5, TimeUnit.SECONDS)) {
                background.shutdownNow();
            }
            // awaitTermination returns once the worker has run its last task, which can be before
            // its thread has ended; close promises that no thread of this server outlives it.
            Thread t = backgroundThread;
            if (t != null) {
                t.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void join(Thread t) {
        try {
            t.join(10_000);
            if (t.isAlive()) {
                // A handler stuck past the grace period: interrupt it rather than leak the thread.
                t.interrupt();
                t.join(5_000);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
