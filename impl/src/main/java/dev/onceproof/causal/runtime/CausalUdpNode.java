package dev.onceproof.causal.runtime;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.ConcurrentCausalNode;
import dev.onceproof.causal.CausalState;
import dev.onceproof.causal.Counters;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Outgoing;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.SeqSet;
import dev.onceproof.causal.Step;
import dev.onceproof.causal.Ticker;
import dev.onceproof.causal.wire.CausalWire;
import dev.onceproof.causal.wire.ViewMessage;
import dev.onceproof.steplog.StepLog;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.SortedSet;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * One node of a causal broadcast group over real UDP: its own socket, {@code receivers} threads
 * reading it, and a timer thread that calls {@code poll()} at the core's next deadline. All of them
 * share one {@link ConcurrentCausalNode}. Time is {@link System#nanoTime()}, so w, RTO and the
 * heartbeat interval in the config are nanoseconds.
 *
 * <p>Loss is injected on the receive path (a datagram read from the socket is dropped with
 * probability {@code loss}, from a seeded stream), so that loopback, which never loses, behaves like
 * a lossy network on every link and for every message type alike; {@link #duplicating} duplicates
 * there the same way.
 *
 * <p>The view change (specs/causal/CausalMembership.tla, CausalMembershipRestart.tla) runs over the
 * same socket: every node is a {@link ViewMember} and runs a {@link ViewCoordinator}, whose failure
 * detector watches the coordinator; the node named by {@link ViewOptions#coordinator} coordinates
 * first, and the next survivor in ring order takes over when it is suspected. Its datagrams
 * ({@link ViewMessage}) are lost like the others and resent until answered.
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
    private final AtomicLong duplicated = new AtomicLong();
    /** Probability that a datagram read is handled twice (set before {@link #start}). */
    private volatile double duplicate;
    private final AtomicLong sendErrors = new AtomicLong();
    private final Object timerSignal = new Object();
    private final AtomicLong viewRefused = new AtomicLong();
    private volatile String lastViewRefusal = "";
    private final ViewOptions viewOptions;
    private final ViewMember member;
    /** The detector, and the coordinator's role once this node has it. */
    private final ViewCoordinator coordinator;
    private volatile boolean running = true;
    /** Datagrams {@link #delaying} queued, handled once its release holds; guarded by itself. */
    private final List<byte[]> delayed = new ArrayList<>();
    private volatile Predicate<CausalMessage> delay = m -> false;
    private volatile BooleanSupplier release = () -> true;

    /** Builds the node's core (a test passes a core broken through one of its seams). */
    public interface Core {
        CausalNode make(CausalConfig config, Ticker ticker, StepLog log);
    }

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
        this(config, peers, loss, seed, application, log, ViewOptions.manual(config.rto()), CausalNode::new);
    }

    /** As above, taking part in view changes as {@code view} says, on a core {@code core} builds. */
    public CausalUdpNode(CausalConfig config, List<InetSocketAddress> peers, double loss, long seed,
            Consumer<Event> application, StepLog log, ViewOptions view, Core core) throws SocketException {
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
        this.node = new ConcurrentCausalNode(core.make(config, new NanoTicker(), log), application);
        this.viewOptions = view;
        Ring ring = new Ring(config.nodes(), view.coordinator());
        this.member = new ViewMember(config.self(), config.nodes(), ring, node, this::send, this::send, view.retry());
        this.coordinator = new ViewCoordinator(config.self(), config.nodes(), ring, member, view, this::send,
                System.nanoTime());
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

    /**
     * Duplicates on the receive path as loss drops there: a datagram read is handled twice with
     * probability {@code rate} (from the same seeded stream). Call before {@link #start}.
     */
    public CausalUdpNode duplicating(double rate) {
        if (!(rate >= 0 && rate < 1)) {
            throw new IllegalArgumentException("duplication rate " + rate + " is not in [0, 1)");
        }
        this.duplicate = rate;
        return this;
    }

    /**
     * A test's network that delays rather than drops: a datagram read whose message {@code delay}
     * names is queued, and handled (in the order read) once {@code release} holds, which is checked
     * after every datagram and timer tick. The spec's network is a set, so any delay is a behaviour
     * of it. The SIGKILL view-change run delays the killed node's last events until the survivor
     * has reported, so that they arrive frozen. Call before {@link #start}.
     */
    public CausalUdpNode delaying(Predicate<CausalMessage> delay, BooleanSupplier release) {
        this.delay = delay;
        this.release = release;
        return this;
    }

    /** Whether this member has reported on a view change (spec FlushReport): it froze that node. */
    public boolean hasReported() {
        return member.reported();
    }

    /** The nodes of the round this member last reported on (more than one after a restart); empty before any. */
    public SortedSet<NodeId> reportedOn() {
        return member.targets();
    }

    public void start(int receivers) {
        // No datagram is read before start, so the detector counts silence from here: a node
        // started while its peers were still starting is not suspected for that.
        long now = System.nanoTime();
        for (int k = 0; k < config.nodes(); k++) {
            coordinator.heard(NodeId.of(k), now);
        }
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
            if (chance(loss)) {
                lost.incrementAndGet();
                continue;
            }
            int copies = chance(duplicate) ? 2 : 1;
            duplicated.addAndGet(copies - 1);
            for (int c = 0; c < copies; c++) {
                handle(buf, p.getOffset(), p.getLength(), String.valueOf(p.getSocketAddress()));
            }
            handleDelayed();
            wakeTimer();
        }
    }

    private void handle(byte[] buf, int offset, int length, String sender) {
        CausalWire.Decoded d = CausalWire.decode(buf, offset, length);
        if (d.message() != null && !release.getAsBoolean() && delay.test(d.message())) {
            synchronized (delayed) {
                delayed.add(java.util.Arrays.copyOfRange(buf, offset, offset + length));
            }
            return;
        }
        if (d.view() != null) {
            heard(d.view().from());
            try {
                receiveView(d.view());
            } catch (RuntimeException e) {
                // A message the checks let through but a step refused (say, a forged decision for a
                // crashed core): refused and counted, and the receiver thread lives on.
                refuseView(d.view() + ": " + e.getMessage());
            }
        } else {
            if (d.message() != null) {
                heard(d.message().from());
            }
            send(d.message() != null ? node.handle(d.message())
                    : node.refuseMalformed("datagram from " + sender + ": " + d.error()));
        }
        if (member.pending()) {
            member.poll(System.nanoTime()); // a datagram may have delivered the last agreed event
        }
    }

    /** The datagrams {@link #delaying} queued, once its release holds. */
    private void handleDelayed() {
        List<byte[]> now;
        synchronized (delayed) {
            if (delayed.isEmpty() || !release.getAsBoolean()) {
                return;
            }
            now = new ArrayList<>(delayed);
            delayed.clear();
        }
        for (byte[] b : now) {
            handle(b, 0, b.length, "a delayed datagram");
        }
    }

    private void heard(NodeId from) {
        coordinator.heard(from, System.nanoTime());
    }

    private void receiveView(ViewMessage m) {
        if (viewOptions.hold().test(m)) {
            lost.incrementAndGet();
            return;
        }
        boolean toCoordinator = m instanceof ViewMessage.Report || m instanceof ViewMessage.Installed;
        if (toCoordinator) {
            if (!coordinator.coordinates()) {
                refuseView(m + ": this node is not the coordinator");
            } else {
                coordinator.receive(m, System.nanoTime()); // false for a repeat, which is expected
            }
            return;
        }
        String why = member.receive(m, System.nanoTime());
        if (why != null) {
            refuseView(why);
        }
    }

    private void refuseView(String why) {
        viewRefused.incrementAndGet();
        lastViewRefusal = why;
    }

    private boolean chance(double rate) {
        if (rate == 0) {
            return false;
        }
        synchronized (random) {
            return random.nextDouble() < rate;
        }
    }

    private void timerLoop() {
        while (running) {
            send(node.poll());
            coordinator.poll(System.nanoTime());
            member.poll(System.nanoTime());
            handleDelayed();
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
            send(o.to(), CausalWire.encode(o.message()));
        }
    }

    private void send(NodeId to, ViewMessage m) {
        send(to, CausalWire.encode(m));
    }

    private void send(NodeId k, byte[] bytes) {
        InetSocketAddress to;
        synchronized (peers) {
            to = peers.get(k.index());
        }
        try {
            socket.send(new DatagramPacket(bytes, bytes.length, to));
        } catch (IOException e) {
            // Best effort, as the protocol assumes: recovery and the view change's resends cover it.
            sendErrors.incrementAndGet();
        }
    }

    /**
     * On the coordinator: this node suspects {@code x} (maybe falsely) and starts the view change
     * removing it, or restarts the running one for the larger set. False if this node does not
     * coordinate or x cannot be removed.
     */
    public boolean suspect(NodeId x) {
        return coordinator.suspect(x, System.nanoTime());
    }

    /** Whether this node has the coordinator's role (the first one, or one that took over). */
    public boolean coordinates() {
        return coordinator.coordinates();
    }

    /** On the coordinator: the members (the spec's {@code members}); empty elsewhere. */
    public Set<NodeId> members() {
        return coordinator.members();
    }

    /** On the coordinator: the first node being removed, if a view change runs. */
    public Optional<NodeId> flushing() {
        return coordinator.flushing();
    }

    /** On the coordinator: every node the running view change removes (more than one after a restart). */
    public SortedSet<NodeId> flushingAll() {
        return coordinator.flushingAll();
    }

    /** On the coordinator: the agreed seqs of a removed node (empty before its decision). */
    public SeqSet agreedOf(NodeId x) {
        return coordinator.agreedOf(x);
    }

    /** On the coordinator: the survivors whose report of the running change arrived. */
    public Set<NodeId> reported() {
        return coordinator.reported();
    }

    /** Flushes this node restarted for a larger set while it coordinated. */
    public long restarts() {
        return coordinator.restarts();
    }

    /** 1 once this node took the coordinator's role from a suspected coordinator. */
    public long takeovers() {
        return coordinator.takeovers();
    }

    /** This member's installed view, as the view change left it. */
    public SortedSet<NodeId> memberView() {
        return member.view();
    }

    /** Spec Crash: the core stops (its log says so) and the socket closes; nothing more is sent. */
    public void crash() {
        node.crash();
        close();
    }

    /** The core's state (the spec's per-node variables), for tests and tools. */
    public CausalState state() {
        return node.state();
    }

    /** View-change datagrams refused (from a non-coordinator, about a non-member, out of turn). */
    public long viewRefused() {
        return viewRefused.get();
    }

    /** Why the last view-change datagram was refused, naming the message and the rule; empty if none was. */
    public String lastViewRefusal() {
        return lastViewRefusal;
    }

    public Counters counters() {
        return node.counters();
    }

    /** Datagrams dropped by the injected loss. */
    public long lost() {
        return lost.get();
    }

    /** Datagrams handled twice by the injected duplication. */
    public long duplicated() {
        return duplicated.get();
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
