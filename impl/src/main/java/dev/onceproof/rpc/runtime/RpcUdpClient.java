package dev.onceproof.rpc.runtime;

import dev.onceproof.rpc.core.ClientEffect;
import dev.onceproof.rpc.core.ClientStep;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.rpc.core.RpcClientCore;
import dev.onceproof.rpc.wire.DatagramAuth;
import dev.onceproof.rpc.wire.DecodeResult;
import dev.onceproof.rpc.wire.RpcKey;
import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcDecoder;
import dev.onceproof.rpc.wire.RpcEncoder;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.rpc.wire.WireFormat;
import dev.onceproof.scmp.ConnId;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.time.InstantSource;
import java.util.List;
import java.util.Optional;

/**
 * One client connection of the at-most-once RPC over UDP: its own socket, its own connection id,
 * one call at a time (paper 2.2: a client with concurrent calls uses a connection per call in
 * flight, so make one of these per thread). The sans-IO {@link RpcClientCore} decides what to send
 * and when to retransmit or give up; this class only moves datagrams and waits for the timer.
 *
 * <p>Thread-safe in the sense that concurrent {@link #call}s on one client run one after another.
 */
public final class RpcUdpClient implements AutoCloseable {

    private final RpcClientCore core;
    /** The core's clock: the real clock read once per event (see {@link EventClock}). */
    private final EventClock clock;
    private final InetSocketAddress server;
    private final DatagramChannel channel;
    /** The channel's socket adaptor, for its timed receive; fetched once (the getter locks). */
    private final DatagramSocket socket;
    /**
     * One receive buffer per thread, not per client: a datagram may be 64 KB, and zeroing that much
     * for every short-lived client costs more than the call itself. A call uses it only on its own
     * thread and decodes (copies) the reply before returning.
     */
    private static final ThreadLocal<DatagramPacket> PACKET = ThreadLocal.withInitial(
            () -> new DatagramPacket(new byte[WireFormat.MAX_DATAGRAM + 1], WireFormat.MAX_DATAGRAM + 1));
    /**
     * One send buffer per thread, for the same reason; direct, so the kernel reads it in place
     * (a heap buffer is first copied into a temporary direct one by the JDK).
     */
    private static final ThreadLocal<ByteBuffer> SEND_BUFFER =
            ThreadLocal.withInitial(() -> ByteBuffer.allocateDirect(WireFormat.MAX_DATAGRAM));
    private final ClientOptions options;
    private final ReplyAcks replyAcks;
    /** Null: version 1; else this connection's sending key, and the keyring replies are checked with. */
    private final RpcKey sendingKey;
    /** DEFERRED: the REPLY-ACK of the last call, not yet sent. */
    private RpcMessage pendingReplyAck;
    /** RPC.tla client steps (Call, Retransmit, Timeout, Receive*), each logged before its effects go out. */
    private final StepLog log;

    public RpcUdpClient(InetSocketAddress server, ConnId conn, RetryPolicy policy) throws IOException {
        this(server, conn, ClientOptions.of(policy), InstantSource.system(), 0);
    }

    /**
     * @param lastSent the last call id used on {@code conn} before (0 for a new connection id), so
     *                 a restarted client never reuses one
     */
    public RpcUdpClient(InetSocketAddress server, ConnId conn, ClientOptions options, InstantSource clock,
                        long lastSent) throws IOException {
        this(server, conn, options, clock, lastSent, StepLog.OFF);
    }

    /** A client that logs its RPC.tla steps to {@code log} (trace validation). */
    public RpcUdpClient(InetSocketAddress server, ConnId conn, ClientOptions options, InstantSource clock,
                        long lastSent, StepLog log) throws IOException {
        this.log = java.util.Objects.requireNonNull(log, "log");
        this.options = options;
        this.replyAcks = options.replyAcks();
        this.sendingKey = options.keys() == null ? null : options.keys().sendingKey(conn);
        if (options.keys() != null && sendingKey == null) {
            throw new IllegalArgumentException("the keyring holds no key for connection " + conn
                    + " (it has keys for " + options.keys().connections() + ")");
        }
        this.clock = new EventClock(clock);
        this.core = new RpcClientCore(conn, this.clock, options.retry(), lastSent);
        this.server = server;
        this.channel = DatagramChannel.open();
        try {
            // Connected: the kernel drops datagrams from anyone but the server.
            channel.connect(server);
        } catch (IOException e) {
            channel.close();
            throw new IOException("cannot reach " + server + ": " + e.getMessage(), e);
        }
        this.socket = channel.socket();
    }

    public ConnId conn() {
        return core.conn();
    }

    public InetSocketAddress server() {
        return server;
    }

    /** Makes one call and waits until it is replied, rejected as a duplicate, or timed out. */
    public synchronized CallResult call(byte[] args) throws IOException {
        paceTimestamps(clock.tick());
        long start = System.nanoTime(); // the call's latency, not counting the pacing
        long timerAt = Long.MAX_VALUE;
        pendingReplyAck = null; // superseded: the new CALL makes the server drop the stored reply
        ClientStep step = logged(core.call(Payload.of(args)));
        // The first wait is measured from the call's reading: the CALL went out microseconds ago.
        boolean fresh = true;
        while (true) {
            for (ClientEffect effect : step.effects()) {
                if (effect instanceof ClientEffect.Send s) {
                    send(s);
                } else if (effect instanceof ClientEffect.SetTimer t) {
                    timerAt = t.atMillis();
                } else if (effect instanceof ClientEffect.CancelTimer) {
                    timerAt = Long.MAX_VALUE;
                } else if (effect instanceof ClientEffect.Complete c) {
                    return new CallResult(c.ts(), c.outcome(), c.reply().map(Payload::toByteArray),
                            core.tries(), System.nanoTime() - start);
                }
            }
            step = logged(awaitEvent(timerAt, fresh ? clock.millis() : clock.tick()));
            fresh = false;
        }
    }

    /**
     * Waits while the last timestamp is too far ahead of the clock (see ClientOptions.maxLeadMillis),
     * then reads the clock again for the call.
     */
    /** Logs a step of the spec (not an ignored event) before the caller performs its effects. */
    private ClientStep logged(ClientStep step) {
        if (!log.on() || step.action().equals(ClientStep.IGNORE)) {
            return step;
        }
        synchronized (log) {
            log.step(step.action()).field("conn", core.conn().value()).field("ts", core.lastTimestamp());
            switch (step.action()) {
                case "Call" -> log.field("now", clock.millis());
                case "Retransmit" -> log.field("truncated", core.state().acked());
                case "ReceiveAck", "ReceiveReply", "ReceiveReject" -> log.field("accepted", true);
                default -> { }
            }
            log.end();
        }
        return step;
    }

    private void paceTimestamps(long now) throws InterruptedIOException {
        long lead = core.lastTimestamp() - now;
        if (lead >= options.maxLeadMillis()) {
            try {
                Thread.sleep(lead - options.maxLeadMillis() + 1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while pacing connection " + core.conn());
            }
            clock.tick();
        }
    }

    private void send(ClientEffect.Send s) throws IOException {
        if (s.message() instanceof RpcMessage.ReplyAck && replyAcks != ReplyAcks.IMMEDIATE) {
            pendingReplyAck = replyAcks == ReplyAcks.DEFERRED ? s.message() : null;
            return;
        }
        write(s.message());
    }

    private void write(RpcMessage message) throws IOException {
        try {
            ByteBuffer out = SEND_BUFFER.get().clear();
            if (sendingKey == null) {
                RpcEncoder.encode(message, out);
            } else {
                DatagramAuth.seal(message, sendingKey, out);
            }
            channel.write(out.flip());
        } catch (PortUnreachableException e) {
            // An earlier datagram met a closed port (server down); this one may still go through on
            // the next retransmission, and the core's timer decides when to give up.
        }
    }

    /**
     * Waits for a datagram from the server or the timer, and feeds it to the core.
     *
     * @param now the clock, read at most a step ago
     */
    private ClientStep awaitEvent(long timerAt, long now) throws IOException {
        long wait = timerAt - now;
        if (wait <= 0) {
            return core.timerExpired();
        }
        // 0 would mean "forever" to setSoTimeout; the timer is at least a millisecond away here.
        socket.setSoTimeout((int) Math.min(wait, Integer.MAX_VALUE));
        DatagramPacket packet = PACKET.get();
        try {
            socket.receive(packet);
        } catch (SocketTimeoutException e) {
            clock.tick();
            return core.timerExpired();
        } catch (PortUnreachableException e) {
            // ICMP from a server that is down (crashed, restarting): keep waiting for the timer.
            return new ClientStep(ClientStep.IGNORE, List.of());
        }
        // With keys, a forged ACK, REPLY or REJECT is dropped like garbage: only the server's count.
        DecodeResult decoded = sendingKey == null
                ? RpcDecoder.decode(packet.getData(), 0, packet.getLength(), core.conn())
                : DatagramAuth.open(packet.getData(), 0, packet.getLength(), core.conn(), options.keys());
        if (decoded instanceof DecodeResult.Decoded d) {
            return core.receive(d.message());
        }
        return new ClientStep(ClientStep.IGNORE, List.of()); // garbage is as good as a loss
    }

    /**
     * The outstanding call, if {@link #call} ended with an exception; such a client cannot make
     * another call (one outstanding call per connection) and should be closed.
     */
    public Optional<Long> outstanding() {
        return core.outstanding().map(ts -> ts.value());
    }

    /**
     * The clock as the core sees it: the real clock read once per event (a call starting, the timer
     * firing), not on each of the core's readings within the step. A step is one atomic action of
     * the spec, so one instant for all of it is also the more faithful reading; and a clock read
     * costs 20 ns or more in a VM, where the protocol's whole work is about 200 ns per call, and
     * would otherwise happen three more times per call.
     * Only the caller's thread uses it, under the client's lock.
     */
    private static final class EventClock implements InstantSource {
        private final InstantSource source;
        private long now;

        EventClock(InstantSource source) {
            this.source = source;
            this.now = source.millis();
        }

        /** Reads the real clock; the core sees this value until the next tick. */
        long tick() {
            return now = source.millis();
        }

        @Override
        public long millis() {
            return now;
        }

        @Override
        public java.time.Instant instant() {
            return java.time.Instant.ofEpochMilli(now);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        try {
            if (pendingReplyAck != null && channel.isOpen()) {
                write(pendingReplyAck); // the last call's hint, now that no CALL will supersede it
            }
        } finally {
            channel.close();
        }
    }
}
