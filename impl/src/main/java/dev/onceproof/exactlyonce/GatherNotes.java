package dev.onceproof.exactlyonce;

import java.util.TreeSet;

/**
 * K of a Strategy 4-6 server ({@link GatherServer}), one entry per note ({@link NoteEntries}), with
 * its aDeliver log entry, and the notes {@code aDeliverNext} may offer (K - D - the log's notes,
 * whose round is complete here) sorted by id, so the next one is the first.
 */
final class GatherNotes extends NoteEntries<GatherNotes.Entry> {

    static final class Entry extends NoteEntries.Entry {
        /** Its aDeliver log entry, or null. */
        GatherDurableState.Attempt attempt;
        /** In {@link #offerable}. */
        private boolean offered;

        Entry(Note note, long entered) {
            super(note, entered);
        }

        /** An attempt whose outcome is unknown is logged. */
        boolean unresolved() {
            return attempt != null && !attempt.ok();
        }
    }

    private final int servers;
    private final TreeSet<Entry> offerable = new TreeSet<>(BY_ID);

    /** For a server among {@code servers} servers (a round is complete when it names them all). */
    GatherNotes(int servers) {
        this.servers = servers;
    }

    @Override
    Entry newEntry(Note note, long entered) {
        return new Entry(note, entered);
    }

    @Override
    void refresh(Entry e) {
        offer(e, !e.delivered && e.attempt == null && e.complete(servers));
    }

    @Override
    void offer(Entry e, boolean offer) {
        if (offer != e.offered) {
            e.offered = offer;
            if (offer) {
                offerable.add(e);
            } else {
                offerable.remove(e);
            }
        }
    }

    /** The lowest-id note aDeliver may be called for, or null. */
    Entry firstOfferable() {
        return offerable.isEmpty() ? null : offerable.first();
    }
}
