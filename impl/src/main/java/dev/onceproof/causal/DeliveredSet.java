package dev.onceproof.causal;

import java.util.TreeSet;

/**
 * Which events of one origin a node has delivered: every seq up to {@code prefix}, plus, in the
 * unordered mode only, seqs above it delivered out of order. Invariant: no element of
 * {@code above} is &le; prefix + 1 (the prefix absorbs them as soon as they join it).
 */
final class DeliveredSet {

    private long prefix;
    private final TreeSet<Long> above = new TreeSet<>();

    long prefix() {
        return prefix;
    }

    /** A joiner's start (spec Join): seqs 1..p count as delivered; nothing was delivered here before. */
    void startAt(long p) {
        if (prefix != 0 || !above.isEmpty()) {
            throw new IllegalStateException("a joiner starts from the handed prefix only before any delivery, has "
                    + prefix);
        }
        prefix = p;
    }

    boolean contains(long seq) {
        return seq <= prefix || above.contains(seq);
    }

    void add(long seq) {
        if (seq == prefix + 1) {
            prefix = seq;
            while (!above.isEmpty() && above.first() == prefix + 1) {
                prefix = above.pollFirst();
            }
        } else if (seq > prefix) {
            above.add(seq);
        }
    }

    Iterable<Long> above() {
        return above;
    }
}
