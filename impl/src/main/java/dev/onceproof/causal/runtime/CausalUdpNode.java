package dev.onceproof.causal.runtime;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.ConcurrentCausalNode;
import dev.onceproof.causal.CausalState;
import dev.onceproof.causal.Counters;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.JoinState;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Outgoing;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.SeqSet;
import dev.onceproof.causal.Step;
import dev.onceproof.causal.Ticker;
import dev.onceproof.causal.wire.CausalWire;
import dev.onceproof.causal.wire.JoinWire;
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
import java.util.TreeSet;
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
    /** While this node of a spare id joins: the donor it asks, the chunks of the state so far; null otherwise. */
    private NodeId donor;
    private byte[][] chunks;
    private long askedAt;
    private volatile boolean joining;
    private volatile String joinRefusal = "";
    /** The prefix this node started from when it joined (its donor's delivered prefix); null otherwise. */
    private volatile dev.onceproof.causal.VectorClock joinedAt;
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
        this.coordinator = new ViewCoordinator(config.self(), config.nodes(), ring, member, node, view, this::send,
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

    /**
     * Spec Spare, before {@link #start}: j is out of this node's view (its events refused, its row
     * not counted) until it joins. Every member of the group calls it for every spare id.
     */
    public CausalUdpNode spare(NodeId j) {
        long largest = JoinWire.largestState(config.nodes(), config.maxStored());
        if (largest > (long) JoinWire.CHUNK * JoinWire.MAX_CHUNKS) {
            throw new IllegalArgumentException("spare " + j + " at " + config.self() + ": a join state of " + config.nodes()
                    + " nodes with maxStored " + config.maxStored() + " may take " + largest + " bytes, above the join's "
                    + JoinWire.MAX_CHUNKS + " chunks of " + JoinWire.CHUNK + ": lower maxStored");
        }
        node.spare(j);
        member.spare(j);
        coordinator.spare(j);
        return this;
    }

    /**
     * Before {@link #start}, on a node of a spare id: join the group from {@code donor}, which must be
     * the coordinator (spec Join(donor, self)). Until the whole state arrived this node takes no
     * causal datagram and broadcasts nothing; it asks again every retry for the chunks it lacks.
     */
    public CausalUdpNode joinFrom(NodeId donor) {
        this.donor = donor;
        this.joining = true;
        return this;
    }

    /** Whether this node is still waiting for its donor's state (for good once refused). */
    public boolean joining() {
        return joining;
    }

    /** The donor's delivered prefix this node started from; null unless it joined. */
    public dev.onceproof.causal.VectorClock joinedAt() {
        return joinedAt;
    }

    /** Why the coordinator refused this node's join; empty if it did not. */
    public String joinRefusal() {
        return joinRefusal;
    }

    /** On the coordinator: the members that have not installed the last join. */
    public Set<NodeId> joinPending() {
        return coordinator.joinPending();
    }

    /** On the coordinator, for tests: split a join's state into chunks of {@code bytes} (a few, for a small state). */
    CausalUdpNode joinChunkBytes(int bytes) {
        coordinator.chunkBytes(bytes);
        return this;
    }

    /** On the coordinator: the chunks of the last join's state. */
    public int joinChunks() {
        return coordinator.joinChunks();
    }

    /** On the coordinator: joins refused for good (a removed id, a member). */
    public long joinsRefused() {
        return coordinator.joinsRefused();
    }

    /** The joiner's side: a chunk of its state; the last one starts it (spec Join(d, j), j's half). */
    private synchronized void receiveJoin(ViewMessage m) {
        if (m instanceof ViewMessage.JoinRefused r) {
            if (joining && r.from().equals(donor)) {
                joinRefusal = r.reason(); // for good: this node stays out, asks no more, sends nothing
            }
            return;
        }
        ViewMessage.JoinChunk c = (ViewMessage.JoinChunk) m;
        if (!joining || !c.from().equals(donor) || !c.joiner().equals(config.self())) {
            return; // a repeat after the start, or not this node's
        }
        if (chunks == null || chunks.length != c.total()) {
            chunks = new byte[c.total()][];
        }
        chunks[c.index()] = c.bytes();
        if (nextChunk() < chunks.length) {
            return;
        }
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        for (byte[] b : chunks) {
            all.writeBytes(b);
        }
        JoinState s = JoinWire.decodeState(all.toByteArray());
        node.startFrom(s);
        joinedAt = s.prefix();
        TreeSet<NodeId> view = new TreeSet<>();
        for (int k = 0; k < config.nodes(); k++) {
            if (s.inView(k) || k == config.self().index()) {
                view.add(NodeId.of(k));
            }
        }
        member.startFrom(view, donor);
        long now = System.nanoTime();
        view.forEach(k -> coordinator.heard(k, now));
        joining = false;
    }

    private int nextChunk() {
        int k = 0;
        while (chunks != null && k < chunks.length && chunks[k] != null) {
            k++;
        }
        return k;
    }

    /** The joiner's timer: ask the donor again for what is missing. */
    private synchronized void askJoin(long now) {
        if (joining && joinRefusal.isEmpty() && now - askedAt >= viewOptions.retry()) {
            send(donor, new ViewMessage.JoinAsk(config.self(), nextChunk()));
            askedAt = now;
        }
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
        if (joining) {
            throw new IllegalStateException(config.self() + " has not joined yet: it broadcasts once its donor's state arrived");
        }
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
        if (d.view() instanceof ViewMessage.JoinChunk || d.view() instanceof ViewMessage.JoinRefused) {
            receiveJoin(d.view());
        } else if (joining) {
            lost.incrementAndGet(); // a joiner takes nothing before its state: the senders resend or recover
        } else if (d.view() != null) {
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
        boolean toCoordinator = m instanceof ViewMessage.Report || m instanceof ViewMessage.Installed
                || m instanceof ViewMessage.JoinAsk || m instanceof ViewMessage.JoinInstalled;
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
            if (joining) {
                askJoin(System.nanoTime());
                if (!sleep(viewOptions.retry())) {
                    return;
                }
                continue;
            }
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

    /** The joiner's wait between asks; false if interrupted. */
    private boolean sleep(long nanos) {
        synchronized (timerSignal) {
            try {
                if (running) {
                    timerSignal.wait(Math.max(1, Math.min(50, nanos / 1_000_000L)));
                }
                return true;
            } catch (InterruptedException e) {
                return false;
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
        if (to == null || to.getPort() == 0) {
            sendErrors.incrementAndGet(); // a peer not bound yet: a spare before its process started
            return;
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
