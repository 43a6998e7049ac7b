package dev.onceproof.exactlyonce;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * K of a server that runs the acknowledged replication round (Strategy 3, {@link S3Notes};
 * Strategies 4-6, {@link GatherNotes}), with everything the server keeps per note of K, as one
 * entry per note: whether it is in D, its entry number, the round's numbers and origin, and what
 * the strategy adds.
 *
 * <p>Why one map: these were a sorted map per field, keyed by note, and a note's step looked it up
 * in most of them (JFR profiles of the note-cost loop put half of Strategy 3's samples and a third
 * of Strategy 4's in {@code java.util.TreeMap}, issue 19 item 5). Here a step looks its note up
 * once, by hash. The id order the protocol needs (the order sync messages, records and logs list
 * notes in) is made when asked, by sorting, which the syncs do once per round rather than every
 * note at every change. Each strategy keeps the notes a session may offer in an index of its own,
 * in the order it offers them, so choosing the next one reads a first element.
 *
 * <p>The server changes an entry's fields and then calls {@link #refresh}, which updates the
 * offer index. Not thread-safe (the servers are not).
 */
abstract class NoteEntries<E extends NoteEntries.Entry> {

    /** One note of K. */
    static class Entry {
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

        Entry(Note note, long entered) {
            this.note = note;
            this.entered = entered;
        }

        final NoteId id() {
            return note.id();
        }

        /** Whether its replication round is complete here (or it predates the round), among {@code servers}. */
        final boolean complete(int servers) {
            return numbers == null || origin == null && numbers.size() == servers;
        }
    }

    static final Comparator<Entry> BY_ID = Comparator.comparing(Entry::id);

    private final HashMap<NoteId, E> byId = new HashMap<>();

    /** A new entry for note, number {@code entered}, not in D, with no round. */
    abstract E newEntry(Note note, long entered);

    /** Puts e in the offer index or takes it out, after a change to one of its fields. */
    abstract void refresh(E e);

    /** Puts e in the offer index ({@code offer}) or takes it out; refresh decides which. */
    abstract void offer(E e, boolean offer);

    /** The entry of note i, or null if i is not in K. */
    final E get(NoteId id) {
        return byId.get(id);
    }

    final boolean contains(NoteId id) {
        return byId.containsKey(id);
    }

    /** Every entry, in no particular order. */
    final Collection<E> entries() {
        return byId.values();
    }

    /**
     * A note enters K as number {@code entered}, not yet in D and with no round: the caller sets
     * its fields (D, the round) and then calls {@link #refresh}, which may offer it.
     */
    final E add(Note note, long entered) {
        E e = newEntry(note, entered);
        byId.put(note.id(), e);
        return e;
    }

    final void remove(E e) {
        byId.remove(e.id());
        offer(e, false);
    }

    /** The entries that pass {@code p}, in id order. */
    final List<E> sorted(Predicate<? super E> p) {
        List<E> out = new ArrayList<>();
        for (E e : byId.values()) {
            if (p.test(e)) {
                out.add(e);
            }
        }
        out.sort(BY_ID);
        return out;
    }

    /** K's ids, in id order. */
    final TreeSet<NoteId> ids() {
        return new TreeSet<>(byId.keySet());
    }

    /** D, in id order. */
    final TreeSet<NoteId> d() {
        TreeSet<NoteId> out = new TreeSet<>();
        for (E e : byId.values()) {
            if (e.delivered) {
                out.add(e.id());
            }
        }
        return out;
    }

    /** K, D, the entry numbers, the round's numbers and the origins, each in id order: a state record's fields. */
    record Sorted(TreeMap<NoteId, Note> k, TreeSet<NoteId> d, TreeMap<NoteId, Long> entered,
            TreeMap<NoteId, java.util.SortedMap<ServerId, Long>> numbers, TreeMap<NoteId, ServerId> origins) {
    }

    final Sorted sortedFields() {
        Sorted s = new Sorted(new TreeMap<>(), new TreeSet<>(), new TreeMap<>(), new TreeMap<>(), new TreeMap<>());
        for (E e : byId.values()) {
            s.k().put(e.id(), e.note);
            s.entered().put(e.id(), e.entered);
            if (e.delivered) {
                s.d().add(e.id());
            }
            if (e.numbers != null) {
                s.numbers().put(e.id(), e.numbers);
            }
            if (e.origin != null) {
                s.origins().put(e.id(), e.origin);
            }
        }
        return s;
    }
}
