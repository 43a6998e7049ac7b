package dev.onceproof.exactlyonce;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a server keeps on stable storage for one client (notes Z13: K, D, counters and
 * confirmations survive a crash; sessions and sync rounds in progress do not).
 *
 * @param k the notes not yet purged, by id (App. A: list K)
 * @param d Strategy 3: the ids in K known to be delivered (App. A.4: D, a subset of K)
 * @param ctr Strategies 0-2: how many notes this server has numbered for the client (never wraps;
 *     Strategy 2's sequence number is {@code ctr mod W}). A lost ctr reuses ids (mutant M1-f).
 *     Strategy 3: how many notes have ever entered this server's K (the watermark its sync
 *     messages carry, see {@link S3Server})
 * @param removed Strategies 0-2: ids this server knows were delivered, sent in syncs (notes Z15)
 * @param round how many sync rounds this server has started; a reply names its round
 * @param issued Strategy 2: sequence number -> the round counter when its current incarnation was
 *     numbered; present iff the number has ever been used
 * @param conf Strategy 2: sequence number -> server -> the time its confirmation that it no longer
 *     holds the current incarnation arrived (3.2, Condition 1)
 * @param entered Strategy 3: note in K -> its number in the order notes entered K (1 for the first
 *     ever; {@code ctr} is the last). Empty for Strategies 0-2
 */
public record ServerDurableState(SortedMap<NoteId, Note> k, SortedSet<NoteId> d, long ctr,
        SortedSet<NoteId> removed, long round, SortedMap<Long, Long> issued,
        SortedMap<Long, SortedMap<ServerId, Long>> conf, SortedMap<NoteId, Long> entered) {

    public ServerDurableState {
        entered = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(entered, "entered")));
        k = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(k, "k")));
        d = Collections.unmodifiableSortedSet(new TreeSet<>(Objects.requireNonNull(d, "d")));
        removed = Collections.unmodifiableSortedSet(new TreeSet<>(Objects.requireNonNull(removed, "removed")));
        issued = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(issued, "issued")));
        TreeMap<Long, SortedMap<ServerId, Long>> c = new TreeMap<>();
        Objects.requireNonNull(conf, "conf").forEach((s, m) -> c.put(s,
                Collections.unmodifiableSortedMap(new TreeMap<>(m))));
        conf = Collections.unmodifiableSortedMap(c);
        if (ctr < 0 || round < 0) {
            throw new IllegalArgumentException("ctr " + ctr + " and round " + round + " must be >= 0");
        }
        if (!k.keySet().containsAll(entered.keySet())) {
            throw new IllegalArgumentException("entry numbers only for notes in K: " + entered.keySet() + " not in "
                    + k.keySet());
        }
        if (!k.keySet().containsAll(d)) {
            throw new IllegalArgumentException("D must be a subset of K (App. A.4): " + d + " not in " + k.keySet());
        }
    }

    /** A state without Strategy 3's entry numbers (Strategies 0-2, and stores written before them). */
    public ServerDurableState(SortedMap<NoteId, Note> k, SortedSet<NoteId> d, long ctr, SortedSet<NoteId> removed,
            long round, SortedMap<Long, Long> issued, SortedMap<Long, SortedMap<ServerId, Long>> conf) {
        this(k, d, ctr, removed, round, issued, conf, new TreeMap<>());
    }

    /** The state of a server that has never run. */
    public static ServerDurableState initial() {
        return new ServerDurableState(new TreeMap<>(), new TreeSet<>(), 0, new TreeSet<>(), 0, new TreeMap<>(),
                new TreeMap<>());
    }
}
