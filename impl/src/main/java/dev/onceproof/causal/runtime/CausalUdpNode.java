package dev.onceproof.causal.runtime;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.ConcurrentCausalNode;
import dev.onceproof.causal.Counters;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.Outgoing;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.Step;
import dev.onceproof.causal.Ticker;
import dev.onceproof.causal.wire.CausalWire;
import dev.onceproof.steplog.StepLog;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * One node of a causal broadcast group over real UDP: its own socket, {@code receivers} threads
 * reading it, and a timer thread that calls {@code poll()} at the core's next deadline. All of them
 * share one {@link ConcurrentCausalNode}. Time is {@link System#nanoTime()}, so w, RTO and the
 * heartbeat interval in the config are nanoseconds.
 *
 * <p>Loss is injected on the receive path (a datagram read from the socket is dropped with
 * probability {@code loss}, from a seeded stream), so that loopback, which never loses, behaves like
 * a lossy network on every link and for every message type alike.
 */
public final class CausalUdpNode implements AutoCloseable {

    /** Nanosecond monotonic time for the core; a final class, not a lambda, for Lincheck-free simplicity. */
    static final class NanoTicker implements Ticker {
        @Override
        public long read() {
            return System.nanoTime();
        }
    }

    private final CausalConfig config;
    private final List<InetSocketAddress> peers;
    private final DatagramSocket socket;
    private final ConcurrentCausalNode node;
    private final double loss;
    private final SplittableRandom random;
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicLong lost = new AtomicLong();
    private final AtomicLong sendErrors = new AtomicLong();
    private final Object timerSignal = new Object();
    private volatile boolean running = true;

    /**
     * Binds {@code peers.get(self)} (port 0 there means any free port; see {@link #address()}).
     *
     * @param application receives delivered events in the mode's order, one call at a time
     */
    public CausalUdpNode(CausalConfig config, List<InetSocketAddress> peers, double loss, long seed,
            Consumer<Event> application) throws SocketException {
        this(config, peers, loss, seed, application, StepLog.OFF);
    }

    /**
     * As above, with the node's steps written to {@code log} (opened with
     * {@link CausalNode#stepLogHeader}): each under the node's lock, before its datagrams are sent.
     */
    public CausalUdpNode(CausalConfig config, List<InetSocketAddress> peers, double loss, long seed,
            Consumer<Event> application, StepLog log) throws SocketException {
        if (peers.size() != config.nodes()) {
            throw new IllegalArgumentException(peers.size() + " addresses for a group of " + config.nodes());
        }
        if (!(loss >= 0 && loss < 1)) {
            throw new IllegalArgumentException("loss rate " + loss + " is not in [0, 1)");
        }
        this.config = config;
        this.peers = new ArrayList<>(peers);
        this.loss = loss;
        this.random = new SplittableRandom(seed);
        this.socket = new DatagramSocket(peers.get(config.self().index()));
        this.socket.setReceiveBufferSize(4 << 20);
        this.node = new ConcurrentCausalNode(new CausalNode(config, new NanoTicker(), log), application);
    }

    public InetSocketAddress address() {
        return (InetSocketAddress) socket.getLocalSocketAddress();
    }

    /** Where peer k is (after every node is bound, with real ports). */
    public void setPeer(int k, InetSocketAddress a) {
        synchronized (peers) {
            peers.set(k, a);
        }
    }

    public void start(int receivers) {
        for (int i = 0; i < receivers; i++) {
            threads.add(thread("causal-rx-" + config.self() + "-" + i, this::receiveLoop));
        }
        threads.add(thread("causal-timer-" + config.self(), this::timerLoop));
        threads.forEach(Thread::start);
    }

    private static Thread thread(String name, Runnable r) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    /** The application issues an event; false if the node refused it (store full, crashed). */
    public Step broadcast(Payload payload) {
        Step s = node.broadcast(payload);
        send(s);
        wakeTimer();
        return s;
    }

    private void receiveLoop() {
        byte[] buf = new byte[CausalWire.MAX_DATAGRAM];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        while (running) {
            try {
                p.setLength(buf.length);
                socket.receive(p);
            } catch (IOException e) {
                if (!running) {
                    return;
                }
                continue;
            }
            if (dropped()) {
                lost.incrementAndGet();
                continue;
            }
            CausalWire.Decoded d = CausalWire.decode(buf, p.getOffset(), p.getLength());
            Step s = d.message() != null ? node.handle(d.message())
                    : node.refuseMalformed("datagram from " + p.getSocketAddress() + ": " + d.error());
            send(s);
            wakeTimer();
        }
    }

    private boolean dropped() {
        if (loss == 0) {
            return false;
        }
        synchronized (random) {
            return random.nextDouble() < loss;
        }
    }

    private void timerLoop() {
        while (running) {
            send(node.poll());
            OptionalLong next = node.nextDeadline();
            long waitNanos = next.isPresent() ? Math.max(0, next.getAsLong() - System.nanoTime()) : 50_000_000L;
            waitNanos = Math.min(waitNanos, 50_000_000L);
            synchronized (timerSignal) {
                try {
                    if (waitNanos > 0 && running) {
                        timerSignal.wait(waitNanos / 1_000_000L, (int) (waitNanos % 1_000_000L));
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
        }
    }

    /** A step may have started timers earlier than the timer thread is sleeping for. */
    private void wakeTimer() {
        synchronized (timerSignal) {
            timerSignal.notifyAll();
        }
    }

    private void send(Step s) {
        for (Outgoing o : s.sends()) {
            byte[] bytes = CausalWire.encode(o.message());
            InetSocketAddress to;
            synchronized (peers) {
                to = peers.get(o.to().index());
            }
            try {
                socket.send(new DatagramPacket(bytes, bytes.length, to));
            } catch (IOException e) {
                // Best effort, as the protocol assumes: recovery resends what a failed send lost.
                sendErrors.incrementAndGet();
            }
        }
    }

    public Counters counters() {
        return node.counters();
    }

    /** Datagrams dropped by the injected loss. */
    public long lost() {
        return lost.get();
    }

    public long sendErrors() {
        return sendErrors.get();
    }

    @Override
    public void close() {
        running = false;
        socket.close();
        wakeTimer();
        for (Thread t : threads) {
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
