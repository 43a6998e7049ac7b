package dev.onceproof.causal.wire;

import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.SeqSet;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The view change's messages on the wire (specs/causal/CausalMembership.tla and, for a restart,
 * CausalMembershipRestart.tla). The spec reads the coordinator's variables directly; over UDP they
 * travel as these datagrams, each of which may be lost or duplicated, so every one is resent until
 * its answer arrives and every receiver takes a repeat as a repeat. Names are the spec's:
 * {@code targets} is {@code flushing} (a set: a restart removes the nodes of the interrupted change
 * and the newly suspected one together), a report's {@code seqs} is {@code report[from]} per target,
 * a decision's {@code agreed} is {@code agreed[x]} for each target x.
 */
public sealed interface ViewMessage {

    /** The node that sent this datagram. */
    NodeId from();

    /** The nodes the view change removes (the spec's {@code flushing}); never empty. */
    SortedSet<NodeId> targets();

    /** The one target of a change that removes one node (the common case, and every test's before restarts). */
    default NodeId target() {
        return targets().first();
    }

    /** The coordinator {@code from} asks a survivor for its FlushReport on {@code targets} (after Suspect). */
    record Flush(NodeId from, SortedSet<NodeId> targets) implements ViewMessage {
        public Flush {
            Objects.requireNonNull(from, "from");
            targets = targetSet(targets);
        }

        public Flush(NodeId from, NodeId target) {
            this(from, one(target));
        }
    }

    /** Spec FlushReport(from): per target, the seqs of its events {@code from} had delivered when it froze them. */
    record Report(NodeId from, SortedMap<NodeId, SeqSet> seqs) implements ViewMessage {
        public Report {
            Objects.requireNonNull(from, "from");
            seqs = seqMap(seqs, "report");
        }

        public Report(NodeId from, NodeId target, SeqSet seqs) {
            this(from, new TreeMap<>(Map.of(target, Objects.requireNonNull(seqs, "seqs"))));
        }

        @Override
        public SortedSet<NodeId> targets() {
            return Collections.unmodifiableSortedSet(new TreeSet<>(seqs.keySet()));
        }
    }

    /**
     * Spec DecideView, told to a survivor: {@code agreed} per target (the union of the reports) and
     * every survivor's report, from which each survivor works out its FlushForward to each other one
     * (the agreed seqs it reported and the other did not). The survivors are the report's keys; each
     * report covers exactly the targets.
     */
    record Decide(NodeId from, SortedMap<NodeId, SeqSet> agreed, SortedMap<NodeId, SortedMap<NodeId, SeqSet>> report)
            implements ViewMessage {
        public Decide {
            Objects.requireNonNull(from, "from");
            agreed = seqMap(agreed, "agreed");
            TreeMap<NodeId, SortedMap<NodeId, SeqSet>> r = new TreeMap<>();
            for (Map.Entry<NodeId, ? extends SortedMap<NodeId, SeqSet>> e : report.entrySet()) {
                SortedMap<NodeId, SeqSet> one = seqMap(e.getValue(), "report of " + e.getKey());
                if (!one.keySet().equals(agreed.keySet())) {
                    throw new IllegalArgumentException("report of " + e.getKey() + " covers " + one.keySet()
                            + ", the decision removes " + agreed.keySet());
                }
                r.put(e.getKey(), one);
            }
            report = Collections.unmodifiableSortedMap(r);
        }

        /** A decision removing one node: {@code report} maps each survivor to its seqs of {@code target}. */
        public Decide(NodeId from, NodeId target, SeqSet agreed, SortedMap<NodeId, SeqSet> report) {
            this(from, new TreeMap<>(Map.of(target, agreed)), single(target, report));
        }

        @Override
        public SortedSet<NodeId> targets() {
            return Collections.unmodifiableSortedSet(new TreeSet<>(agreed.keySet()));
        }

        private static SortedMap<NodeId, SortedMap<NodeId, SeqSet>> single(NodeId target, SortedMap<NodeId, SeqSet> report) {
            TreeMap<NodeId, SortedMap<NodeId, SeqSet>> r = new TreeMap<>();
            report.forEach((i, s) -> r.put(i, new TreeMap<>(Map.of(target, s))));
            return r;
        }
    }

    /**
     * {@code from} has sent the receiver its FlushForward of the targets' events (JGroups'
     * FLUSH_COMPLETED). A survivor installs only once every other survivor told it so: a forward
     * then always comes before its receiver's InstallView, as the spec's FlushForward requires
     * (it forwards only to a survivor that has not installed).
     */
    record Forwarded(NodeId from, SortedSet<NodeId> targets) implements ViewMessage {
        public Forwarded {
            Objects.requireNonNull(from, "from");
            targets = targetSet(targets);
        }

        public Forwarded(NodeId from, NodeId target) {
            this(from, one(target));
        }
    }

    /**
     * Spec InstallView(from), told to the coordinator, which ends the view change at the last one.
     * Resent until the coordinator answers {@link Ended}.
     */
    record Installed(NodeId from, SortedSet<NodeId> targets) implements ViewMessage {
        public Installed {
            Objects.requireNonNull(from, "from");
            targets = targetSet(targets);
        }

        public Installed(NodeId from, NodeId target) {
            this(from, one(target));
        }
    }

    /**
     * The coordinator's answer to an {@link Installed}: every survivor installed, the change removing
     * {@code targets} is over (the spec's last InstallView clears {@code flushing}). A survivor that
     * takes over as coordinator before it heard this flushes the change's nodes again with the new
     * suspect, as the spec does for a restart before the last install.
     */
    record Ended(NodeId from, SortedSet<NodeId> targets) implements ViewMessage {
        public Ended {
            Objects.requireNonNull(from, "from");
            targets = targetSet(targets);
        }
    }

    // The join under a new id over the network (specs/causal/CausalJoin.tla, Join and InstallJoin).
    // Each names the joiner; its targets are the joiner alone. The donor is the coordinator.

    /**
     * The joiner (a process of a spare id) asks the coordinator, its donor, for the state, or for the
     * chunks of it from {@code next} on (the first it lacks). Resent every retry until it has them all.
     */
    record JoinAsk(NodeId from, int next) implements ViewMessage {
        public JoinAsk {
            Objects.requireNonNull(from, "from");
            if (next < 0) {
                throw new IllegalArgumentException("join ask of " + from + ": next chunk " + next + " is negative");
            }
        }

        @Override
        public SortedSet<NodeId> targets() {
            return one(from);
        }
    }

    /** Chunk {@code index} of {@code total} of the donor's encoded {@code JoinState} for {@code joiner}. */
    record JoinChunk(NodeId from, NodeId joiner, int index, int total, byte[] bytes) implements ViewMessage {
        public JoinChunk {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(joiner, "joiner");
            if (total < 1 || index < 0 || index >= total) {
                throw new IllegalArgumentException("join chunk " + index + " of " + total + " for " + joiner
                        + ": needs 0 <= index < total");
            }
            bytes = bytes.clone();
        }

        @Override
        public SortedSet<NodeId> targets() {
            return one(joiner);
        }
    }

    /** The coordinator refuses {@code joiner}'s join for good (a removed id is never admitted), saying why. */
    record JoinRefused(NodeId from, NodeId joiner, String reason) implements ViewMessage {
        public JoinRefused {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(joiner, "joiner");
            Objects.requireNonNull(reason, "reason");
        }

        @Override
        public SortedSet<NodeId> targets() {
            return one(joiner);
        }
    }

    /**
     * The coordinator, who was the donor, tells a member to take InstallJoin(self, joiner) with the
     * handed prefix {@code start}; resent every retry until the member's {@link JoinInstalled}.
     */
    record JoinInstall(NodeId from, NodeId joiner, dev.onceproof.causal.VectorClock start) implements ViewMessage {
        public JoinInstall {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(joiner, "joiner");
            Objects.requireNonNull(start, "start");
        }

        @Override
        public SortedSet<NodeId> targets() {
            return one(joiner);
        }
    }

    /** A member took InstallJoin of {@code joiner} (or had already): told to the coordinator. */
    record JoinInstalled(NodeId from, NodeId joiner) implements ViewMessage {
        public JoinInstalled {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(joiner, "joiner");
        }

        @Override
        public SortedSet<NodeId> targets() {
            return one(joiner);
        }
    }

    private static SortedSet<NodeId> targetSet(SortedSet<NodeId> targets) {
        if (targets.isEmpty()) {
            throw new IllegalArgumentException("a view-change message removes at least one node");
        }
        return Collections.unmodifiableSortedSet(new TreeSet<>(targets));
    }

    private static SortedMap<NodeId, SeqSet> seqMap(Map<NodeId, SeqSet> seqs, String what) {
        if (seqs.isEmpty()) {
            throw new IllegalArgumentException(what + " covers no node");
        }
        TreeMap<NodeId, SeqSet> m = new TreeMap<>();
        seqs.forEach((x, s) -> m.put(Objects.requireNonNull(x, what + " target"), Objects.requireNonNull(s, what + " seqs")));
        return Collections.unmodifiableSortedMap(m);
    }

    private static SortedSet<NodeId> one(NodeId target) {
        TreeSet<NodeId> s = new TreeSet<>();
        s.add(Objects.requireNonNull(target, "target"));
        return s;
    }
}
