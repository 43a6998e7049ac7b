package dev.onceproof.exactlyonce;

import java.util.LinkedHashSet;
import java.util.TreeSet;

/**
 * K of a Strategy 3 server ({@link S3Server}), one entry per note ({@link NoteEntries}), with the
 * notes a session may offer (K - D of the notes whose round is complete here) kept in the order a
 * corrected session offers them: first those whose round did not complete since the last crash
 * (it completed before, or the note predates rounds), lowest id first; then those whose round
 * completed since, earliest first. The latter are a hash-linked set in insertion order: a note
 * joins it only at the moment its round completes, so its insertion order is the completion order.
 */
final class S3Notes extends NoteEntries<S3Notes.Entry> {

    static final class Entry extends NoteEntries.Entry {
        /** Volatile: its round completed here since the last crash (then it is offered in that order). */
        private boolean completedSinceCrash;
        /** In the offer set. Invariant: {@code !delivered && origin == null}. */
        private boolean ready;

        Entry(Note note, long entered) {
            super(note, entered);
        }
    }

    private final TreeSet<Entry> readyBefore = new TreeSet<>(BY_ID);
    private final LinkedHashSet<Entry> readySince = new LinkedHashSet<>();

    @Override
    Entry newEntry(Note note, long entered) {
        return new Entry(note, entered);
    }

    @Override
    void refresh(Entry e) {
        offer(e, !e.delivered && e.origin == null);
    }

    @Override
    void offer(Entry e, boolean ready) {
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
     * before (which is why readySince's insertion order is the completion order).
     */
    void completed(Entry e) {
        offer(e, false);
        e.completedSinceCrash = true;
        refresh(e);
    }

    /** A crash: when rounds completed is forgotten (every note is then offered by id). */
    void forgetCompletionOrder() {
        readyBefore.addAll(readySince);
        readySince.clear();
        entries().forEach(e -> e.completedSinceCrash = false);
    }

    /** The note a corrected session offers next, or null when none may be offered. */
    Entry firstReady() {
        if (!readyBefore.isEmpty()) {
            return readyBefore.first();
        }
        return readySince.isEmpty() ? null : readySince.iterator().next();
    }

    boolean isReady(NoteId id) {
        Entry e = get(id);
        return e != null && e.ready;
    }

    /** The ids a session may offer, in id order. */
    TreeSet<NoteId> readyIds() {
        TreeSet<NoteId> out = new TreeSet<>();
        readyBefore.forEach(e -> out.add(e.id()));
        readySince.forEach(e -> out.add(e.id()));
        return out;
    }
}
