package dev.onceproof.exactlyonce;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * K of a Strategy 3 server ({@link S3Server}) with everything the server keeps per note of K, as one
 * entry per note: whether it is in D, its entry number, its replication round's numbers and origin,
 * when its round completed here, and whether a session may offer it.
 *
 * <p>Why one map: these were seven sorted maps keyed by note, and a note's step looked it up in
 * most of them (a JFR profile of the note-cost loop put half its samples in {@code java.util.TreeMap},
 * issue 19 item 5). Here a step looks its note up once, by hash. The id order the protocol needs
 * (the order sync messages, records and logs list notes in) is made when asked, by sorting, which
 * syncs do once per round rather than every note at every change. The notes a session may offer
 * are kept in the order the session offers them in, so choosing the next one reads a first
 * element: those whose round completed since the last crash in a hash-linked set in the order
 * their rounds completed (a note joins it only at that moment, so its order is the set's
 * insertion order), the others (completed before the crash, or predating rounds) in a sorted set
 * by id, offered first.
 *
 * <p>The server changes an entry's fields and then calls {@link #refresh}; this class owns only
 * the membership of the offer set. Not thread-safe (the server is not).
 */
final class S3Notes {

    /** One note of K. */
    static final class Entry {
        final Note note;
        /** Its number in the order notes entered K here (1..seen); never changes. */
        final long entered;
        /** In D. */
        boolean delivered;
        /**
         * The round's numbers: each server's number for it as far as we know (ours always). Null: the
         * note predates the round (or the round is off), and counts as complete.
         */
        TreeMap<ServerId, Long> numbers;
        /** Its origin while its round is not complete here; null once complete. Implies numbers != null. */
        ServerId origin;
        /** Volatile: its round completed here since the last crash (then it is offered in that order). */
        private boolean completedSinceCrash;
        /** In the offer set. Invariant: {@code !delivered && origin == null}. */
        private boolean ready;

        Entry(Note note, long entered) {
            this.note = note;
            this.entered = entered;
        }

        NoteId id() {
            return note.id();
        }
    }

    private static final Comparator<Entry> BY_ID = Comparator.comparing(Entry::id);

    private final HashMap<NoteId, Entry> byId = new HashMap<>();
    /*
     * The offer set, K - D of the notes whose round is complete here, in the order a corrected
     * session offers them: first readyBefore (notes not completed since the last crash), lowest id
     * first, then readySince, earliest completed first.
     */
    private final TreeSet<Entry> readyBefore = new TreeSet<>(BY_ID);
    private final LinkedHashSet<Entry> readySince = new LinkedHashSet<>();

    /** The entry of note i, or null if i is not in K. */
    Entry get(NoteId id) {
        return byId.get(id);
    }

    boolean contains(NoteId id) {
        return byId.containsKey(id);
    }

    /** Every entry, in no particular order. */
    Collection<Entry> entries() {
        return byId.values();
    }

    /**
     * A note enters K as number {@code entered}, not yet in D and with no round: the caller sets
     * its fields (D, the round) and then calls {@link #refresh}, which puts it in the offer set.
     */
    Entry add(Note note, long entered) {
        Entry e = new Entry(note, entered);
        byId.put(note.id(), e);
        return e;
    }

    void remove(Entry e) {
        byId.remove(e.id());
        offer(e, false);
    }

    /** Puts e in the offer set or takes it out, after a change to its D or origin. */
    void refresh(Entry e) {
        offer(e, !e.delivered && e.origin == null);
    }

    private void offer(Entry e, boolean ready) {
        if (ready != e.ready) {
            e.ready = ready;
            if (!e.completedSinceCrash) {
                if (ready) {
                    readyBefore.add(e);
                } else {
                    readyBefore.remove(e);
                }
            } else if (ready) {
                readySince.add(e);
            } else {
                readySince.remove(e);
            }
        }
    }

    /**
     * e's round has just completed here: it is offered after every note whose round completed
     * before (and that is why readySince's insertion order is the completion order).
     */
    void completed(Entry e) {
        offer(e, false);
        e.completedSinceCrash = true;
        refresh(e);
    }

    /** A crash: when rounds completed is forgotten (every note is then offered by id). */
    void forgetCompletionOrder() {
        for (Entry e : readySince) {
            readyBefore.add(e);
        }
        readySince.clear();
        byId.values().forEach(e -> e.completedSinceCrash = false);
    }

    /** The note a corrected session offers next, or null when none may be offered. */
    Entry firstReady() {
        if (!readyBefore.isEmpty()) {
            return readyBefore.first();
        }
        return readySince.isEmpty() ? null : readySince.iterator().next();
    }

    boolean isReady(NoteId id) {
        Entry e = byId.get(id);
        return e != null && e.ready;
    }

    /** The ids a session may offer, in id order. */
    TreeSet<NoteId> readyIds() {
        TreeSet<NoteId> out = new TreeSet<>();
        readyBefore.forEach(e -> out.add(e.id()));
        readySince.forEach(e -> out.add(e.id()));
        return out;
    }

    /** The entries that pass {@code p}, in id order. */
    List<Entry> sorted(Predicate<Entry> p) {
        List<Entry> out = new ArrayList<>();
        for (Entry e : byId.values()) {
            if (p.test(e)) {
                out.add(e);
            }
        }
        out.sort(BY_ID);
        return out;
    }

    /** K's ids, in id order. */
    TreeSet<NoteId> ids() {
        return new TreeSet<>(byId.keySet());
    }

    /** D, in id order. */
    TreeSet<NoteId> d() {
        TreeSet<NoteId> out = new TreeSet<>();
        for (Entry e : byId.values()) {
            if (e.delivered) {
                out.add(e.id());
            }
        }
        return out;
    }
}
