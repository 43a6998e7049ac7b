package dev.onceproof.causal;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A set of one origin's seqs as the view change carries it (specs/causal/CausalMembership.tla:
 * {@code report[i]}, {@code agreed[x]}): every seq up to {@code prefix}, plus the seqs in
 * {@code above} (only the unordered mode delivers above the prefix). Kept as a prefix so that a
 * report stays small however many events the removed node issued.
 *
 * <p>A final class with record-style accessors rather than a record, as {@link CausalConfig}: the
 * node holds one per removed node, and Lincheck 2.39 cannot walk a record in the object graph it
 * transforms (lincheck#402: "can't get base address on a record class", met by the membership
 * Lincheck test).
 */
public final class SeqSet {

    public static final SeqSet EMPTY = new SeqSet(0, new TreeSet<>());

    /** Every seq 1..prefix is in the set. */
    private final long prefix;
    /** Seqs above prefix + 1 in the set; none is &le; prefix + 1. Unmodifiable. */
    private final SortedSet<Long> above;

    public SeqSet(long prefix, SortedSet<Long> above) {
        if (prefix < 0) {
            throw new IllegalArgumentException("seq set prefix " + prefix + " is negative");
        }
        Objects.requireNonNull(above, "above");
        for (long s : above) {
            if (s <= prefix + 1) {
                throw new IllegalArgumentException("seq " + s + " above the prefix " + prefix
                        + " must be above prefix + 1 (it would join the prefix)");
            }
        }
        this.prefix = prefix;
        this.above = Collections.unmodifiableSortedSet(new TreeSet<>(above));
    }

    public long prefix() {
        return prefix;
    }

    public SortedSet<Long> above() {
        return above;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SeqSet other && prefix == other.prefix && above.equals(other.above);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(prefix) * 31 + above.hashCode();
    }

    @Override
    public String toString() {
        return "SeqSet[prefix=" + prefix + ", above=" + above + "]";
    }

    public boolean contains(long seq) {
        return seq >= 1 && (seq <= prefix || above.contains(seq));
    }

    /** Every seq of this set is in {@code other}. */
    public boolean subsetOf(SeqSet other) {
        if (prefix > other.prefix) {
            for (long s = other.prefix + 1; s <= prefix; s++) {
                if (!other.above.contains(s)) {
                    return false;
                }
            }
        }
        return above.stream().allMatch(other::contains);
    }

    /** The union: the coordinator's decision over the survivors' reports (the spec's UNION). */
    public SeqSet union(SeqSet other) {
        long p = Math.max(prefix, other.prefix);
        TreeSet<Long> a = new TreeSet<>(above);
        a.addAll(other.above);
        a.headSet(p, true).clear();
        while (!a.isEmpty() && a.first() == p + 1) {
            p = a.pollFirst();
        }
        return new SeqSet(p, a);
    }

    /** The seqs in {@code from} that are not in this set, ascending (what a forward must carry). */
    public SortedSet<Long> missingFrom(SeqSet from) {
        TreeSet<Long> out = new TreeSet<>();
        for (long s = prefix + 1; s <= from.prefix; s++) {
            if (!contains(s)) {
                out.add(s);
            }
        }
        for (long s : from.above) {
            if (!contains(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /** Every seq, ascending (for the spec's set of seqs; small in the models). */
    public SortedSet<Long> seqs() {
        TreeSet<Long> out = new TreeSet<>(above);
        for (long s = 1; s <= prefix; s++) {
            out.add(s);
        }
        return out;
    }

    static SeqSet of(DeliveredSet d) {
        TreeSet<Long> above = new TreeSet<>();
        d.above().forEach(above::add);
        return new SeqSet(d.prefix(), above);
    }
}
