package dev.onceproof.causal.wire;

import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.SeqSet;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The view change's messages on the wire (specs/causal/CausalMembership.tla). The spec reads the
 * coordinator's variables directly; over UDP they travel as these datagrams, each of which may be
 * lost or duplicated, so every one is resent until its answer arrives and every receiver takes a
 * repeat as a repeat. Names are the spec's: {@code target} is {@code flushing}, a report's
 * {@code seqs} is {@code report[from]}, a decision's {@code agreed} is {@code agreed[target]}.
 */
public sealed interface ViewMessage {

    /** The node that sent this datagram. */
    NodeId from();

    /** The node the view change removes. */
    NodeId target();

    /** The coordinator {@code from} asks a survivor for its FlushReport on {@code target} (after Suspect). */
    record Flush(NodeId from, NodeId target) implements ViewMessage {
        public Flush {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(target, "target");
        }
    }

    /** Spec FlushReport(from): the seqs of {@code target}'s events {@code from} had delivered when it froze them. */
    record Report(NodeId from, NodeId target, SeqSet seqs) implements ViewMessage {
        public Report {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(seqs, "seqs");
        }
    }

    /**
     * Spec DecideView, told to a survivor: {@code agreed} (the union of the reports) and every
     * survivor's report, from which each survivor works out its FlushForward to each other one
     * (the agreed seqs it reported and the other did not). The survivors are the report's keys.
     */
    record Decide(NodeId from, NodeId target, SeqSet agreed, SortedMap<NodeId, SeqSet> report) implements ViewMessage {
        public Decide {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(agreed, "agreed");
            report = Collections.unmodifiableSortedMap(new TreeMap<>(report));
        }
    }

    /**
     * {@code from} has sent the receiver its FlushForward of {@code target}'s events (JGroups'
     * FLUSH_COMPLETED). A survivor installs only once every other survivor told it so: a forward
     * then always comes before its receiver's InstallView, as the spec's FlushForward requires
     * (it forwards only to a survivor that has not installed).
     */
    record Forwarded(NodeId from, NodeId target) implements ViewMessage {
        public Forwarded {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(target, "target");
        }
    }

    /** Spec InstallView(from), told to the coordinator, which ends the view change at the last one. */
    record Installed(NodeId from, NodeId target) implements ViewMessage {
        public Installed {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(target, "target");
        }
    }
}
