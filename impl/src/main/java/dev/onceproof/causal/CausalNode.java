package dev.onceproof.causal;

import dev.onceproof.steplog.StepLog;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One node of a causal broadcast group with Reactive Error Recovery (Martori and Urso 2016,
 * sections 2.1, 5.1, 5.3), as a sans-IO state machine: vector clocks, a delivery buffer, the
 * recovery store, and per missing event the timers w and RTO. Inputs are method calls; each returns
 * a {@link Step} (what to deliver, what to send). Time is read from the injected {@link Ticker},
 * nothing else from the world.
 *
 * <p>Method names are the spec's actions (specs/causal): {@link #broadcast} (Broadcast),
 * {@link #receive} (Receive; also ServeRequest and ReceiveHeartbeat, which {@link #serveRequest} and
 * {@link #receiveHeartbeat} name), {@link #deliver(EventId)} (Deliver),
 * {@link #expireWait} (ExpireWait), {@link #expireRto} (ExpireRto), {@link #sendHeartbeat}
 * (SendHeartbeat), {@link #collectGarbage} (CollectGarbage), {@link #crash} (Crash); {@link #state}
 * is the spec's per-node variables. A runtime calls {@link #handle} (receive, then deliver all it
 * can) and {@link #poll} (fire due timers, heartbeat when idle, collect garbage) at
 * {@link #nextDeadline}.
 *
 * <p>Beyond the paper, and why: retries repeat every RTO and cycle through every node known to hold
 * the event (the paper asks once more; a crashed or lossy holder would stall it); heartbeats carry
 * the delivered prefix while the node does not broadcast (the paper cannot notice a lost last
 * event); the store is garbage-collected once an event is stable (see {@link Stability}); and every
 * collection is bounded, with a counted refusal when a bound is hit.
 *
 * <p><b>Not thread-safe.</b> One thread at a time; {@link ConcurrentCausalNode} is the shared one.
 *
 * <p><b>Mutation seams.</b> {@link #deliverable}, {@link #has}, {@link #retryTarget},
 * {@link #startPrefix} and {@link #joinRowStart} each carry one safeguard, so conformance tests can build a broken node and show that their checks catch it;
 * production code must not override them.
 */
public class CausalNode {

    private final CausalConfig config;
    private final Ticker ticker;
    private final int n;
    private final NodeId self;
    /** Per origin, what this node delivered. Invariant: own prefix = number of own broadcasts. */
    private final DeliveredSet[] delivered;
    /**
     * Received, not yet delivered. Invariant: no id here is delivered; at most maxBuffered entries
     * that are not deliverable (a deliverable one is admitted and leaves at the next deliverAll).
     */
    private final TreeMap<EventId, Event> buf = new TreeMap<>();
    /**
     * The buffer indexed by what it waits for, so a delivery looks only at what it can unblock
     * (issue 19): every buffered id is in exactly one of {@link #ready} (the guard holds now),
     * {@link #waiting} (filed under one failed condition of the guard) or {@link #unindexed}. Stale
     * entries (an id delivered meanwhile) are skipped when met. See {@link #place}.
     */
    private final TreeSet<EventId> ready = new TreeSet<>();
    /**
     * waiting[k] maps x to the buffered ids that need delivered[k].prefix() &ge; x; when k's prefix
     * reaches x they are placed again. Each placement files an event under a condition that fails
     * now, and a condition once met stays met, so an event is filed at most n times in all.
     */
    private final List<TreeMap<Long, List<EventId>>> waiting = new ArrayList<>();
    /** Buffered ids the {@link #deliverable} seam refuses though the guard has no failed condition. */
    private final HashSet<EventId> unindexed = new HashSet<>();
    /** Own and delivered events kept for requests. Invariant: all delivered here; none stable when collected. */
    private final TreeMap<EventId, Event> store = new TreeMap<>();
    /** Tracked missing events. Invariant: none of them delivered or buffered; at most maxMissing. */
    private final TreeMap<EventId, Missing> missing = new TreeMap<>();
    private final Stability stability;
    /**
     * The membership (specs/causal/CausalMembership.tla): inView[k] is the spec's k \in view[i]. A
     * node removed from the view never comes back under its id (it may rejoin only under a new one).
     */
    private final boolean[] inView;
    /**
     * frozen[k]: this node reported on k and froze its events (spec frozen[i], CausalMembershipRestart;
     * CausalMembership's i \in reported for flushing). Cleared when the view without k is installed,
     * from which on the exclusion holds k's events back instead.
     */
    private final boolean[] frozen;
    /**
     * awaiting[k]: this node reported on k and has learnt no decision since (spec awaiting[i]). A
     * restart after a decision takes the decision again, so the old agreed set no longer releases k's
     * events once this node reported to the new round.
     */
    private final boolean[] awaiting;
    /** agreed[k]: the decided set of k's events every survivor delivers; null until k's removal is decided. */
    private final SeqSet[] agreed;
    /** Buffered ids the membership holds back (the freeze, or an excluded origin); placed again at the decision. */
    private final HashSet<EventId> withheld = new HashSet<>();
    private final Counters.Tally tally = new Counters.Tally();
    /** When this node last broadcast or sent heartbeats (heartbeats go out after a quiet interval). */
    private long lastSpoke;
    private boolean crashed;
    /**
     * The step log (trace validation): {@link StepLog#OFF} unless given, and every hook tests
     * {@code logging} ({@link StepLog#on()}) first, so a node that logs nothing allocates and writes nothing for it.
     * Lines are written inside the step, before it returns the datagrams the caller sends.
     */
    private final StepLog log;
    /** log.on(), read once: a hook tests this node's own final field and touches no other class when off. */
    private final boolean logging;

    public CausalNode(CausalConfig config, Ticker ticker) {
        this(config, ticker, StepLog.OFF);
    }

    /**
     * A node that writes each spec step it takes to {@code log}, opened with {@link #stepLogHeader}.
     * The log is the node's own (one process of the run); the caller runs one step at a time, as it
     * must anyway (a {@link ConcurrentCausalNode} holds its lock around each).
     */
    public CausalNode(CausalConfig config, Ticker ticker, StepLog log) {
        this.log = Objects.requireNonNull(log, "log");
        this.logging = log.on();
        this.config = Objects.requireNonNull(config, "config");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.n = config.nodes();
        this.self = config.self();
        this.delivered = new DeliveredSet[n];
        for (int k = 0; k < n; k++) {
            delivered[k] = new DeliveredSet();
            waiting.add(new TreeMap<>());
        }
        this.stability = new Stability(n);
        this.inView = new boolean[n];
        java.util.Arrays.fill(inView, true);
        this.agreed = new SeqSet[n];
        this.frozen = new boolean[n];
        this.awaiting = new boolean[n];
        this.lastSpoke = ticker.read();
    }

    /** The header of this node's step log: spec Causal, its mode, the node, the constants. */
    public static StepLog.Header stepLogHeader(CausalConfig config) {
        return CausalStepLog.header(config);
    }

    public CausalConfig config() {
        return config;
    }

    // ---------------------------------------------------------------- Broadcast

    /**
     * Spec Broadcast(i): issue an event, deliver it here at once (paper L145: at its origin an event
     * is delivered when issued), keep it for requests, and send it to every other node.
     */
    public Step broadcast(Payload payload) {
        Objects.requireNonNull(payload, "payload");
        if (crashed) {
            return refuse(Refusal.CRASHED, "node " + self + " has crashed and broadcasts nothing");
        }
        if (store.size() >= config.maxStored()) {
            return refuse(Refusal.STORE_FULL, "recovery store of " + self + " holds " + store.size()
                    + " events, the bound maxStored; collect garbage (needs every node's progress) first");
        }
        long seq = delivered[self.index()].prefix() + 1;
        // FIFO metadata is the id alone (spec: vc[k] = 0 for k # origin); the other modes carry the prefix.
        VectorClock vc = config.mode() == Mode.FIFO ? VectorClock.zero(n) : prefixClock();
        Event e = new Event(new EventId(self, seq), vc.with(self.index(), seq), payload);
        recordDelivery(e);
        if (logging) {
            CausalStepLog.broadcast(log, self, e);
        }
        tally.add(Count.BROADCAST);
        lastSpoke = ticker.read();
        List<Outgoing> sends = new ArrayList<>(n - 1);
        CausalMessage data = new CausalMessage.Data(e);
        for (int k = 0; k < n; k++) {
            if (k != self.index()) {
                sends.add(new Outgoing(NodeId.of(k), data));
            }
        }
        return Step.accepted(List.of(e), sends);
    }

    // ---------------------------------------------------------------- Receive

    /** {@link #receive} then {@link #deliverAll}: what a runtime does with each datagram. */
    public Step handle(CausalMessage m) {
        Step s = receive(m);
        return s.outcome() == Outcome.ACCEPTED ? s.then(deliverAll()) : s;
    }

    /**
     * A message from the network, without delivering: Data and Resend are spec Receive(i, e),
     * Request is ServeRequest(i, e), Heartbeat is ReceiveHeartbeat(i, e). Bad input is a counted
     * refusal and changes nothing.
     */
    public Step receive(CausalMessage m) {
        Objects.requireNonNull(m, "message");
        if (crashed) {
            return refuse(Refusal.CRASHED, "node " + self + " has crashed and receives nothing");
        }
        Step bad = checkPeer(m.from(), "sender");
        if (bad != null) {
            return bad;
        }
        if (m instanceof CausalMessage.Data d) {
            return receiveEvent(m, d.event(), Count.DATA_RECEIVED);
        } else if (m instanceof CausalMessage.Resend r) {
            return receiveEvent(m, r.event(), Count.RESEND_RECEIVED);
        } else if (m instanceof CausalMessage.Request q) {
            return serve(q);
        } else {
            return learn((CausalMessage.Heartbeat) m);
        }
    }

    /** Spec ServeRequest(j, e): {@code from} asks this node for event {@code id} (as {@link #receive} of a Request). */
    public Step serveRequest(NodeId from, EventId id) {
        return receive(new CausalMessage.Request(from, id));
    }

    /** Spec ReceiveHeartbeat(i, e): {@code from}'s delivered prefix arrives (as {@link #receive} of a Heartbeat). */
    public Step receiveHeartbeat(NodeId from, VectorClock vc) {
        return receive(new CausalMessage.Heartbeat(from, vc));
    }

    private Step receiveEvent(CausalMessage m, Event e, Count kind) {
        Step bad = checkEvent(e);
        if (bad != null) {
            return bad;
        }
        if (!inView[e.origin().index()] && !agreedHas(e.origin().index(), e.seq())) {
            if (logging) {
                CausalStepLog.receive(log, self, m, e, "excluded", -1);
            }
            return refuse(Refusal.EXCLUDED, "event " + e.id() + " of " + e.origin() + ", removed from the view of "
                    + self + " and not among the events its flush agreed on");
        }
        tally.add(kind);
        EventId id = e.id();
        if (has(id)) {
            tally.add(Count.DUPLICATE);
            if (logging) {
                CausalStepLog.receive(log, self, m, e, "duplicate", -1);
            }
            return Step.of(Outcome.DUPLICATE);
        }
        // The bound is on events that must wait: one that is deliverable now is always taken, or a
        // buffer full of events waiting for it would refuse the very copy they wait for.
        if (buf.size() >= config.maxBuffered() && !deliverable(e)) {
            if (logging) {
                CausalStepLog.receive(log, self, m, e, "refused", -1);
            }
            return refuse(Refusal.BUFFER_FULL, "delivery buffer of " + self + " holds " + buf.size()
                    + " events, the bound maxBuffered; " + id + " must be recovered later");
        }
        buf.put(id, e);
        place(e);
        missing.remove(id);
        stability.learn(e.origin().index(), e.vc());
        detectGaps(e);
        if (logging) {
            CausalStepLog.receive(log, self, m, e, "buffered", missing.size());
        }
        return Step.of(Outcome.ACCEPTED);
    }

    /**
     * RER step R1 (paper 5.1, "it is seen that the message A is not there yet"): every event the
     * metadata of {@code e} proves missing starts waiting w, with e's origin as a holder (it delivered
     * them before issuing e, so it holds them). FIFO mode looks at e's own origin only.
     */
    private void detectGaps(Event e) {
        int o = e.origin().index();
        trackUpTo(o, e.seq() - 1, e.origin());
        if (config.mode() != Mode.FIFO) {
            for (int k = 0; k < n; k++) {
                if (k != o) {
                    trackUpTo(k, e.vc().get(k), e.origin());
                }
            }
        }
    }

    /** Track (k, prefix+1 .. upTo) not had here; {@code holder} is proved to hold each. */
    private void trackUpTo(int k, long upTo, NodeId holder) {
        long from = delivered[k].prefix() + 1;
        long deadline = ticker.read() + config.w();
        for (long s = from; s <= upTo; s++) {
            EventId d = new EventId(NodeId.of(k), s);
            if (has(d)) {
                continue;
            }
            Missing known = missing.get(d);
            if (known != null) {
                known.holders.add(holder);
                if (config.recovery() == Recovery.RESTART && known.phase == Phase.RETRIED) {
                    known.phase = Phase.WAITING; // L240: the message that shows the gap starts the wait
                    known.asked = null;
                    known.deadline = deadline;
                }
            } else if (missing.size() < config.maxMissing()) {
                missing.put(d, new Missing(d, holder, deadline));
            } else {
                tally.add(Count.MISSING_NOT_TRACKED); // one per reveal cut short: a gap may be ~2^63 ids
                return;
            }
        }
    }

    /** RER step R5: answer a request with the event itself if this node holds it. */
    private Step serve(CausalMessage.Request q) {
        EventId d = q.id();
        String bad = checkNode(d.origin(), "requested event's origin");
        if (bad != null) {
            return refuse(Refusal.UNKNOWN_NODE, bad);
        }
        Event e = buf.containsKey(d) ? buf.get(d) : store.get(d);
        if (e == null) {
            if (logging) {
                CausalStepLog.serveRequest(log, self, q, "refused");
            }
            return refuse(Refusal.UNKNOWN_EVENT, "request from " + q.from() + " for " + d
                    + ", which " + self + " does not hold (never had it, or collected it as stable)");
        }
        tally.add(Count.REQUEST_RECEIVED);
        tally.add(Count.RESEND_SENT);
        if (logging) {
            CausalStepLog.serveRequest(log, self, q, "resent");
        }
        return Step.accepted(List.of(), List.of(new Outgoing(q.from(), new CausalMessage.Resend(self, e))));
    }

    /** A peer's delivered prefix: learn its progress, and detect events it has that this node lacks. */
    private Step learn(CausalMessage.Heartbeat h) {
        Step bad = checkClock(h.vc(), "heartbeat from " + h.from());
        if (bad != null) {
            return bad;
        }
        if (!inView[h.from().index()]) {
            return refuse(Refusal.EXCLUDED, "heartbeat from " + h.from() + ", removed from the view of " + self);
        }
        tally.add(Count.HEARTBEAT_RECEIVED);
        stability.learn(h.from().index(), h.vc());
        for (int k = 0; k < n; k++) {
            if (k != self.index()) {
                trackUpTo(k, h.vc().get(k), h.from());
            }
        }
        if (logging) {
            CausalStepLog.receiveHeartbeat(log, self, h, missing.size());
        }
        return Step.of(Outcome.ACCEPTED);
    }

    // ---------------------------------------------------------------- Deliver

    /** Spec Deliver(i, m) for one buffered event; IGNORED if it is not buffered or not deliverable. */
    public Step deliver(EventId id) {
        if (crashed) {
            return refuse(Refusal.CRASHED, "node " + self + " has crashed and delivers nothing");
        }
        Event e = buf.get(id);
        if (e == null || !deliverable(e) || heldBack(e)) {
            return Step.of(Outcome.IGNORED);
        }
        take(e);
        return Step.accepted(List.of(e), List.of());
    }

    /**
     * Deliver everything deliverable, in passes over the buffer in id order, each event taken when
     * its pass reaches it if the guard holds then, until a pass delivers nothing. Only the ready
     * events are visited: the next one a pass delivers is the least ready id above the last one it
     * delivered, and a delivery wakes only the events filed under it. Same deliveries, in the same
     * order, as {@link #deliverAllByRescan} (a test compares them on random schedules).
     */
    public Step deliverAll() {
        if (crashed) {
            return Step.of(Outcome.IGNORED);
        }
        List<Event> out = new ArrayList<>();
        boolean progress = true;
        while (progress) {
            progress = false;
            recheckUnindexed();
            EventId next = ready.isEmpty() ? null : ready.first();
            while (next != null) {
                Event e = buf.get(next);
                take(e);
                out.add(e);
                progress = true;
                next = ready.higher(next);
            }
        }
        return out.isEmpty() ? Step.of(Outcome.IGNORED) : Step.accepted(out, List.of());
    }

    /**
     * The delivery this node had before the index: every pass copies the whole buffer and tests
     * every event, so a datagram costs time in proportion to what is buffered. Kept as the
     * baseline the causal delivery benchmark runs side by side with {@link #deliverAll}, and as
     * the reference the index is tested against; production code calls {@link #deliverAll}.
     */
    protected Step deliverAllByRescan() {
        if (crashed) {
            return Step.of(Outcome.IGNORED);
        }
        List<Event> out = new ArrayList<>();
        boolean progress = true;
        while (progress && !buf.isEmpty()) {
            progress = false;
            for (Event e : new ArrayList<>(buf.values())) {
                if (deliverable(e) && !heldBack(e)) {
                    take(e);
                    out.add(e);
                    progress = true;
                }
            }
        }
        return out.isEmpty() ? Step.of(Outcome.IGNORED) : Step.accepted(out, List.of());
    }

    /** A buffered event leaves the buffer and is delivered. */
    private void take(Event e) {
        buf.remove(e.id());
        ready.remove(e.id());
        unindexed.remove(e.id());
        withheld.remove(e.id());
        recordDelivery(e);
        if (logging) {
            CausalStepLog.deliver(log, self, e, delivered[e.origin().index()].prefix());
        }
    }

    /**
     * File a buffered event: ready if the guard (the seam) holds, else under the first condition of
     * the guard that fails: its origin's prefix must reach seq - 1 (FIFO, causal), and every other
     * k's prefix must reach vc[k] (causal). The spec's guard, condition by condition.
     */
    private void place(Event e) {
        EventId id = e.id();
        if (heldBack(e)) {
            withheld.add(id); // placed again when the view change decides
            return;
        }
        if (deliverable(e)) {
            ready.add(id);
            return;
        }
        int o = e.origin().index();
        if (config.mode() != Mode.UNORDERED) {
            if (delivered[o].prefix() < e.seq() - 1) {
                await(o, e.seq() - 1, id);
                return;
            }
            if (config.mode() == Mode.CAUSAL) {
                for (int k = 0; k < n; k++) {
                    if (k != o && e.vc().get(k) > delivered[k].prefix()) {
                        await(k, e.vc().get(k), id);
                        return;
                    }
                }
            }
        }
        unindexed.add(id);
    }

    private void await(int k, long x, EventId id) {
        waiting.get(k).computeIfAbsent(x, key -> new ArrayList<>()).add(id);
    }

    /** k's prefix grew to {@code prefix}: place again every event filed under a condition now met. */
    private void wake(int k, long prefix) {
        var met = waiting.get(k).headMap(prefix, true);
        if (met.isEmpty()) {
            return;
        }
        List<EventId> woken = new ArrayList<>();
        met.values().forEach(woken::addAll);
        met.clear();
        for (EventId id : woken) {
            Event e = buf.get(id);
            if (e != null && !ready.contains(id) && !withheld.contains(id)) { // null: delivered meanwhile
                place(e);
            }
        }
    }

    /** Only a seam that disagrees with the guard puts anything here; those are tested every pass. */
    private void recheckUnindexed() {
        if (unindexed.isEmpty()) {
            return;
        }
        for (EventId id : new ArrayList<>(unindexed)) {
            Event e = buf.get(id);
            if (e == null) {
                unindexed.remove(id);
            } else if (deliverable(e) && !heldBack(e)) {
                unindexed.remove(id);
                ready.add(id);
            }
        }
    }

    private void recordDelivery(Event e) {
        int o = e.origin().index();
        long before = delivered[o].prefix();
        delivered[o].add(e.seq());
        store.put(e.id(), e);
        stability.learn(self.index(), o, delivered[o].prefix());
        tally.add(Count.DELIVERED);
        if (delivered[o].prefix() > before) {
            wake(o, delivered[o].prefix());
        }
    }

    /**
     * The delivery guard (paper 2.1; reading notes 2.2, 2.3). Seam: a broken guard is how the
     * conformance tests show that causal-order checks catch a node that does not wait.
     */
    protected boolean deliverable(Event e) {
        int o = e.origin().index();
        switch (config.mode()) {
            case UNORDERED:
                return true;
            case FIFO:
                return e.seq() == delivered[o].prefix() + 1;
            default:
                if (e.seq() != delivered[o].prefix() + 1) {
                    return false;
                }
                for (int k = 0; k < n; k++) {
                    if (k != o && e.vc().get(k) > delivered[k].prefix()) {
                        return false;
                    }
                }
                return true;
        }
    }

    /**
     * Spec Has(i, d): delivered or buffered here. Seam: the duplicate check; a node that forgets
     * buffered copies delivers a recovered copy and the original twice.
     */
    protected boolean has(EventId d) {
        return delivered[d.origin().index()].contains(d.seq()) || buf.containsKey(d);
    }

    /**
     * Spec ~MayDeliver(i, m) (CausalMembership, CausalMembershipRestart): the membership holds e back,
     * because this node reported on e's origin and froze it, or removed it, and the flush did not agree
     * on e, or this node reported again since the decision that did (a restart). Seam: a node that keeps
     * delivering after its report (no freeze) makes the survivors disagree on the removed node's events.
     */
    protected boolean heldBack(Event e) {
        int o = e.origin().index();
        return (!inView[o] || frozen[o]) && (!agreedHas(o, e.seq()) || awaitingDecision(o));
    }

    /**
     * Spec k \in awaiting[i]: this node reported on k since the last decision it learnt. Seam: a node
     * that delivers by a decision a restart superseded, after its report to the new coordinator
     * (MutDeliverAfterNewReport), delivers an event the new decision may leave out.
     */
    protected boolean awaitingDecision(int k) {
        return awaiting[k];
    }

    private boolean agreedHas(int k, long seq) {
        return agreed[k] != null && agreed[k].contains(seq);
    }

    // ---------------------------------------------------------------- Timers

    /** Spec ExpireWait(i, d), RER step R3: w ran out, so ask the event's origin (paper 5.1, "N3 contacts N2"). */
    public Step expireWait(EventId d) {
        if (crashed) {
            return refuse(Refusal.CRASHED, "node " + self + " has crashed; its timers are gone");
        }
        Missing m = missing.get(d);
        if (m == null || m.phase != Phase.WAITING) {
            return Step.of(Outcome.IGNORED);
        }
        m.phase = Phase.ASKED;
        return request(d, m, d.origin(), Count.REQUEST_SENT, "ExpireWait");
    }

    /**
     * Spec ExpireRto(i, d), RER step R4: the RTO ran out without a copy, so ask the next known holder
     * (paper 5.3: "another node that knows this message"). LIVE repeats this after every RTO;
     * FAITHFUL and RESTART do it once (phase RETRIED) as the paper says.
     */
    public Step expireRto(EventId d) {
        if (crashed) {
            return refuse(Refusal.CRASHED, "node " + self + " has crashed; its timers are gone");
        }
        Missing m = missing.get(d);
        if (m == null || m.phase != Phase.ASKED) {
            return Step.of(Outcome.IGNORED);
        }
        if (config.recovery() != Recovery.LIVE) {
            m.phase = Phase.RETRIED;
        }
        return request(d, m, retryTarget(d, m.holders, m.asked), Count.REQUEST_RETRY, "ExpireRto");
    }

    private Step request(EventId d, Missing m, NodeId to, Count kind, String action) {
        m.asked = to;
        m.deadline = ticker.read() + config.rto();
        tally.add(kind);
        if (logging) {
            CausalStepLog.expire(log, action, self, d, to);
        }
        return Step.accepted(List.of(), List.of(new Outgoing(to, new CausalMessage.Request(self, d))));
    }

    /**
     * Whom the retry goes to: the first holder after {@code asked} in ring order (node index),
     * wrapping around; {@code asked} itself when it is the only holder. Holders grow as later
     * messages and heartbeats show who delivered the event. Seam: a node that only ever asks the
     * origin never recovers an event whose origin crashed.
     */
    protected NodeId retryTarget(EventId d, NavigableSet<NodeId> holders, NodeId asked) {
        NodeId next = holders.higher(asked);
        return next != null ? next : holders.first();
    }

    /** Spec SendHeartbeat(i, j) for every j: this node's delivered prefix to every other node. */
    public Step sendHeartbeat() {
        if (crashed) {
            return refuse(Refusal.CRASHED, "node " + self + " has crashed and sends nothing");
        }
        CausalMessage.Heartbeat hb = new CausalMessage.Heartbeat(self, prefixClock());
        if (logging) {
            CausalStepLog.sendHeartbeat(log, self, hb.vc());
        }
        List<Outgoing> sends = new ArrayList<>(n - 1);
        for (int k = 0; k < n; k++) {
            if (k != self.index()) {
                sends.add(new Outgoing(NodeId.of(k), hb));
            }
        }
        tally.add(Count.HEARTBEAT_SENT, sends.size());
        lastSpoke = ticker.read();
        return Step.accepted(List.of(), sends);
    }

    /**
     * What the runtime calls at {@link #nextDeadline}: fire every due timer (w, then RTO cycling
     * through holders), send a heartbeat if the node has been quiet for the heartbeat interval, and
     * collect garbage.
     */
    public Step poll() {
        if (crashed) {
            return Step.of(Outcome.IGNORED);
        }
        long now = ticker.read();
        Step out = Step.of(Outcome.ACCEPTED);
        for (Map.Entry<EventId, Missing> en : new ArrayList<>(missing.entrySet())) {
            Missing m = en.getValue();
            if (m.deadline - now > 0) {
                continue;
            }
            EventId d = en.getKey();
            if (m.phase == Phase.WAITING) {
                out = out.then(expireWait(d));
            } else if (m.phase == Phase.ASKED) {
                out = out.then(expireRto(d));
            }
        }
        if (config.heartbeat() > 0 && now - lastSpoke >= config.heartbeat()) {
            out = out.then(sendHeartbeat());
        }
        collectGarbage();
        return out;
    }

    /** The earliest time {@link #poll} has something to do (a timer or a heartbeat); empty if none. */
    public OptionalLong nextDeadline() {
        if (crashed) {
            return OptionalLong.empty();
        }
        long best = Long.MAX_VALUE;
        boolean any = false;
        for (Missing m : missing.values()) {
            if (m.phase != Phase.RETRIED && (!any || m.deadline - best < 0)) {
                best = m.deadline;
                any = true;
            }
        }
        if (config.heartbeat() > 0) {
            long hb = lastSpoke + config.heartbeat();
            if (!any || hb - best < 0) {
                best = hb;
                any = true;
            }
        }
        return any ? OptionalLong.of(best) : OptionalLong.empty();
    }

    // ---------------------------------------------------------------- View change (CausalMembership)

    /** Spec FlushReport(i) on the one node {@code x} being removed: {@link #flushReport(Collection)}. */
    public Step flushReport(NodeId x) {
        return flushReport(List.of(x));
    }

    /**
     * Spec FlushReport(i): the view change removing {@code xs} asks this survivor which of their
     * events it has delivered ({@link #deliveredOf}). From now on it delivers none of their events
     * until the decision, and then only agreed ones (the freeze): an event delivered after the report
     * would be one the others, told the union of the reports, never deliver. A restart asks again,
     * for a larger set (CausalMembershipRestart): an x already removed here may be among them. A
     * second report while every x awaits its decision is refused (one report per round).
     */
    public Step flushReport(Collection<NodeId> xs) {
        if (crashed) {
            return refuse(Refusal.CRASHED, "node " + self + " has crashed and takes no view change");
        }
        if (xs.isEmpty()) {
            throw new IllegalArgumentException("a flush report on no node");
        }
        boolean fresh = false;
        boolean member = false;
        for (NodeId x : xs) {
            Step bad = checkPeer(x, "flush report on");
            if (bad != null) {
                return bad;
            }
            fresh |= !awaiting[x.index()];
            member |= inView[x.index()];
        }
        if (!member) {
            return refuse(Refusal.EXCLUDED, xs + " are already removed from the view of " + self);
        }
        if (!fresh) {
            return refuse(Refusal.VIEW_CHANGE, self + " already reported on " + xs + " and awaits the decision");
        }
        for (NodeId x : xs) {
            frozen[x.index()] = true;
            awaiting[x.index()] = true;
            if (logging) {
                CausalStepLog.ofRound(log, "FlushReport", self, x, SeqSet.of(delivered[x.index()]).seqs(), xs);
            }
        }
        for (EventId id : new ArrayList<>(buf.keySet())) {
            if (xs.contains(id.origin()) && (ready.remove(id) | unindexed.remove(id))) {
                withheld.add(id); // waiting entries are held back when they wake
            }
        }
        return Step.of(Outcome.ACCEPTED);
    }

    /** The report {@link #flushReport} stands for: the seqs of x this node has delivered. */
    public SeqSet deliveredOf(NodeId x) {
        return SeqSet.of(delivered[x.index()]);
    }

    /**
     * Spec DecideView, as this survivor learns it: x's removal is decided and {@code seqs} (the union
     * of the reports) is what every survivor delivers of x. The held-back events that were agreed are
     * placed again. After a restart the decision is taken again, also at a survivor that installed the
     * view without x (the new set is then the old one: CausalMembershipRestart's argument).
     */
    public Step decideView(NodeId x, SeqSet seqs) {
        if (crashed) {
            return refuse(Refusal.CRASHED, "node " + self + " has crashed and takes no view change");
        }
        Step bad = checkPeer(x, "decision on");
        if (bad != null) {
            return bad;
        }
        agreed[x.index()] = Objects.requireNonNull(seqs, "seqs");
        awaiting[x.index()] = false;
        if (logging) {
            CausalStepLog.membership(log, "DecideView", self, x, null, seqs.seqs());
        }
        for (EventId id : new ArrayList<>(withheld)) {
            if (id.origin().equals(x)) {
                withheld.remove(id);
                place(buf.get(id));
            }
        }
        return Step.of(Outcome.ACCEPTED);
    }

    /**
     * Spec FlushForward(j, i): the coordinator found that {@code to} lacks x's events {@code seqs},
     * which this node reported; send the copies it holds (JGroups' flush retransmits them too).
     */
    public Step flushForward(NodeId x, NodeId to, java.util.Collection<Long> seqs) {
        Step bad = checkPeer(to, "forward target");
        if (bad != null) {
            return bad;
        }
        List<Outgoing> sends = new ArrayList<>();
        for (long s : seqs) {
            Event e = held(new EventId(x, s));
            if (e != null) {
                sends.add(new Outgoing(to, new CausalMessage.Resend(self, e)));
            }
        }
        tally.add(Count.RESEND_SENT, sends.size());
        if (!sends.isEmpty() && logging) {
            List<Long> sent = new ArrayList<>();
            sends.forEach(o -> sent.add(((CausalMessage.Resend) o.message()).event().seq()));
            CausalStepLog.membership(log, "FlushForward", self, x, to, sent);
        }
        return sends.isEmpty() ? Step.of(Outcome.IGNORED) : Step.accepted(List.of(), sends);
    }

    /** Spec InstallView(i) when the one node {@code x} is removed: {@link #installView(Collection)}. */
    public Step installView(NodeId x) {
        return installView(List.of(x));
    }

    /**
     * Spec InstallView(i): once every agreed event of every x in {@code xs} is delivered here, install
     * the view without them: drop their other events from the buffer and the missing list, refuse
     * them from now on, and stop counting their rows in stability, so garbage collection goes on.
     * IGNORED while an agreed event is still to be delivered (or nothing is decided). An x this node
     * removed already (a restart's decision taken again) is left as it is.
     */
    public Step installView(Collection<NodeId> xs) {
        List<Integer> out = new ArrayList<>();
        for (NodeId x : xs) {
            if (crashed) {
                return refuse(Refusal.CRASHED, "node " + self + " has crashed and takes no view change");
            }
            Step bad = checkPeer(x, "view without");
            if (bad != null) {
                return bad;
            }
            int k = x.index();
            if (agreed[k] == null || !agreed[k].subsetOf(SeqSet.of(delivered[k])) || awaiting[k]) {
                return Step.of(Outcome.IGNORED);
            }
            if (inView[k]) {
                out.add(k);
            }
        }
        if (out.isEmpty()) {
            return refuse(Refusal.EXCLUDED, xs + " are already removed from the view of " + self);
        }
        for (int k : out) {
            NodeId x = NodeId.of(k);
            inView[k] = false;
            frozen[k] = false;
            for (EventId id : new ArrayList<>(buf.keySet())) {
                if (id.origin().equals(x)) {
                    buf.remove(id);
                    ready.remove(id);
                    unindexed.remove(id);
                    withheld.remove(id);
                }
            }
            missing.keySet().removeIf(id -> id.origin().equals(x));
            stability.exclude(k);
            if (logging) {
                CausalStepLog.ofRound(log, "InstallView", self, x, null, xs);
            }
        }
        return Step.of(Outcome.ACCEPTED);
    }

    // ---------------------------------------------------------------- Join (CausalJoin.tla)

    /**
     * Spec Spare: j is an id never used yet, out of the view until it joins (JoinInit). Its events
     * are refused and its row does not hold the stable prefix. Called before any traffic; on the
     * spare's own node too (the spec's view of a spare is Node \ Spare until {@link #startFrom}).
     */
    public void spare(NodeId j) {
        String bad = checkNode(j, "spare");
        if (bad != null) {
            throw new IllegalArgumentException(bad);
        }
        inView[j.index()] = false;
        stability.exclude(j.index());
    }

    /**
     * Spec Join(d, j), donor side (this node is d): while no view change runs, hand the spare j this
     * node's delivered prefix, store, view, agreed sets and rows, and install the view with j in the
     * same step, j's row starting from this node's own prefix (what j starts from). The snapshot and
     * the install are one call: a delivery between the two would leave j's row above j's prefix
     * (MutJoinSnapshotEarly), and an event j lacks would be collected.
     */
    public JoinState join(NodeId j) {
        checkJoin(j);
        int k = j.index();
        VectorClock prefix = prefixClock();
        inView[k] = true;
        stability.include(k, prefix);
        VectorClock[] rows = new VectorClock[n];
        for (int x = 0; x < n; x++) {
            rows[x] = x == self.index() ? prefix : stability.row(x);
        }
        if (logging) {
            CausalStepLog.join(log, self, j, prefix);
        }
        return new JoinState(self, j, prefix, new ArrayList<>(store.values()), inView, agreed, rows);
    }

    /**
     * Spec InstallJoin(i, j) (this node is i): install the view with j, which joined from {@code
     * donor} with the prefix {@code start} (the {@link JoinState#prefix} the coordinator's install
     * carries). Until this call j's events are refused as excluded and its row does not count; from
     * now on j's row starts from {@code start}, j's clock at the join, a lower bound of its progress
     * (KnownIsLowerBound). Not from this node's row of the donor: the donor may have delivered more
     * since the join, and this node may know it (MutJoinRowFromDonor).
     */
    public Step installJoin(NodeId j, NodeId donor, VectorClock start) {
        Step bad = checkPeer(donor, "donor");
        if (bad != null) {
            return bad;
        }
        Objects.requireNonNull(start, "start");
        if (start.size() != n) {
            throw new IllegalArgumentException("join of " + j + " at " + self + ": start prefix of size "
                    + start.size() + ", the group has " + n + " nodes");
        }
        checkJoin(j);
        VectorClock row = joinRowStart(donor, start);
        inView[j.index()] = true;
        stability.include(j.index(), row);
        if (logging) {
            CausalStepLog.installJoin(log, self, j, row);
        }
        return Step.of(Outcome.ACCEPTED);
    }

    /**
     * The row of a joiner at a late install: the handed prefix. Seam: a node that starts it from its
     * row of the donor now (MutJoinRowFromDonor, the core before issue 21) counts events the joiner
     * lacks as delivered there, and collects one the joiner must still recover.
     */
    protected VectorClock joinRowStart(NodeId donor, VectorClock start) {
        return start;
    }

    /** Spec Join(d, j), joiner side: a node for the spare id {@code config.self()} starting from {@code s}. */
    public static CausalNode joining(CausalConfig config, Ticker ticker, JoinState s) {
        CausalNode node = new CausalNode(config, ticker);
        node.startFrom(s);
        return node;
    }

    /**
     * The joiner's start, on a node of the spare id that has taken no step yet: the handed prefix
     * counts as delivered, the rest of the state is the donor's. Public for replay, which builds its
     * cores (a broken one too) before the trace says which of them joins.
     */
    public void startFrom(JoinState s) {
        if (!s.joiner().equals(self)) {
            throw new IllegalArgumentException("state handed to " + s.joiner() + " taken by " + self);
        }
        for (int k = 0; k < n; k++) {
            delivered[k].startAt(startPrefix(k, s));
        }
        for (int k = 0; k < n; k++) {
            inView[k] = s.inView(k) || k == self.index();
            agreed[k] = s.agreed(k);
            if (inView[k]) {
                stability.include(k, k == self.index() ? prefixClock() : s.row(k));
            } else {
                stability.exclude(k);
            }
        }
        for (Event e : s.store()) {
            store.put(e.id(), e);
        }
    }

    /**
     * The joiner's starting prefix of origin k: the donor's. Seam: a joiner that starts from an empty
     * prefix (MutJoinEmptyPrefix) takes the old events still on their way as new and delivers again
     * what its application got with the state.
     */
    protected long startPrefix(int k, JoinState s) {
        return s.prefix().get(k);
    }

    private void checkJoin(NodeId j) {
        if (crashed) {
            throw new IllegalStateException("node " + self + " has crashed and takes no join of " + j);
        }
        String bad = checkNode(j, "joiner");
        if (bad != null || j.equals(self)) {
            throw new IllegalArgumentException(bad != null ? bad : "joiner " + j + " is this node itself");
        }
        if (inView[j.index()] || agreed[j.index()] != null) {
            throw new IllegalArgumentException("joiner " + j + " is not a spare of " + self + ": "
                    + (inView[j.index()] ? "it is in the view" : "it was removed, and an id is never used twice"));
        }
        for (int k = 0; k < n; k++) {
            if (frozen[k] || awaiting[k]) {
                throw new IllegalStateException("a join of " + j + " at " + self + " while the view change on "
                        + NodeId.of(k) + " runs: a join waits until every member installed the last view");
            }
        }
    }

    // ---------------------------------------------------------------- Store, crash

    /** Spec CollectGarbage(i): drop stored events every node is known to have delivered. Returns how many. */
    public int collectGarbage() {
        if (crashed) {
            return 0;
        }
        // Stable events of one origin are a prefix of its seqs (every row's component k is a count),
        // so each origin's part of the sorted store is cut at its bound: no scan of what stays.
        int before = store.size();
        for (int k = 0; k < n; k++) {
            long bound = stability.stablePrefix(k);
            if (bound >= 1) {
                store.subMap(new EventId(NodeId.of(k), 1), true, new EventId(NodeId.of(k), bound), true).clear();
            }
        }
        int collected = before - store.size();
        tally.add(Count.COLLECTED, collected);
        if (collected > 0 && logging) {
            CausalStepLog.collectGarbage(log, self, store.size());
        }
        return collected;
    }

    /** Spec Crash(i): crash-stop. Every later input is refused; the node never comes back with this id. */
    public void crash() {
        if (!crashed && logging) {
            CausalStepLog.plain(log, "Crash", self, null);
        }
        crashed = true;
    }

    public boolean crashed() {
        return crashed;
    }

    // ---------------------------------------------------------------- Observers

    /** The delivered prefix, which is what messages and heartbeats carry. */
    public VectorClock prefixClock() {
        long[] vc = new long[n];
        for (int k = 0; k < n; k++) {
            vc[k] = delivered[k].prefix();
        }
        return VectorClock.of(vc);
    }

    public CausalState state() {
        TreeSet<EventId> above = new TreeSet<>();
        for (int k = 0; k < n; k++) {
            for (long s : delivered[k].above()) {
                above.add(new EventId(NodeId.of(k), s));
            }
        }
        TreeMap<EventId, VectorClock> b = new TreeMap<>();
        buf.forEach((d, e) -> b.put(d, e.vc()));
        TreeMap<EventId, VectorClock> st = new TreeMap<>();
        store.forEach((d, e) -> st.put(d, e.vc()));
        TreeMap<EventId, MissingState> ms = new TreeMap<>();
        missing.forEach((d, m) -> ms.put(d, m.view()));
        TreeMap<NodeId, VectorClock> known = new TreeMap<>();
        for (int k = 0; k < n; k++) {
            if (k != self.index()) {
                known.put(NodeId.of(k), stability.row(k));
            }
        }
        TreeSet<NodeId> view = new TreeSet<>();
        for (int k = 0; k < n; k++) {
            if (inView[k]) {
                view.add(NodeId.of(k));
            }
        }
        return new CausalState(prefixClock(), above, b, st, ms, !crashed, known, view);
    }

    /** Buffered events the guard would deliver now (the spec's choice for Deliver), ids ascending. */
    public List<EventId> deliverable() {
        List<EventId> out = new ArrayList<>();
        for (Event e : buf.values()) {
            if (deliverable(e) && !heldBack(e)) {
                out.add(e.id());
            }
        }
        return out;
    }

    public Counters counters() {
        return tally.snapshot();
    }

    /** The stored or buffered copy of an event, if this node holds one (for tests and tools). */
    public Event held(EventId d) {
        Event e = buf.get(d);
        return e != null ? e : store.get(d);
    }

    /** Counts a datagram the runtime's decoder refused, so that every refusal shows in one place. */
    public Step refuseMalformed(String detail) {
        return refuse(Refusal.MALFORMED, detail);
    }

    // ---------------------------------------------------------------- Validation

    private Step refuse(Refusal why, String detail) {
        tally.refuse(why);
        return Step.refused(why, detail);
    }

    private String checkNode(NodeId k, String role) {
        return k.index() >= n ? role + " " + k + " (index " + k.index() + ") is not in the group of " + n + " nodes" : null;
    }

    private Step checkPeer(NodeId k, String role) {
        String bad = checkNode(k, role);
        if (bad != null) {
            return refuse(Refusal.UNKNOWN_NODE, bad);
        }
        return k.equals(self) ? refuse(Refusal.FROM_SELF, role + " " + k + " is this node itself") : null;
    }

    private Step checkClock(VectorClock vc, String what) {
        if (vc.size() != n) {
            return refuse(Refusal.VECTOR_SIZE, what + ": vector clock of size " + vc.size()
                    + ", the group has " + n + " nodes");
        }
        long own = delivered[self.index()].prefix();
        if (vc.get(self.index()) > own) {
            return refuse(Refusal.FUTURE_OWN_EVENT, what + ": claims " + vc.get(self.index()) + " events of "
                    + self + ", which has issued " + own);
        }
        return null;
    }

    private Step checkEvent(Event e) {
        String bad = checkNode(e.origin(), "event origin");
        if (bad != null) {
            return refuse(Refusal.UNKNOWN_NODE, bad);
        }
        Step clock = checkClock(e.vc(), "event " + e.id());
        if (clock != null) {
            return clock;
        }
        if (e.vc().get(e.origin().index()) != e.seq()) {
            return refuse(Refusal.INCONSISTENT_VECTOR, "event " + e.id() + ": vc[" + e.origin() + "] = "
                    + e.vc().get(e.origin().index()) + ", rule vc[origin] = seq = " + e.seq());
        }
        if (e.origin().equals(self) && e.seq() > delivered[self.index()].prefix()) {
            return refuse(Refusal.FUTURE_OWN_EVENT, "event " + e.id() + " of this node, which has issued "
                    + delivered[self.index()].prefix());
        }
        return null;
    }
}
