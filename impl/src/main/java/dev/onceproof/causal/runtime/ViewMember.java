package dev.onceproof.causal.runtime;

import dev.onceproof.causal.ConcurrentCausalNode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Outcome;
import dev.onceproof.causal.Outgoing;
import dev.onceproof.causal.SeqSet;
import dev.onceproof.causal.Step;
import dev.onceproof.causal.wire.ViewMessage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A survivor's side of the view change over the network: it takes the spec's FlushReport,
 * DecideView, FlushForward and InstallView on its {@link ConcurrentCausalNode} (which logs them),
 * each once per round, whatever the network repeats or drops. Synchronized; its lock is taken
 * before the node's, never inside it.
 *
 * <p>A round is a coordinator and the set of nodes it removes (specs/causal/CausalMembershipRestart.tla).
 * A {@link ViewMessage.Flush} is taken from the first survivor in ring order of this member's view
 * without its targets (the spec's Coord), and only if its targets include those of a change this
 * member has not installed: a restart removes the interrupted change's nodes with the new suspect,
 * so the new round's flush is for a larger set, and the member reports again on all of them
 * (its core's freeze keeps what it froze; from this report on it delivers none of them until the
 * new decision: the spec's awaiting). A flush that leaves out a change this member has not
 * installed comes from a coordinator that missed it (its flush request was lost before the old
 * coordinator died): it is refused and answered with this member's report on its change, from
 * which the coordinator restarts for the union.
 *
 * <p>Each step once per round, and repeats answered from what it did: a repeated Flush gets the
 * same report again; a repeated {@link ViewMessage.Decide} gets the same forwarded copies and
 * {@link ViewMessage.Forwarded} again and, once installed, the {@link ViewMessage.Installed} again.
 * Installed is also resent every {@code retry} until the coordinator answers {@link
 * ViewMessage.Ended}: until then a survivor that takes over flushes this change's nodes again.
 *
 * <p>The install waits for every other survivor's Forwarded as well as for the agreed events:
 * then a survivor's FlushForward to this one always happens before this one's InstallView, as the
 * spec's FlushForward (only to a survivor that has not installed) and the merge of the logs
 * (validate's CausalMerge) have it.
 */
final class ViewMember {

    private final NodeId self;
    private final Ring ring;
    private final ConcurrentCausalNode node;
    private final BiConsumer<NodeId, ViewMessage> out;
    /** Sends a core step's datagrams (the forwarded copies). */
    private final Consumer<Step> send;
    private final long retry;
    /** This member's installed view, as its core has it (kept here so the detector need not snapshot the core). */
    private final TreeSet<NodeId> view = new TreeSet<>();
    /** The coordinator of the round this member reported to; the configured first one before any. */
    private NodeId coordinator;
    /** The nodes of the running or last round; empty before any. */
    private SortedSet<NodeId> targets = Collections.emptySortedSet();
    private SortedMap<NodeId, SeqSet> report;
    private ViewMessage.Decide decision;
    /** The forwarded copies this member sent at the decision, sent again on a repeated decision. */
    private final List<Outgoing> forwards = new ArrayList<>();
    /** The survivors whose Forwarded arrived for {@link #targets}. */
    private final Set<NodeId> forwardedBy = new HashSet<>();
    private boolean installed;
    /** The coordinator said every survivor installed {@link #targets}. */
    private boolean ended;
    private long installedSent;

    ViewMember(NodeId self, int n, Ring ring, ConcurrentCausalNode node, BiConsumer<NodeId, ViewMessage> out,
            Consumer<Step> send, long retry) {
        this.self = self;
        this.ring = ring;
        this.coordinator = ring.first();
        this.node = node;
        this.out = out;
        this.send = send;
        this.retry = retry;
        for (int k = 0; k < n; k++) {
            view.add(NodeId.of(k));
        }
    }

    /** A view-change message for a member; the reason it was refused, or null. */
    synchronized String receive(ViewMessage m, long now) {
        if (m instanceof ViewMessage.Forwarded f) {
            if (f.targets().equals(targets) && !installed) {
                forwardedBy.add(f.from());
                tryInstall(now);
            }
            return null;
        }
        if (m instanceof ViewMessage.Ended e) {
            ended |= e.targets().equals(targets) && installed && e.from().equals(coordinator);
            return null;
        }
        if (m instanceof ViewMessage.JoinInstall j) {
            return installJoin(j);
        }
        if (m instanceof ViewMessage.Flush f) {
            return flush(f, now);
        }
        if (m instanceof ViewMessage.Decide d) {
            return decide(d, now);
        }
        return m.getClass().getSimpleName() + " is the coordinator's to receive, not " + self + "'s";
    }

    private String flush(ViewMessage.Flush f, long now) {
        SortedSet<NodeId> xs = f.targets();
        TreeSet<NodeId> survivors = new TreeSet<>(view);
        survivors.removeAll(xs);
        NodeId coord = ring.firstOf(survivors);
        if (!f.from().equals(coord)) {
            return "flush on " + xs + " from " + f.from() + ", who is not the first survivor " + coord + " of "
                    + self + "'s view " + view;
        }
        if (!xs.equals(targets) || !f.from().equals(coordinator)) {
            if (!targets.isEmpty() && !installed && !xs.containsAll(targets)) {
                // A coordinator that took over without hearing of this change: the report on it
                // makes the coordinator restart for the union (ViewCoordinator.receive).
                out.accept(f.from(), new ViewMessage.Report(self, report));
                return "flush on " + xs + " while the removal of " + targets + " runs: a restart removes a larger set";
            }
            if (xs.contains(self) || Collections.disjoint(xs, view)) {
                return "flush on " + xs + ", which is not a set of other members of " + self + "'s view " + view;
            }
            report = node.flushReport(xs); // spec FlushReport(self): freezes xs (again, after a restart)
            targets = xs;
            coordinator = f.from();
            decision = null;
            forwards.clear();
            forwardedBy.clear();
            installed = false;
            ended = false;
        } else if (installed) {
            return null; // a late repeat of a finished round
        }
        out.accept(coordinator, new ViewMessage.Report(self, report));
        return null;
    }

    private String decide(ViewMessage.Decide d, long now) {
        if (!d.from().equals(coordinator) || !d.targets().equals(targets) || !d.report().containsKey(self)) {
            return "decision on " + d.targets() + " from " + d.from() + ", which is not the round " + targets + " of "
                    + coordinator + " on which " + self + " reported";
        }
        if (decision == null) {
            decision = d;
            for (Map.Entry<NodeId, SeqSet> a : d.agreed().entrySet()) {
                // Spec DecideView as this survivor learns it (taken again after a restart).
                send.accept(node.decideView(a.getKey(), a.getValue()));
            }
            SortedMap<NodeId, SeqSet> mine = d.report().get(self);
            for (NodeId i : d.report().keySet()) {
                if (i.equals(self)) {
                    continue;
                }
                for (NodeId x : targets) {
                    // Spec FlushForward(self, i): the agreed seqs of x this survivor reported and i did not.
                    List<Long> seqs = new ArrayList<>();
                    for (long s : d.report().get(i).get(x).missingFrom(mine.get(x))) {
                        if (d.agreed().get(x).contains(s)) {
                            seqs.add(s);
                        }
                    }
                    if (!seqs.isEmpty()) {
                        forwards.addAll(node.flushForward(x, i, seqs).sends());
                    }
                }
            }
        }
        if (installed) {
            sendInstalled(now);
        }
        // The copies and the markers again, for a survivor that may have lost them.
        send.accept(new Step(Outcome.ACCEPTED, null, "", List.of(), forwards));
        for (NodeId i : d.report().keySet()) {
            if (!i.equals(self)) {
                out.accept(i, new ViewMessage.Forwarded(self, targets));
            }
        }
        tryInstall(now);
        return null;
    }

    /**
     * Spec InstallJoin(self, j), from the coordinator that was j's donor: j's events, refused as
     * excluded until now, are taken from here on and j's row counts from the handed prefix. Once;
     * a repeat (the coordinator lost the answer) is answered again.
     */
    private String installJoin(ViewMessage.JoinInstall m) {
        if (!m.from().equals(coordinator) || !view.contains(m.from())) {
            return "join install of " + m.joiner() + " from " + m.from() + ", who is not " + self
                    + "'s coordinator " + coordinator;
        }
        if (!view.contains(m.joiner())) {
            if (!installed && !targets.isEmpty()) {
                return "join install of " + m.joiner() + " while the change on " + targets + " runs at " + self;
            }
            Step s = node.installJoin(m.joiner(), m.from(), m.start());
            if (s.outcome() != Outcome.ACCEPTED) {
                return "join install of " + m.joiner() + " refused by " + self + "'s core: " + s.outcome();
            }
            view.add(m.joiner());
        }
        out.accept(m.from(), new ViewMessage.JoinInstalled(self, m.joiner()));
        return null;
    }

    /** Spec Spare: j is out of this member's view until it joins. */
    synchronized void spare(NodeId j) {
        view.remove(j);
    }

    /** The donor's own install of j (its core took it with the snapshot, spec Join). */
    synchronized void joined(NodeId j) {
        view.add(j);
    }

    /** The joiner's view: the donor's with itself; the donor coordinates for it. */
    synchronized void startFrom(java.util.Collection<NodeId> donorView, NodeId donor) {
        view.clear();
        view.addAll(donorView);
        coordinator = donor;
    }

    /** After any datagram or timer: install once the agreed events are here and every forward came; resend Installed. */
    synchronized void poll(long now) {
        tryInstall(now);
        if (installed && !ended && now - installedSent >= retry) {
            sendInstalled(now);
        }
    }

    private void tryInstall(long now) {
        if (decision == null || installed || !forwardedBy.containsAll(others())) {
            return;
        }
        Step s = node.installView(targets); // spec InstallView(self)
        if (s.outcome() == Outcome.ACCEPTED) {
            installed = true;
            view.removeAll(targets);
            sendInstalled(now);
        }
    }

    private void sendInstalled(long now) {
        out.accept(coordinator, new ViewMessage.Installed(self, targets));
        installedSent = now;
    }

    private Set<NodeId> others() {
        Set<NodeId> s = new HashSet<>(decision.report().keySet());
        s.remove(self);
        return s;
    }

    /** The nodes of the round this member last reported on (empty before any). */
    synchronized SortedSet<NodeId> targets() {
        return targets;
    }

    /** Whether this member has reported on a view change (and froze its targets). */
    synchronized boolean reported() {
        return !targets.isEmpty();
    }

    /** Whether a view change awaits this member's install (the runtime polls it after each datagram). */
    synchronized boolean pending() {
        return decision != null && !installed || installed && !ended;
    }

    /** This member's installed view. */
    synchronized SortedSet<NodeId> view() {
        return Collections.unmodifiableSortedSet(new TreeSet<>(view));
    }

    /**
     * The nodes a survivor taking over must flush again: the last round's, unless this member knows
     * it ended (every survivor installed); empty if none.
     */
    synchronized SortedSet<NodeId> unfinished() {
        return ended ? Collections.emptySortedSet() : targets;
    }

    /** The coordinator of the round this member last reported to (the configured first one before any). */
    synchronized NodeId coordinator() {
        return coordinator;
    }
}
