package dev.onceproof.exactlyonce;

import java.util.Collections;
import java.util.Map;
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
 *     Strategy 2's sequence number is {@code ctr mod W}). A lost ctr reuses ids (mutant M1-f)
 * @param removed Strategies 0-2: ids this server knows were delivered, sent in syncs (notes Z15)
 * @param round how many sync rounds this server has started; a reply names its round
 * @param issued Strategy 2: sequence number -> the round counter when its current incarnation was
 *     numbered; present iff the number has ever been used
 * @param conf Strategy 2: sequence number -> server -> the time its confirmation that it no longer
 *     holds the current incarnation arrived (3.2, Condition 1)
 * @param entered note in K -> its number in the order notes entered this server's K (1 for the
 *     first ever). Under atomic replication every server numbers the same notes alike, so a number
 *     names one incarnation of a note everywhere (see {@link S3Server} and {@link StreamServer})
 * @param seen how many notes have ever entered K: the last number given, the watermark that sync
 *     messages carry
 * @param numbers Strategy 3's acknowledged replication round ({@link S3Server}): note in K -> each
 *     server's number for it as far as this server knows (its own always); a note whose map names
 *     every server has completed its round and may be delivered. A note in K without an entry
 *     predates the round (a state saved before it) and counts as complete, numbered alike everywhere
 * @param origins the notes of K whose round is not complete here -> their origin (whom to
 *     acknowledge, or, at the origin, whose replicas to resend)
 * @param removedConf Strategy 0: id of {@code removed} -> server -> the time a sync message of that
 *     server first named the id removed since this server last forgot it (ExactlyOnceS0Msg's
 *     {@code conf[s][t]}, with the time the forget rule's T_e wait counts from). Its keys are ids
 *     of {@code removed}
 * @param issues Strategy 2: wire id -> the issue number (its origin's counter when numbered) of the
 *     incarnation this server knows of: the one in K, or the one its removal names
 *     ({@link ServerOp.SetIssue})
 */
public record ServerDurableState(SortedMap<NoteId, Note> k, SortedSet<NoteId> d, long ctr,
        SortedSet<NoteId> removed, long round, SortedMap<Long, Long> issued,
        SortedMap<Long, SortedMap<ServerId, Long>> conf, SortedMap<NoteId, Long> entered, long seen,
        SortedMap<NoteId, SortedMap<ServerId, Long>> numbers, SortedMap<NoteId, ServerId> origins,
        SortedMap<NoteId, SortedMap<ServerId, Long>> removedConf, SortedMap<NoteId, Long> issues)
        implements DurableState {

    /** A state without Strategy 2's issue numbers (every strategy but 2, and 2 before them). */
    public ServerDurableState(SortedMap<NoteId, Note> k, SortedSet<NoteId> d, long ctr, SortedSet<NoteId> removed,
            long round, SortedMap<Long, Long> issued, SortedMap<Long, SortedMap<ServerId, Long>> conf,
            SortedMap<NoteId, Long> entered, long seen, SortedMap<NoteId, SortedMap<ServerId, Long>> numbers,
            SortedMap<NoteId, ServerId> origins, SortedMap<NoteId, SortedMap<ServerId, Long>> removedConf) {
        this(k, d, ctr, removed, round, issued, conf, entered, seen, numbers, origins, removedConf, new TreeMap<>());
    }

    /** A state without Strategy 0's confirmations (every strategy but 0, and Strategy 0 before the forget rule). */
    public ServerDurableState(SortedMap<NoteId, Note> k, SortedSet<NoteId> d, long ctr, SortedSet<NoteId> removed,
            long round, SortedMap<Long, Long> issued, SortedMap<Long, SortedMap<ServerId, Long>> conf,
            SortedMap<NoteId, Long> entered, long seen, SortedMap<NoteId, SortedMap<ServerId, Long>> numbers,
            SortedMap<NoteId, ServerId> origins) {
        this(k, d, ctr, removed, round, issued, conf, entered, seen, numbers, origins, new TreeMap<>());
    }

    /** A state without a replication round in progress (Strategies 0-2, and Strategy 3 before it). */
    public ServerDurableState(SortedMap<NoteId, Note> k, SortedSet<NoteId> d, long ctr, SortedSet<NoteId> removed,
            long round, SortedMap<Long, Long> issued, SortedMap<Long, SortedMap<ServerId, Long>> conf,
            SortedMap<NoteId, Long> entered, long seen) {
        this(k, d, ctr, removed, round, issued, conf, entered, seen, new TreeMap<>(), new TreeMap<>());
    }

    public ServerDurableState {
        TreeMap<NoteId, SortedMap<ServerId, Long>> nums = new TreeMap<>();
        Objects.requireNonNull(numbers, "numbers").forEach((i, m) -> nums.put(i,
                Collections.unmodifiableSortedMap(new TreeMap<>(m))));
        numbers = Collections.unmodifiableSortedMap(nums);
        removedConf = copyNested(removedConf, "removedConf");
        issues = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(issues, "issues")));
        for (Map.Entry<NoteId, Long> e : issues.entrySet()) {
            if (e.getValue() == null || e.getValue() < 0) {
                throw new IllegalArgumentException("issue number " + e.getValue() + " of " + e.getKey()
                        + " must be >= 0");
            }
        }
        origins = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(origins, "origins")));
        entered = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(entered, "entered")));
        k = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(k, "k")));
        d = Collections.unmodifiableSortedSet(new TreeSet<>(Objects.requireNonNull(d, "d")));
        removed = Collections.unmodifiableSortedSet(new TreeSet<>(Objects.requireNonNull(removed, "removed")));
        issued = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(issued, "issued")));
        TreeMap<Long, SortedMap<ServerId, Long>> c = new TreeMap<>();
        Objects.requireNonNull(conf, "conf").forEach((s, m) -> c.put(s,
                Collections.unmodifiableSortedMap(new TreeMap<>(m))));
        conf = Collections.unmodifiableSortedMap(c);
        if (ctr < 0 || round < 0 || seen < 0) {
            throw new IllegalArgumentException("ctr " + ctr + ", round " + round + " and seen " + seen
                    + " must be >= 0");
        }
        for (Map.Entry<NoteId, Long> e : entered.entrySet()) {
            if (e.getValue() < 1 || e.getValue() > seen) {
                throw new IllegalArgumentException("entry number " + e.getValue() + " of note " + e.getKey()
                        + " is outside 1.." + seen);
            }
        }
        if (!k.keySet().containsAll(entered.keySet())) {
            throw new IllegalArgumentException("entry numbers only for notes in K: " + entered.keySet() + " not in "
                    + k.keySet());
        }
        if (!k.keySet().containsAll(d)) {
            throw new IllegalArgumentException("D must be a subset of K (App. A.4): " + d + " not in " + k.keySet());
        }
        if (!removed.containsAll(removedConf.keySet())) {
            throw new IllegalArgumentException("confirmations only for removed ids: " + removedConf.keySet()
                    + " not in " + removed);
        }
        if (!k.keySet().containsAll(numbers.keySet()) || !numbers.keySet().containsAll(origins.keySet())) {
            throw new IllegalArgumentException("round numbers only for notes in K, origins only for numbered notes: "
                    + numbers.keySet() + ", " + origins.keySet() + ", K " + k.keySet());
        }
    }

    private static SortedMap<NoteId, SortedMap<ServerId, Long>> copyNested(
            SortedMap<NoteId, SortedMap<ServerId, Long>> m, String name) {
        TreeMap<NoteId, SortedMap<ServerId, Long>> out = new TreeMap<>();
        Objects.requireNonNull(m, name).forEach((i, byServer) -> out.put(i,
                Collections.unmodifiableSortedMap(new TreeMap<>(byServer))));
        return Collections.unmodifiableSortedMap(out);
    }

    /** A state without entry numbers (the cores number its notes in id order when they load it). */
    public ServerDurableState(SortedMap<NoteId, Note> k, SortedSet<NoteId> d, long ctr, SortedSet<NoteId> removed,
            long round, SortedMap<Long, Long> issued, SortedMap<Long, SortedMap<ServerId, Long>> conf) {
        this(k, d, ctr, removed, round, issued, conf, new TreeMap<>(), 0);
    }

    /** A mutable copy of this state, to apply operations to (recovery: checkpoint plus journal). */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /**
     * The state under construction during recovery: the checkpoint copied once, each operation
     * applied at the cost of its change ({@link #apply}), then frozen once ({@link #freeze}), so
     * recovery costs O(checkpoint + operations), not O(state) per operation.
     */
    public static final class Builder {
        private final TreeMap<NoteId, Note> k;
        private final TreeSet<NoteId> d;
        private long ctr;
        private final TreeSet<NoteId> removed;
        private long round;
        private final TreeMap<Long, Long> issued;
        private final TreeMap<Long, SortedMap<ServerId, Long>> conf = new TreeMap<>();
        private final TreeMap<NoteId, Long> entered;
        private long seen;
        private final TreeMap<NoteId, SortedMap<ServerId, Long>> numbers = new TreeMap<>();
        private final TreeMap<NoteId, ServerId> origins;
        private final TreeMap<NoteId, SortedMap<ServerId, Long>> removedConf = new TreeMap<>();
        private final TreeMap<NoteId, Long> issues;

        private Builder(ServerDurableState s) {
            issues = new TreeMap<>(s.issues);
            k = new TreeMap<>(s.k);
            d = new TreeSet<>(s.d);
            ctr = s.ctr;
            removed = new TreeSet<>(s.removed);
            round = s.round;
            issued = new TreeMap<>(s.issued);
            s.conf.forEach((seq, m) -> conf.put(seq, new TreeMap<>(m)));
            entered = new TreeMap<>(s.entered);
            seen = s.seen;
            s.numbers.forEach((i, m) -> numbers.put(i, new TreeMap<>(m)));
            origins = new TreeMap<>(s.origins);
            s.removedConf.forEach((i, m) -> removedConf.put(i, new TreeMap<>(m)));
        }

        /** Applies one operation, as the core made it (see {@link ServerOp} for each one's meaning). */
        public Builder apply(ServerOp op) {
            if (op instanceof ServerOp.Enter e) {
                k.put(e.note().id(), e.note());
                entered.put(e.note().id(), e.number());
                seen = e.number();
            } else if (op instanceof ServerOp.Forget f) {
                k.remove(f.id());
                d.remove(f.id());
                entered.remove(f.id());
                numbers.remove(f.id());
                origins.remove(f.id());
            } else if (op instanceof ServerOp.AddD a) {
                d.add(a.id());
            } else if (op instanceof ServerOp.AddRemoved a) {
                removed.add(a.id());
            } else if (op instanceof ServerOp.DropRemoved r) {
                removed.remove(r.id());
                removedConf.remove(r.id());
            } else if (op instanceof ServerOp.ConfirmRemoved c) {
                removedConf.computeIfAbsent(c.id(), x -> new TreeMap<>()).putIfAbsent(c.by(), c.at());
            } else if (op instanceof ServerOp.SetIssue i) {
                issues.put(i.id(), i.issue());
            } else if (op instanceof ServerOp.SetCtr c) {
                ctr = c.ctr();
            } else if (op instanceof ServerOp.SetRound r) {
                round = r.round();
            } else if (op instanceof ServerOp.Issue i) {
                issued.put(i.seq(), i.round());
                conf.remove(i.seq());
            } else if (op instanceof ServerOp.Confirm c) {
                conf.computeIfAbsent(c.seq(), x -> new TreeMap<>()).putIfAbsent(c.by(), c.at());
            } else if (op instanceof ServerOp.SetNumbers n) {
                numbers.put(n.id(), new TreeMap<>(n.numbers()));
            } else if (op instanceof ServerOp.Number n) {
                numbers.computeIfAbsent(n.id(), x -> new TreeMap<>()).put(n.by(), n.number());
            } else if (op instanceof ServerOp.Origin o) {
                origins.put(o.id(), o.origin());
            } else if (op instanceof ServerOp.Complete c) {
                origins.remove(c.id());
            } else {
                throw new IllegalArgumentException("unknown server operation " + op);
            }
            return this;
        }

        /** The state reached; checks the invariants, so a journal that breaks them is refused here. */
        public ServerDurableState freeze() {
            return new ServerDurableState(k, d, ctr, removed, round, issued, conf, entered, seen, numbers, origins,
                    removedConf, issues);
        }
    }

    /** The state of a server that has never run. */
    public static ServerDurableState initial() {
        return new ServerDurableState(new TreeMap<>(), new TreeSet<>(), 0, new TreeSet<>(), 0, new TreeMap<>(),
                new TreeMap<>());
    }
}
