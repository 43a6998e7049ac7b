package dev.onceproof.causal;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A missing event's recovery state as the spec has it: {@code [phase, holders, asked]}.
 *
 * @param asked the node asked last, null while waiting (the spec's {@code ""})
 */
public record MissingState(Phase phase, SortedSet<NodeId> holders, NodeId asked) {

    public MissingState {
        Objects.requireNonNull(phase, "phase");
        holders = Collections.unmodifiableSortedSet(new TreeSet<>(holders));
    }
}
