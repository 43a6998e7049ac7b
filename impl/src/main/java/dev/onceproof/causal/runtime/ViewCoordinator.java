package dev.onceproof.causal.runtime;

import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.SeqSet;
import dev.onceproof.causal.ViewChange;
import dev.onceproof.causal.wire.ViewMessage;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.BiConsumer;

/**
 * The coordinator's side of the view change over the network: the sans-IO {@link ViewChange}
 * (which logs the coordinator's steps) with a failure detector and resends. It runs in one member's
 * runtime ({@link CausalUdpNode}), whose threads call it, one at a time (it is synchronized).
 *
 * <p>What the spec's coordinator variables become on a lossy network: Suspect sends a
 * {@link ViewMessage.Flush} to every survivor, and again every {@code retry} to those whose
 * {@link ViewMessage.Report} has not arrived; the last report makes the decision, which goes as a
 * {@link ViewMessage.Decide} to every survivor, and again every {@code retry} to all of them until
 * each said {@link ViewMessage.Installed} (an installed survivor answers a repeat by sending again
 * what another may still lack). A repeated report or install changes nothing.
 *
 * <p>The failure detector: a member of {@code suspectable} from which nothing arrived for
 * {@code suspectAfter} is suspected, whether it crashed or is only slow (a false suspicion: the
 * system is asynchronous). Without suspectAfter only {@link #suspect} starts a view change.
 */
final class ViewCoordinator {

    private final NodeId self;
    private final ViewChange views;
    private final Set<NodeId> suspectable;
    private final long suspectAfter;
    private final long retry;
    private final BiConsumer<NodeId, ViewMessage> out;
    /** Per node, when something from it last arrived (the detector's input). */
    private final long[] lastHeard;
    /** The running change's decision, once taken; null before it and after the change ended. */
    private ViewMessage.Decide decision;
    private final Set<NodeId> installed = new HashSet<>();
    private long lastSent;

    ViewCoordinator(NodeId self, ViewChange views, Set<NodeId> suspectable, long suspectAfter, long retry,
            BiConsumer<NodeId, ViewMessage> out, long now) {
        this.self = self;
        this.views = views;
        this.suspectable = Set.copyOf(suspectable);
        this.suspectAfter = suspectAfter;
        this.retry = retry;
        this.out = out;
        this.lastHeard = new long[views.size()];
        java.util.Arrays.fill(lastHeard, now);
    }

    synchronized void heard(NodeId k, long now) {
        if (k.index() < lastHeard.length) {
            lastHeard[k.index()] = now;
        }
    }

    /**
     * Spec Suspect(by, x), then the flush requests. False if a change runs or x cannot be removed:
     * this runtime has one coordinator and does not restart a flush (CausalMembershipRestart's
     * restart is in {@link ViewChange} and the cores, not yet on the wire).
     */
    synchronized boolean suspect(NodeId by, NodeId x, long now) {
        if (x.equals(self) || !views.flushing().isEmpty() || !views.suspect(by, x)) {
            return false;
        }
        decision = null;
        installed.clear();
        flushRequests(now);
        return true;
    }

    /** A report or an install from a survivor; false if it was a repeat, stale or not a survivor's. */
    synchronized boolean receive(ViewMessage m, long now) {
        Optional<NodeId> x = flushing();
        if (x.isEmpty() || !x.get().equals(m.target()) || !views.survivors().contains(m.from())) {
            return false;
        }
        if (m instanceof ViewMessage.Report r) {
            if (decision != null || views.reported().contains(r.from())) {
                return false;
            }
            views.report(r.from(), r.seqs());
            Optional<SeqSet> agreed = views.decide().map(d -> d.get(x.get()));
            if (agreed.isPresent()) {
                TreeMap<NodeId, SeqSet> report = new TreeMap<>();
                views.members().forEach(i -> report.put(i, views.reportOf(i, x.get())));
                decision = new ViewMessage.Decide(self, x.get(), agreed.get(), report);
                sendDecision(now);
            }
            return true;
        }
        if (m instanceof ViewMessage.Installed && decision != null && installed.add(m.from())) {
            views.installed(m.from());
            if (views.flushing().isEmpty()) {
                decision = null; // the last survivor installed: the change is over
            }
            return true;
        }
        return false;
    }

    /** The timer: resend what is unanswered every retry; when idle, suspect a silent node. */
    synchronized void poll(long now) {
        if (!views.flushing().isEmpty()) {
            if (now - lastSent >= retry) {
                if (decision == null) {
                    flushRequests(now);
                } else {
                    sendDecision(now);
                }
            }
            return;
        }
        if (suspectAfter <= 0) {
            return;
        }
        for (NodeId k : List.copyOf(views.members())) {
            if (suspectable.contains(k) && now - lastHeard[k.index()] > suspectAfter && suspect(self, k, now)) {
                return;
            }
        }
    }

    private void flushRequests(long now) {
        NodeId x = flushing().orElseThrow();
        for (NodeId i : views.survivors()) {
            if (!views.reported().contains(i)) {
                out.accept(i, new ViewMessage.Flush(self, x));
            }
        }
        lastSent = now;
    }

    private void sendDecision(long now) {
        decision.report().keySet().forEach(i -> out.accept(i, decision));
        lastSent = now;
    }

    synchronized Set<NodeId> members() {
        return Set.copyOf(views.members());
    }

    /** The one node the running change removes (this runtime removes one at a time). */
    synchronized Optional<NodeId> flushing() {
        return views.flushing().isEmpty() ? Optional.empty() : Optional.of(views.flushing().first());
    }

    synchronized SeqSet agreedOf(NodeId x) {
        return views.agreedOf(x);
    }

    synchronized Set<NodeId> reported() {
        return Set.copyOf(views.reported());
    }
}
