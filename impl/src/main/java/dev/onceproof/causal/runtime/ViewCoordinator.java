package dev.onceproof.causal.runtime;

import dev.onceproof.causal.ConcurrentCausalNode;
import dev.onceproof.causal.JoinState;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.VectorClock;
import dev.onceproof.causal.wire.JoinWire;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import dev.onceproof.causal.SeqSet;
import dev.onceproof.causal.ViewChange;
import dev.onceproof.causal.wire.ViewMessage;
import dev.onceproof.steplog.StepLog;
import java.util.Collections;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiConsumer;

/**
 * The coordinator's side of the view change over the network, at every member: a failure detector,
 * and the coordinator's role when this member has it, the sans-IO {@link ViewChange} (which logs
 * the first coordinator's steps) with resends. It runs in one member's runtime ({@link
 * CausalUdpNode}), whose threads call it, one at a time (it is synchronized; its lock is taken
 * before the {@link ViewMember}'s, never inside it).
 *
 * <p>What the spec's coordinator variables become on a lossy network: Suspect sends a
 * {@link ViewMessage.Flush} to every survivor, and again every {@code retry} to those whose
 * {@link ViewMessage.Report} has not arrived; the last report makes the decision, which goes as a
 * {@link ViewMessage.Decide} to every survivor, and again every {@code retry} to all of them until
 * each said {@link ViewMessage.Installed}; the last one ends the change, and every Installed after
 * it is answered {@link ViewMessage.Ended}. A repeated report or install changes nothing.
 *
 * <p>Restarts (specs/causal/CausalMembershipRestart.tla): the coordinator's detector also runs
 * during a flush, and a survivor it suspects then restarts the flush for the larger set: fresh
 * reports, the decision taken again. Every other member's detector watches the coordinator it
 * expects, the first in ring order ({@link Ring}) of its view without the unfinished change's nodes
 * and those it suspected; a silent one is suspected, and the member that finds itself first takes
 * the role: it flushes the unfinished change's nodes and the suspected coordinators
 * ({@link ViewChange#resume}), collecting every survivor's report again (the old coordinator's are
 * lost with it). A suspicion may be false (the system is asynchronous): the suspected node is
 * removed all the same, as in the spec.
 *
 * <p>The detector: a member of {@code suspectable} from which nothing arrived for {@code
 * suspectAfter} is suspected, whether it crashed or is only slow. Without suspectAfter only {@link
 * #suspect} starts a view change. With {@code restart} off (the defect this class fixes, kept for
 * the control tests) a suspicion during a flush is refused and nobody takes over.
 */
final class ViewCoordinator {

    private final NodeId self;
    private final int n;
    private final Ring ring;
    private final ViewMember member;
    private final Set<NodeId> suspectable;
    private final long suspectAfter;
    private final long retry;
    private final boolean restart;
    private final BiConsumer<NodeId, ViewMessage> out;
    /** This node's coordinator step log: the first coordinator's steps, or those of a survivor taking over. */
    private final StepLog log;
    /** Per node, when something from it last arrived (the detector's input). */
    private final long[] lastHeard;
    /** Coordinators this member's detector suspected while another had the role. */
    private final Set<NodeId> suspected = new TreeSet<>();
    /** The group's view-change state while this member has the coordinator's role; null before. */
    private ViewChange views;
    /** The running round's decision, once taken; null before it and after the change ended. */
    private ViewMessage.Decide decision;
    private final Set<NodeId> installed = new HashSet<>();
    /** The nodes of the last change this coordinator ended, for answering late Installed. */
    private SortedSet<NodeId> ended = Collections.emptySortedSet();
    private long lastSent;
    private long restarts;
    private long takeovers;

    /** The core, for the donor's step of a join (spec Join(self, j)). */
    private final ConcurrentCausalNode node;
    /** The join this coordinator donated last: the joiner, its state in chunks, its handed prefix; null before any. */
    private NodeId joiner;
    private List<byte[]> chunks;
    private VectorClock joinStart;
    private long joinSent;
    private long joinsRefused;
    /** Bytes of state per JoinChunk: JoinWire.CHUNK; a test sets it small to split a small state. */
    private int chunkBytes = JoinWire.CHUNK;

    ViewCoordinator(NodeId self, int n, Ring ring, ViewMember member, ConcurrentCausalNode node, ViewOptions o,
            BiConsumer<NodeId, ViewMessage> out, long now) {
        this.node = node;
        this.self = self;
        this.n = n;
        this.ring = ring;
        this.member = member;
        this.suspectable = Set.copyOf(o.suspectable());
        this.suspectAfter = o.suspectAfter();
        this.retry = o.retry();
        this.restart = o.restart();
        this.out = out;
        this.log = o.coordinatorLog();
        this.lastHeard = new long[n];
        java.util.Arrays.fill(lastHeard, now);
        if (ring.first().equals(self)) {
            views = new ViewChange(n).logSteps(log);
        }
    }

    synchronized void heard(NodeId k, long now) {
        if (k.index() < lastHeard.length) {
            lastHeard[k.index()] = now;
        }
    }

    /** Whether this member has the coordinator's role. */
    synchronized boolean coordinates() {
        return views != null;
    }

    /**
     * Spec Suspect(self, x), then the flush requests; during a flush a restart for the larger set.
     * False if this member does not coordinate, x cannot be removed, or (restart off) a change runs.
     */
    synchronized boolean suspect(NodeId x, long now) {
        if (views == null || x.equals(self) || !restart && !views.flushing().isEmpty()) {
            return false;
        }
        boolean running = !views.flushing().isEmpty();
        if (!views.suspect(self, x)) {
            return false;
        }
        restarts += running ? 1 : 0;
        decision = null;
        installed.clear();
        flushRequests(now);
        return true;
    }

    /** A report or an install from a survivor; false if it was a repeat, stale or not a survivor's. */
    synchronized boolean receive(ViewMessage m, long now) {
        if (views == null) {
            return false;
        }
        if (m instanceof ViewMessage.JoinAsk a) {
            return ask(a, now);
        }
        if (m instanceof ViewMessage.JoinInstalled i) {
            if (i.joiner().equals(joiner) && views.joinPending().contains(i.from())) {
                views.joinInstalled(i.from()); // spec InstallJoin(i, j), the coordinator's side
                return true;
            }
            return false;
        }
        if (m instanceof ViewMessage.Installed && m.targets().equals(ended)) {
            out.accept(m.from(), new ViewMessage.Ended(self, ended)); // its Installed resend: the change is over
            return false;
        }
        SortedSet<NodeId> xs = views.flushing();
        if (m instanceof ViewMessage.Report && restart && !xs.containsAll(m.targets())
                && views.survivors().contains(m.from())) {
            // A survivor reports on a change this coordinator never heard of (it took over after the
            // old coordinator's flush request to it was lost): restart for the union, as a suspicion
            // of those nodes (Suspect(self, x)) would.
            boolean any = false;
            for (NodeId x : m.targets()) {
                any |= views.survivors().contains(x) && suspect(x, now);
            }
            return any;
        }
        if (xs.isEmpty() || !xs.equals(m.targets()) || !views.survivors().contains(m.from())) {
            return false;
        }
        if (m instanceof ViewMessage.Report r) {
            if (decision != null || views.reported().contains(r.from())) {
                return false;
            }
            views.report(r.from(), r.seqs());
            views.decide().ifPresent(agreed -> {
                TreeMap<NodeId, SortedMap<NodeId, SeqSet>> report = new TreeMap<>();
                for (NodeId i : views.members()) {
                    TreeMap<NodeId, SeqSet> ofI = new TreeMap<>();
                    xs.forEach(x -> ofI.put(x, views.reportOf(i, x)));
                    report.put(i, ofI);
                }
                decision = new ViewMessage.Decide(self, agreed, report);
                sendDecision(now);
            });
            return true;
        }
        if (m instanceof ViewMessage.Installed && decision != null && installed.add(m.from())) {
            SortedSet<NodeId> targets = new TreeSet<>(xs);
            views.installed(m.from());
            if (views.flushing().isEmpty()) {
                decision = null; // the last survivor installed: the change is over
                ended = targets;
                out.accept(m.from(), new ViewMessage.Ended(self, ended));
            }
            return true;
        }
        return false;
    }

    /**
     * A spare asks to join: spec Join(self, j) with this coordinator as the donor, once; the state
     * goes to j in chunks from the one it asks for, and every other member is told to install.
     * Refused for good, and told so, for an id that was removed (never used twice) or a member;
     * left unanswered while a view change or another join runs (the joiner asks again).
     */
    private boolean ask(ViewMessage.JoinAsk a, long now) {
        NodeId j = a.from();
        if (!j.equals(joiner)) {
            String why = null;
            if (views.gone().contains(j)) {
                why = j + " was removed from the group: an id is never admitted again (rejoin under a spare id)";
            } else if (views.members().contains(j) || j.equals(self)) {
                why = j + " is a member already";
            }
            if (why != null) {
                joinsRefused++;
                out.accept(j, new ViewMessage.JoinRefused(self, j, why));
                return false;
            }
            if (!views.join(self, j)) {
                return false; // a view change or the last join's installs run: j asks again later
            }
            JoinState state = node.join(j); // spec Join(self, j): the snapshot and this node's install, one step
            member.joined(j);
            byte[] bytes = JoinWire.encodeState(state);
            chunks = new ArrayList<>();
            if ((bytes.length + chunkBytes - 1) / chunkBytes > JoinWire.MAX_CHUNKS) {
                throw new IllegalStateException("join state of " + j + " is " + bytes.length + " bytes, above "
                        + JoinWire.MAX_CHUNKS + " chunks of " + chunkBytes);
            }
            for (int at = 0; at < bytes.length || chunks.isEmpty(); at += chunkBytes) {
                chunks.add(Arrays.copyOfRange(bytes, at, Math.min(bytes.length, at + chunkBytes)));
            }
            joiner = j;
            joinStart = state.prefix();
            sendInstalls(now);
        }
        for (int k = a.next(); k < Math.min(chunks.size(), a.next() + JOIN_WINDOW); k++) {
            out.accept(j, new ViewMessage.JoinChunk(self, j, k, chunks.size(), chunks.get(k)));
        }
        return true;
    }

    /** Chunks sent per ask: the joiner asks again from the first it lacks. */
    private static final int JOIN_WINDOW = 32;

    private void sendInstalls(long now) {
        for (NodeId i : views.joinPending()) {
            out.accept(i, new ViewMessage.JoinInstall(self, joiner, joinStart));
        }
        joinSent = now;
    }

    /** Members that have not installed the last join (the coordinator's joinPending); empty elsewhere. */
    synchronized Set<NodeId> joinPending() {
        return views == null ? Set.of() : Set.copyOf(views.joinPending());
    }

    synchronized void chunkBytes(int bytes) {
        if (bytes < 1 || bytes > JoinWire.CHUNK) {
            throw new IllegalArgumentException("join chunk of " + bytes + " bytes is not 1.." + JoinWire.CHUNK);
        }
        chunkBytes = bytes;
    }

    /** Chunks of the last join's state (0 before any). */
    synchronized int joinChunks() {
        return chunks == null ? 0 : chunks.size();
    }

    synchronized long joinsRefused() {
        return joinsRefused;
    }

    /** Spec Spare at the coordinator: j is out of the membership until it joins. */
    synchronized void spare(NodeId j) {
        if (views != null) {
            views.spare(j);
        }
    }

    /** The timer: resend what is unanswered every retry; then the detector. */
    synchronized void poll(long now) {
        if (views != null && !views.joinPending().isEmpty() && now - joinSent >= retry) {
            sendInstalls(now);
        }
        if (views != null && !views.flushing().isEmpty() && now - lastSent >= retry) {
            if (decision == null) {
                flushRequests(now);
            } else {
                sendDecision(now);
            }
        }
        if (suspectAfter <= 0) {
            return;
        }
        SortedSet<NodeId> view = member.view();
        if (views != null) {
            for (NodeId k : view) {
                if (views.survivors().contains(k) && silent(k, now) && suspect(k, now)) {
                    return;
                }
            }
            return;
        }
        if (!restart) {
            return;
        }
        // Watch the coordinator this member expects; the first survivor in ring order takes over.
        while (true) {
            TreeSet<NodeId> candidates = new TreeSet<>(view);
            candidates.removeAll(member.unfinished());
            candidates.removeAll(suspected);
            NodeId c = ring.firstOf(candidates);
            if (c == null) {
                return;
            }
            if (c.equals(self)) {
                if (!suspected.isEmpty()) {
                    takeOver(view, now);
                }
                return;
            }
            if (!silent(c, now)) {
                return;
            }
            suspected.add(c);
        }
    }

    private boolean silent(NodeId k, long now) {
        return !k.equals(self) && suspectable.contains(k) && now - lastHeard[k.index()] > suspectAfter;
    }

    /** This member is the first survivor: it flushes the unfinished change's nodes and the suspected coordinators. */
    private void takeOver(SortedSet<NodeId> view, long now) {
        views = ViewChange.resume(n, view, member.unfinished()).logSteps(log);
        takeovers++;
        for (NodeId c : suspected) {
            if (view.contains(c) && !member.unfinished().contains(c)) {
                views.suspect(self, c); // spec Suspect(self, c): logged, a restart if a change was unfinished
            }
        }
        decision = null;
        installed.clear();
        flushRequests(now);
    }

    private void flushRequests(long now) {
        SortedSet<NodeId> xs = new TreeSet<>(views.flushing());
        if (xs.isEmpty()) {
            return; // a takeover whose suspected coordinators had already left the view: nothing to flush
        }
        for (NodeId i : views.survivors()) {
            if (!views.reported().contains(i)) {
                out.accept(i, new ViewMessage.Flush(self, xs));
            }
        }
        lastSent = now;
    }

    private void sendDecision(long now) {
        decision.report().keySet().forEach(i -> out.accept(i, decision));
        lastSent = now;
    }

    synchronized Set<NodeId> members() {
        return views == null ? Set.of() : Set.copyOf(views.members());
    }

    /** The first node the running change removes (of {@link #flushingAll}). */
    synchronized Optional<NodeId> flushing() {
        return views == null || views.flushing().isEmpty() ? Optional.empty() : Optional.of(views.flushing().first());
    }

    synchronized SortedSet<NodeId> flushingAll() {
        return views == null ? Collections.emptySortedSet() : Collections.unmodifiableSortedSet(new TreeSet<>(views.flushing()));
    }

    synchronized SeqSet agreedOf(NodeId x) {
        return views == null ? SeqSet.EMPTY : views.agreedOf(x);
    }

    synchronized Set<NodeId> reported() {
        return views == null ? Set.of() : Set.copyOf(views.reported());
    }

    /** Flushes this member restarted for a larger set while coordinating. */
    synchronized long restarts() {
        return restarts;
    }

    /** 1 if this member took the coordinator's role from a suspected one, else 0. */
    synchronized long takeovers() {
        return takeovers;
    }
}
