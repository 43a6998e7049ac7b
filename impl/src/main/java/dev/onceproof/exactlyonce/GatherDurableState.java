package dev.onceproof.exactlyonce;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a Strategy 4-6 server keeps on stable storage for one client (notes Z13): K, D, TS, the
 * session counter and the aDeliver log. Sessions, gathers in progress and what peers last reported
 * are volatile.
 *
 * <p><b>The aDeliver log is the commit point</b> (L193 "the return value of aDeliver(T, m) is always
 * logged in permanent storage"; notes Z9). An attempt is logged ({@link Attempt#ok()} false) before
 * the runtime calls aDeliver, and its success is logged with the note added to D in the same write;
 * so D always contains every note whose aDeliver succeeded here (checked below), and a crash at
 * any point leaves either an unresolved attempt, which blocks delivery until its outcome is read
 * from the primitive's log, or the success together with D. An error removes the attempt
 * (L191: after an error the note may be tried again).
 *
 * @param k the notes not yet purged, by id
 * @param d the ids in K known delivered (here or, by gathers and syncs, elsewhere)
 * @param ts Strategies 5-6: peer -> the send time of the freshest sync or D reply received from it
 *     (L229; Z11); absent: never heard from
 * @param sessions how many sessions this server has started for the client (session ids 1, 2, ...)
 * @param log the aDeliver log: note -> the attempt made here, for notes still in K
 * @param entered note in K -> its number in the order notes entered this server's K (1 for the
 *     first ever). Under atomic replication (notes Z1) every server numbers the same notes alike,
 *     so a number names one note everywhere (see {@link GatherServer#recvPurgeSync})
 * @param seen how many notes have ever entered K here: the last number given, the watermark that
 *     sync messages carry; never decreases
 * @param numbers the acknowledged replication round ({@link GatherServer}): note in K -> each
 *     server's number for it as far as this server knows (its own always); absent: the note
 *     predates the round (taken as complete, numbered alike everywhere)
 * @param origins the notes of K whose round is not complete here -> their origin: such a note is
 *     never delivered here, and its replica (at the origin) or ack (elsewhere) is resent
 */
public record GatherDurableState(SortedMap<NoteId, Note> k, SortedSet<NoteId> d, SortedMap<ServerId, Long> ts,
        long sessions, SortedMap<NoteId, Attempt> log, SortedMap<NoteId, Long> entered, long seen,
        SortedMap<NoteId, SortedMap<ServerId, Long>> numbers, SortedMap<NoteId, ServerId> origins)
        implements DurableState {

    /** A state without entry numbers (the core numbers its notes in id order when it loads it). */
    public GatherDurableState(SortedMap<NoteId, Note> k, SortedSet<NoteId> d, SortedMap<ServerId, Long> ts,
            long sessions, SortedMap<NoteId, Attempt> log) {
        this(k, d, ts, sessions, log, new TreeMap<>(), 0);
    }

    /** A state from before the replication round (EGS2): every note counts as complete. */
    public GatherDurableState(SortedMap<NoteId, Note> k, SortedSet<NoteId> d, SortedMap<ServerId, Long> ts,
            long sessions, SortedMap<NoteId, Attempt> log, SortedMap<NoteId, Long> entered, long seen) {
        this(k, d, ts, sessions, log, entered, seen, new TreeMap<>(), new TreeMap<>());
    }

    /** One aDeliver call of session {@code session}: its outcome is success when {@code ok}, else unknown. */
    public record Attempt(long session, boolean ok) {
        public Attempt {
            if (session < 1) {
                throw new IllegalArgumentException("aDeliver attempt of session " + session + ", below 1");
            }
        }
    }

    public GatherDurableState {
        k = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(k, "k")));
        d = Collections.unmodifiableSortedSet(new TreeSet<>(Objects.requireNonNull(d, "d")));
        ts = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(ts, "ts")));
        log = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(log, "log")));
        entered = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(entered, "entered")));
        TreeMap<NoteId, SortedMap<ServerId, Long>> nums = new TreeMap<>();
        Objects.requireNonNull(numbers, "numbers").forEach((i, m) -> nums.put(i,
                Collections.unmodifiableSortedMap(new TreeMap<>(m))));
        numbers = Collections.unmodifiableSortedMap(nums);
        origins = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(origins, "origins")));
        if (!k.keySet().containsAll(numbers.keySet()) || !numbers.keySet().containsAll(origins.keySet())) {
            throw new IllegalArgumentException("round numbers only for notes in K, origins only for numbered notes: "
                    + numbers.keySet() + ", " + origins.keySet() + ", K " + k.keySet());
        }
        if (seen < 0) {
            throw new IllegalArgumentException("watermark seen " + seen + " is negative");
        }
        for (var e : entered.entrySet()) {
            if (e.getValue() < 1 || e.getValue() > seen) {
                throw new IllegalArgumentException("entry number " + e.getValue() + " of note " + e.getKey()
                        + " is outside 1.." + seen);
            }
        }
        if (!k.keySet().containsAll(entered.keySet())) {
            throw new IllegalArgumentException("entry numbers only for notes in K: " + entered.keySet() + " not in "
                    + k.keySet());
        }
        if (sessions < 0) {
            throw new IllegalArgumentException("session counter " + sessions + " is negative");
        }
        if (!k.keySet().containsAll(d)) {
            throw new IllegalArgumentException("D must be a subset of K (DWithinK): " + d + " not in " + k.keySet());
        }
        ts.forEach((s, t) -> {
            if (t < 0) {
                throw new IllegalArgumentException("TS[" + s + "] = " + t + " is negative");
            }
        });
        SortedMap<NoteId, Note> kk = k;
        SortedSet<NoteId> dd = d;
        long started = sessions;
        log.forEach((i, a) -> {
            if (!kk.containsKey(i)) {
                throw new IllegalArgumentException("aDeliver log names " + i + ", which is not in K");
            }
            if (a.ok() && !dd.contains(i)) {
                throw new IllegalArgumentException("aDeliver log has a success for " + i + " but D lacks it "
                        + "(D is derived from the log, Z9)");
            }
            if (a.session() > started) {
                throw new IllegalArgumentException("aDeliver log names session " + a.session() + ", above the "
                        + started + " sessions started");
            }
        });
    }

    /** The state of a server that has never run. */
    public static GatherDurableState initial() {
        return new GatherDurableState(new TreeMap<>(), new TreeSet<>(), new TreeMap<>(), 0, new TreeMap<>());
    }

    /**
     * The state being rebuilt by recovery: the checkpoint copied once ({@link #from}), then each
     * journaled {@link GatherOp} applied in place at the cost of its change, then frozen once into a
     * {@link GatherDurableState} (whose constructor checks the invariants). An op that does not fit
     * the state (a round op for a note not in K, an outcome with no attempt logged) is refused with
     * an {@link IllegalStateException} naming it: the journal and the checkpoint disagree.
     */
    public static final class Builder {
        private final TreeMap<NoteId, Note> k;
        private final TreeSet<NoteId> d;
        private final TreeMap<ServerId, Long> ts;
        private long sessions;
        private final TreeMap<NoteId, Attempt> log;
        private final TreeMap<NoteId, Long> entered;
        private long seen;
        private final TreeMap<NoteId, SortedMap<ServerId, Long>> numbers;
        private final TreeMap<NoteId, ServerId> origins;

        private Builder(GatherDurableState s) {
            k = new TreeMap<>(s.k());
            d = new TreeSet<>(s.d());
            ts = new TreeMap<>(s.ts());
            sessions = s.sessions();
            log = new TreeMap<>(s.log());
            entered = new TreeMap<>(s.entered());
            seen = s.seen();
            numbers = new TreeMap<>();
            s.numbers().forEach((i, m) -> numbers.put(i, new TreeMap<>(m)));
            origins = new TreeMap<>(s.origins());
        }

        /** A builder holding {@code state} (one copy). */
        public static Builder from(GatherDurableState state) {
            return new Builder(Objects.requireNonNull(state, "state"));
        }

        /** Applies {@code op}; see the class doc for what it refuses. */
        public Builder apply(GatherOp op) {
            Objects.requireNonNull(op, "op");
            if (op instanceof GatherOp.Enter e) {
                NoteId id = e.note().id();
                need(!k.containsKey(id) && e.number() == seen + 1, op, "note already in K or number not seen + 1 = "
                        + (seen + 1));
                k.put(id, e.note());
                entered.put(id, e.number());
                seen = e.number();
            } else if (op instanceof GatherOp.OpenRound r) {
                need(k.containsKey(r.id()), op, "note not in K");
                numbers.put(r.id(), new TreeMap<>(r.numbers()));
                origins.put(r.id(), r.origin());
            } else if (op instanceof GatherOp.AckRound a) {
                SortedMap<ServerId, Long> nums = numbers.get(a.id());
                need(nums != null, op, "no round open for the note");
                nums.put(a.server(), a.number());
            } else if (op instanceof GatherOp.CommitRound c) {
                need(k.containsKey(c.id()), op, "note not in K");
                numbers.put(c.id(), new TreeMap<>(c.numbers()));
                origins.remove(c.id());
            } else if (op instanceof GatherOp.AddD a) {
                need(k.containsKey(a.id()), op, "note not in K");
                d.add(a.id());
            } else if (op instanceof GatherOp.SetTs t) {
                ts.put(t.server(), t.ts());
            } else if (op instanceof GatherOp.StartSession st) {
                need(st.sessions() > sessions, op, "session counter " + sessions + " would not grow");
                sessions = st.sessions();
            } else if (op instanceof GatherOp.LogAttempt a) {
                need(k.containsKey(a.id()) && !log.containsKey(a.id()), op, "note not in K or already logged");
                log.put(a.id(), new Attempt(a.session(), false));
            } else if (op instanceof GatherOp.ADeliverOk o) {
                Attempt at = log.get(o.id());
                need(at != null && !at.ok() && at.session() == o.session(), op, "no such attempt awaits: " + at);
                log.put(o.id(), new Attempt(o.session(), true));
                d.add(o.id());
            } else if (op instanceof GatherOp.ADeliverErr x) {
                Attempt at = log.get(x.id());
                need(at != null && !at.ok(), op, "no attempt awaits: " + at);
                log.remove(x.id());
            } else if (op instanceof GatherOp.Purge p) {
                NoteId id = p.id();
                k.remove(id);
                d.remove(id);
                log.remove(id);
                entered.remove(id);
                numbers.remove(id);
                origins.remove(id);
            } else {
                throw new IllegalStateException("unknown gather operation " + op);
            }
            return this;
        }

        private static void need(boolean ok, GatherOp op, String why) {
            if (!ok) {
                throw new IllegalStateException("operation " + op + " does not apply: " + why);
            }
        }

        /** The state now (checked by the record's constructor). */
        public GatherDurableState freeze() {
            return new GatherDurableState(k, d, ts, sessions, log, entered, seen, numbers, origins);
        }
    }
}
