package dev.onceproof.bench.exactlyonce;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientStep;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.ManualEoClock;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.StrategyConfig;
import dev.onceproof.exactlyonce.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * One connection of the client to server 0 on the {@link Circle}, driven by discrete events: the
 * real cores of one strategy take every step, and this class only carries their messages with the
 * circle's delays and carries out their effects in the order their step lists them. It holds no
 * protocol logic: what is delivered, acknowledged, synchronized or purged is the cores' decision.
 *
 * <p>As in App. B: the network and the wireless link lose nothing, a Deliver never times out, the
 * client stays connected for the whole run, notes are already replicated to every server (the
 * replication protocol is outside the model, L36), and durable writes take no time.
 *
 * <p>Beyond App. B ({@link #lossy}): the wireless link may lose each Deliver and each
 * acknowledgement with probability {@code loss}, and the server then gives up on a Deliver after
 * {@code timeout} seconds: the rig calls the core's {@code timeout()} (App. A.2's abort) and, when
 * the core aborts the session, the client reconnects to the same server at once and a new session
 * starts. What is resent and whether the client processes it again is the cores' decision; the
 * rig only counts the notes the client's Record effects process a second time.
 */
abstract class Rig {

    /** Clock ticks per second given to the cores (their clock counts microseconds). */
    static final double TICKS = 1e6;

    protected final Params p;
    protected final Circle circle;
    protected final ClientId client = ClientId.of("c");
    protected final List<ServerId> servers = new ArrayList<>();
    protected final ManualEoClock clock = new ManualEoClock(0);
    private final PriorityQueue<Event> queue = new PriorityQueue<>();
    private long seq;
    protected double now;

    /** Times at which the client processed a note (verdict ACCEPTED), in order. */
    final List<Double> processed = new ArrayList<>();
    final Costs costs = new Costs();
    private final java.util.Set<dev.onceproof.exactlyonce.NoteId> seen = new java.util.HashSet<>();
    /** Notes the client processed a second time (counted from its Record effects). */
    long duplicates;
    /** The session found no note left to send: the run used up the notes it was given. */
    boolean starved;
    /** Times this connection was re-run with more notes after it starved ({@link CoreSimulator#stochasticCount}). */
    int reruns;
    /** Probability that the wireless link loses a Deliver or an acknowledgement (0: App. B's lossless link). */
    private double loss;
    /** Seconds a server waits for the acknowledgement of a Deliver before its timeout (infinite: never). */
    private double timeout = Double.POSITIVE_INFINITY;
    /** Number of the last Deliver sent; a timer fires only for the Deliver it was set for. */
    private long deliverySeq;
    /** Sessions the cores aborted after a timeout (each followed by a reconnect). */
    long aborts;

    private record Event(double time, long seq, int node, EoMessage message, Runnable timer)
            implements Comparable<Event> {
        @Override
        public int compareTo(Event o) {
            int c = Double.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    /** Node number of the client; servers are 0..N-1, the client's server is 0. */
    static final int CLIENT = -1;

    Rig(Params p, Circle circle) {
        this.p = p;
        this.circle = circle;
        for (int i = 0; i < p.N(); i++) {
            servers.add(ServerId.of("s" + i));
        }
    }

    /** Strategy {@code strategy}'s parameters for this rig's client and servers, the others at their defaults. */
    protected StrategyConfig config(int strategy) {
        SortedSet<ServerId> all = new TreeSet<>(servers);
        // T_e = 0: App. B does not count the wait for lingering copies (notes 4.3: T_e enters no p_i).
        return Strategy.of(strategy).config(client, all, 0);
    }

    /** Opens the connection at time 0 (the server starts its session). */
    protected abstract void start();

    /** When the connection of T_c seconds ends (the gather rig's starts later than 0). */
    double end() {
        return p.Tc();
    }

    /** A message arrives at {@code node}. */
    protected abstract void arrive(int node, EoMessage m);

    /**
     * Makes the wireless link lose each Deliver and acknowledgement with probability {@code loss}
     * (drawn from the circle's stream) and servers time a Deliver out after {@code timeout} seconds.
     * Only rigs whose strategy aborts a session on a timeout support it ({@link #timedOut}).
     */
    Rig lossy(double loss, double timeout) {
        if (!(loss >= 0 && loss < 1)) {
            throw new IllegalArgumentException("loss " + loss + " is outside [0, 1)");
        }
        if (!(timeout > 0)) {
            throw new IllegalArgumentException("timeout " + timeout + " s must be > 0");
        }
        this.loss = loss;
        this.timeout = timeout;
        return this;
    }

    /**
     * The Deliver from server {@code node} is still unacknowledged {@code timeout} seconds after it
     * was sent. Rigs that support {@link #lossy} override this.
     */
    protected void timedOut(int node) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " does not model timeouts");
    }

    /**
     * Runs until {@code horizon} seconds have passed or the client has processed {@code maxNotes}
     * notes, whichever comes first.
     */
    final void run(double horizon, int maxNotes) {
        start();
        while (!queue.isEmpty() && processed.size() < maxNotes) {
            Event e = queue.poll();
            if (e.time() > horizon) {
                break;
            }
            now = e.time();
            clock.set(Math.round(now * TICKS));
            if (e.timer() != null) {
                e.timer().run();
            } else {
                arrive(e.node(), e.message());
            }
        }
    }

    /** Carries out a server step's effects in order; a Record is durable at once here. */
    protected final void effects(int from, ServerStep step) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send s) {
                send(from, s.message());
            } else if (e instanceof ServerEffect.ADeliver a) {
                aDeliverCall(from, a);
            } else {
                costs.serverWrites++;
            }
        }
    }

    /**
     * Strategies 4-6: the core asks for {@code aDeliver(c, note)} (its attempt is logged by the Record
     * before). The gather rig carries the call out as a Deliver and the client's acknowledgement over
     * the wireless link.
     */
    protected void aDeliverCall(int from, ServerEffect.ADeliver call) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " has no aDeliver");
    }

    /** Runs {@code action} at {@code time} seconds (a timer of the rig, not a message). */
    protected final void at(double time, Runnable action) {
        queue.add(new Event(time, seq++, CLIENT, null, action));
    }

    /** Fixed-network hops between servers i and j; a rig may place a server off the circle's grid. */
    protected double hops(int i, int j) {
        return circle.serverHops(i, j);
    }

    /** A delay to use for {@code m} instead of drawing one, or NaN (the mean-value mode's integration). */
    protected double forcedDelay(int from, EoMessage m) {
        return Double.NaN;
    }

    /** Carries out a client step's effects in order and notes a processing. */
    protected final void clientEffects(ClientStep step) {
        if (step.verdict() == Verdict.ACCEPTED) {
            processed.add(now);
        }
        for (ClientEffect e : step.effects()) {
            if (e instanceof ClientEffect.Send s) {
                send(CLIENT, s.message());
            } else if (e instanceof ClientEffect.RecordHistory) {
                costs.clientWrites++;
            } else {
                costs.clientWrites++;
                ((ClientEffect.Record) e).processed().ifPresent(n -> {
                    if (!seen.add(n.id())) {
                        duplicates++;
                    }
                });
            }
        }
    }

    private void send(int from, EoMessage m) {
        int to = destination(m);
        boolean wireless = from == CLIENT || to == CLIENT;
        double forced = wireless ? Double.NaN : forcedDelay(from, m);
        double delay = !Double.isNaN(forced) ? forced : wireless ? circle.clientLink() : circle.fixed(hops(from, to));
        costs.count(m);
        if (m instanceof EoMessage.NoteDelivery && Double.isFinite(timeout)) {
            long mine = ++deliverySeq;
            queue.add(new Event(now + timeout, seq++, from, null, () -> {
                if (mine == deliverySeq) {
                    timedOut(from);
                }
            }));
        }
        if (loss > 0 && wireless && (m instanceof EoMessage.NoteDelivery || m instanceof EoMessage.NoteAck)
                && circle.lose(loss)) {
            costs.lost++;
            return;
        }
        queue.add(new Event(now + delay, seq++, to, m, null));
    }

    private int destination(EoMessage m) {
        if (m instanceof EoMessage.NoteDelivery || m instanceof EoMessage.PurgeRequest) {
            return CLIENT;
        }
        if (m instanceof EoMessage.NoteAck a) {
            return index(a.to());
        }
        if (m instanceof EoMessage.PurgeAck a) {
            return index(a.to());
        }
        if (m instanceof EoMessage.SyncRequest r) {
            return index(r.to());
        }
        if (m instanceof EoMessage.SyncReply r) {
            return index(r.to());
        }
        if (m instanceof EoMessage.Replica r) {
            return index(r.to());
        }
        if (m instanceof EoMessage.DRequest r) {
            return index(r.to());
        }
        if (m instanceof EoMessage.DReply r) {
            return index(r.to());
        }
        if (m instanceof EoMessage.DSync r) {
            return index(r.to());
        }
        if (m instanceof EoMessage.HistoryUpload u) {
            return index(u.to());
        }
        throw new IllegalStateException("no route for " + m.getClass().getSimpleName());
    }

    protected final int index(ServerId s) {
        int i = servers.indexOf(s);
        if (i < 0) {
            throw new IllegalStateException("no server " + s + " on the circle");
        }
        return i;
    }

    /**
     * Puts notes on every server as the (unmodelled) replication protocol would: created at its
     * origin by the origin's core, its replicas handed to the other servers' cores at once.
     */
    protected final void replicate(ServerStep created, java.util.function.BiConsumer<Integer, EoMessage.Replica> receive) {
        for (ServerEffect e : created.effects()) {
            if (e instanceof ServerEffect.Send s && s.message() instanceof EoMessage.Replica r) {
                receive.accept(index(r.to()), r);
            }
        }
    }
}
