package dev.onceproof.causal.runtime;

import dev.onceproof.causal.ConcurrentCausalNode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Outcome;
import dev.onceproof.causal.Outgoing;
import dev.onceproof.causal.SeqSet;
import dev.onceproof.causal.Step;
import dev.onceproof.causal.wire.ViewMessage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * A survivor's side of the view change over the network: it takes the spec's FlushReport,
 * DecideView, FlushForward and InstallView on its {@link ConcurrentCausalNode} (which logs them),
 * each exactly once per view change, whatever the network repeats or drops. Synchronized; its
 * lock is taken before the node's, never inside it.
 *
 * <p>Each step once, and repeats answered from what it did: a repeated {@link ViewMessage.Flush}
 * gets the same report again (the node froze the removed node's events when it first reported, so
 * a second report could only differ by events it must not deliver); a repeated
 * {@link ViewMessage.Decide} gets the same forwarded copies and {@link ViewMessage.Forwarded} again
 * (the same datagrams, which the spec's duplicating network already allows) and, once installed,
 * the {@link ViewMessage.Installed} again.
 *
 * <p>The install waits for every other survivor's Forwarded as well as for the agreed events:
 * then a survivor's FlushForward to this one always happens before this one's InstallView, as the
 * spec's FlushForward (only to a survivor that has not installed) and the merge of the logs
 * (validate's CausalMerge) have it. Without the wait a survivor that got the agreed events by
 * ordinary recovery could install, broadcast, and be forwarded to by a survivor that had already
 * received that broadcast: no order of the logs would then be a behaviour of the spec.
 */
final class ViewMember {

    private final NodeId self;
    private final NodeId coordinator;
    private final ConcurrentCausalNode node;
    private final BiConsumer<NodeId, ViewMessage> out;
    /** Sends a core step's datagrams (the forwarded copies). */
    private final Consumer<Step> send;
    /** The node this member reported on (the running or last view change); null before any. */
    private NodeId target;
    private SeqSet report;
    private ViewMessage.Decide decision;
    /** The forwarded copies this member sent at the decision, sent again on a repeated decision. */
    private final List<Outgoing> forwards = new ArrayList<>();
    /** The survivors whose Forwarded arrived for {@link #target}. */
    private final Set<NodeId> forwardedBy = new HashSet<>();
    private boolean installed;

    ViewMember(NodeId self, NodeId coordinator, ConcurrentCausalNode node, BiConsumer<NodeId, ViewMessage> out,
            Consumer<Step> send) {
        this.self = self;
        this.coordinator = coordinator;
        this.node = node;
        this.out = out;
        this.send = send;
    }

    /** A view-change message for a member; the reason it was refused, or null. */
    synchronized String receive(ViewMessage m) {
        if (m instanceof ViewMessage.Forwarded f) {
            if (f.target().equals(target) && !installed) {
                forwardedBy.add(f.from());
                tryInstall();
            }
            return null;
        }
        if (!m.from().equals(coordinator)) {
            return m.getClass().getSimpleName() + " from " + m.from() + ", who is not the coordinator " + coordinator;
        }
        if (m instanceof ViewMessage.Flush f) {
            return flush(f);
        }
        if (m instanceof ViewMessage.Decide d) {
            return decide(d);
        }
        return m.getClass().getSimpleName() + " is the coordinator's to receive, not " + self + "'s";
    }

    private String flush(ViewMessage.Flush f) {
        NodeId x = f.target();
        if (!x.equals(target)) {
            if (target != null && !installed) {
                return "flush on " + x + " while the removal of " + target + " runs (one view change at a time)";
            }
            if (x.equals(self) || x.index() >= node.state().vc().size() || !node.state().view().contains(x)) {
                return "flush on " + x + ", which is not another member of " + self + "'s view";
            }
            report = node.flushReport(x); // spec FlushReport(self): freezes x, once
            target = x;
            decision = null;
            forwards.clear();
            forwardedBy.clear();
            installed = false;
        } else if (installed) {
            return null; // a late repeat of a finished change
        }
        out.accept(coordinator, new ViewMessage.Report(self, x, report));
        return null;
    }

    private String decide(ViewMessage.Decide d) {
        NodeId x = d.target();
        if (!x.equals(target) || !d.report().containsKey(self)) {
            return "decision on " + x + ", on which " + self + " has not reported";
        }
        if (decision == null) {
            decision = d;
            send.accept(node.decideView(x, d.agreed())); // spec DecideView as this survivor learns it
            SeqSet mine = d.report().get(self);
            for (NodeId i : d.report().keySet()) {
                if (i.equals(self)) {
                    continue;
                }
                // Spec FlushForward(self, i): the agreed seqs this survivor reported and i did not.
                List<Long> seqs = new ArrayList<>();
                for (long s : d.report().get(i).missingFrom(mine)) {
                    if (d.agreed().contains(s)) {
                        seqs.add(s);
                    }
                }
                if (!seqs.isEmpty()) {
                    forwards.addAll(node.flushForward(x, i, seqs).sends());
                }
            }
        }
        if (installed) {
            out.accept(coordinator, new ViewMessage.Installed(self, x));
        }
        // The copies and the markers again, for a survivor that may have lost them.
        send.accept(new Step(Outcome.ACCEPTED, null, "", List.of(), forwards));
        for (NodeId i : d.report().keySet()) {
            if (!i.equals(self)) {
                out.accept(i, new ViewMessage.Forwarded(self, x));
            }
        }
        tryInstall();
        return null;
    }

    /** After any datagram or timer: install once the agreed events are here and every forward came. */
    synchronized void poll() {
        tryInstall();
    }

    private void tryInstall() {
        if (decision == null || installed || !forwardedBy.containsAll(others())) {
            return;
        }
        if (node.installView(target).outcome() == Outcome.ACCEPTED) { // spec InstallView(self)
            installed = true;
            out.accept(coordinator, new ViewMessage.Installed(self, target));
        }
    }

    private Set<NodeId> others() {
        Set<NodeId> s = new HashSet<>(decision.report().keySet());
        s.remove(self);
        return s;
    }

    /** Whether this member has reported on a view change (and froze its target). */
    synchronized boolean reported() {
        return target != null;
    }

    /** Whether a view change awaits this member's install (the runtime polls it after each datagram). */
    synchronized boolean pending() {
        return decision != null && !installed;
    }
}
