package dev.onceproof.rpc.runtime;

import dev.onceproof.rpc.core.RpcServerCore;
import dev.onceproof.rpc.core.RpcServerState;
import dev.onceproof.rpc.core.ServerEffect;
import dev.onceproof.rpc.core.ServerStep;
import dev.onceproof.rpc.core.SynchronizedRpcServer;
import dev.onceproof.rpc.wire.DecodeResult;
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
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The at-most-once RPC server on real UDP: a thin shell around the sans-IO core (paper 3.1,
 * Figure 3-1). One receiver thread reads datagrams, steps the core and sends what it says; accepted
 * calls go through a bounded queue to worker threads that run the {@link CallHandler} and report
 * completion to the core, which answers with the REPLY; a background thread writes latest to
 * stable storage (resilient server, Fig. 2-2) and garbage-collects the connection table.
 *
 * <p>All threads share one {@link SynchronizedRpcServer}, whose steps are microseconds long; the
 * handler runs outside its lock. A server started on stable storage that already holds latest is
 * a restart after a crash (Fig. 2-2 "Crash Recovery"): its upper starts at the stored latest, so
 * no call accepted before the crash can run again.
 */
public final class RpcUdpServer implements AutoCloseable {

    /** An accepted call on its way to a worker, with the address its REPLY goes to. */
    private record Task(ConnId conn, Timestamp ts, Payload args, SocketAddress client) {
    }

    private static final Task STOP = new Task(ConnId.of("stop"), Timestamp.of(0), Payload.EMPTY, null);
    private static final int LOGGED_MALFORMED = 10;
    /** One direct send buffer per sending thread (receiver, workers): no allocation or copy per reply. */
    private static final ThreadLocal<ByteBuffer> SEND_BUFFER =
            ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(WireFormat.MAX_DATAGRAM));

    private final SynchronizedRpcServer core;
    private final ScmpConfig scmpConfig;
    private final CallHandler handler;
    private final ServerOptions options;
    private final DatagramChannel channel;
    private final InetSocketAddress address;
    private final BlockingQueue<Task> queue;
    private final Thread receiver;
    private final List<Thread> workers = new ArrayList<>();
    private final ScheduledExecutorService background;
    private final ServerCounters counters = new ServerCounters();
    private final boolean recovered;
    private volatile boolean closing;

    private RpcUdpServer(SynchronizedRpcServer core, boolean recovered, ScmpConfig scmpConfig,
                         CallHandler handler, ServerOptions options, DatagramChannel channel) throws IOException {
        this.core = core;
        this.recovered = recovered;
        this.scmpConfig = scmpConfig;
        this.handler = handler;
        this.options = options;
        this.channel = channel;
        this.address = (InetSocketAddress) channel.getLocalAddress();
        this.queue = new ArrayBlockingQueue<>(options.queueCapacity());
        this.receiver = new Thread(this::receiveLoop, "rpc-receiver-" + address.getPort());
        for (int i = 0; i < options.workers(); i++) {
            workers.add(new Thread(this::workLoop, "rpc-worker-" + address.getPort() + "-" + i));
        }
        this.background = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "rpc-background-" + address.getPort());
            t.setDaemon(true);
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
        if (scmpConfig.scheme() == RecoveryScheme.RESILIENT
                && options.latestPeriodMillis() >= scmpConfig.beta()) {
            throw new IllegalArgumentException("latest period " + options.latestPeriodMillis()
                    + " ms is not below beta " + scmpConfig.beta() + " ms; latest would fall behind the"
                    + " clock and timely calls would be refused as too early (Fig. 2-2)");
        }
        boolean recovered = storage.read().isPresent();
        RpcServerCore core = recovered
                ? RpcServerCore.restart(scmpConfig, clock, storage, kappa)
                : new RpcServerCore(scmpConfig, clock, storage, kappa);
        DatagramChannel channel = DatagramChannel.open();
        try {
            channel.bind(options.bind());
        } catch (IOException e) {
            channel.close();
            throw new IOException("cannot bind UDP " + options.bind() + ": " + e.getMessage(), e);
        }
        RpcUdpServer server = new RpcUdpServer(new SynchronizedRpcServer(core), recovered, scmpConfig,
                handler, options, channel);
        server.startThreads();
        return server;
    }

    private void startThreads() {
        workers.forEach(Thread::start);
        receiver.start();
        if (scmpConfig.scheme() == RecoveryScheme.RESILIENT) {
            background.scheduleWithFixedDelay(this::writeLatest, options.latestPeriodMillis(),
                    options.latestPeriodMillis(), TimeUnit.MILLISECONDS);
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

    /** The core's abstract state (the spec's server variables), read under its lock. */
    public RpcServerState state() {
        return core.state();
    }

    private void receiveLoop() {
        ByteBuffer buf = ByteBuffer.allocate(WireFormat.MAX_DATAGRAM + 1);
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
            counters.datagrams.increment();
            DecodeResult decoded = RpcDecoder.decode(buf.array(), 0, buf.position());
            if (decoded instanceof DecodeResult.Malformed m) {
                counters.malformed.increment();
                if (counters.malformed.sum() <= LOGGED_MALFORMED) {
                    System.err.println("rpc server " + address + ": dropped malformed datagram from "
                            + from + ": " + m);
                }
                continue;
            }
            RpcMessage message = ((DecodeResult.Decoded) decoded).message();
            if (message instanceof RpcMessage.Call && !workers.isEmpty() && queue.remainingCapacity() == 0) {
                // Dropped before SCMP judges it: an accepted call must never be lost in the queue.
                counters.droppedQueueFull.increment();
                continue;
            }
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
                    dispatch(new Task(x.conn(), x.ts(), x.payload(), from));
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

    private void dispatch(Task task) {
        if (workers.isEmpty()) {
            execute(task);
        } else if (!queue.offer(task)) {
            // The receiver is the only producer and checked for room before the core accepted.
            throw new IllegalStateException("work queue full after the receiver checked it had room");
        }
    }

    private void workLoop() {
        while (true) {
            Task task;
            try {
                task = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (task == STOP) {
                return;
            }
            execute(task);
        }
    }

    /** Runs the handler, then reports completion; the core's REPLY goes to the caller's address. */
    private void execute(Task task) {
        Payload result;
        try {
            result = Payload.of(handler.execute(task.conn(), task.ts(), task.args().toByteArray()));
        } catch (Exception e) {
            // No reply: the call may have done part of its work, so the client must see "unknown".
            counters.handlerFailures.increment();
            System.err.println("rpc server " + address + ": handler failed on call " + task.conn() + "/"
                    + task.ts() + "; no reply is sent: " + e);
            return;
        }
        counters.executed.increment();
        ServerStep done;
        try {
            done = core.complete(task.conn(), task.ts(), result);
        } catch (RuntimeException e) {
            counters.internalErrors.increment();
            System.err.println("rpc server " + address + ": core failed completing call " + task.conn() + "/"
                    + task.ts() + "; no reply is sent");
            e.printStackTrace();
            return;
        }
        for (ServerEffect effect : done.effects()) {
            if (effect instanceof ServerEffect.Send s) {
                counters.replies.increment();
                send(s.message(), task.client());
            }
        }
    }

    private void send(RpcMessage message, SocketAddress to) {
        try {
            ByteBuffer out = SEND_BUFFER.get().clear();
            RpcEncoder.encode(message, out);
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

    private void collectGarbage() {
        try {
            counters.collected.add(core.collectGarbage());
        } catch (RuntimeException e) {
            System.err.println("rpc server " + address + ": garbage collection failed: " + e);
        }
    }

    /** Stops receiving, drops calls not yet started, waits for running handlers, stops every thread. */
    @Override
    public void close() throws IOException {
        if (closing) {
            return;
        }
        closing = true;
        background.shutdown();
        channel.close();
        join(receiver);
        queue.clear();
        try {
            for (int i = 0; i < workers.size(); i++) {
                // Only workers take from the queue now; one STOP each, waiting for room if needed.
                queue.offer(STOP, 10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        workers.forEach(RpcUdpServer::join);
        try {
            if (!background.awaitTermination(5, TimeUnit.SECONDS)) {
                background.shutdownNow();
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
