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
}
