package dev.onceproof.exactlyonce;

/**
 * The note ids a strategy accepts in a message: which kind, and for sequenced ids the range of
 * sequence numbers (Strategies 0-1: {@code 1..maxSeq}, the first note of a stream being x.1;
 * Strategy 2: {@code 0..W-1}). A core checks every id of a message before changing any state.
 */
public final class Limits {

    private final boolean sequenced;
    private final long minSeq;
    private final long maxSeq;

    /** A final class rather than a record, for Lincheck (see {@link Note}). */
    public Limits(boolean sequenced, long minSeq, long maxSeq) {
        if (sequenced && (minSeq < 0 || maxSeq < minSeq)) {
            throw new IllegalArgumentException("sequence range " + minSeq + ".." + maxSeq + " is empty or negative");
        }
        this.sequenced = sequenced;
        this.minSeq = minSeq;
        this.maxSeq = maxSeq;
    }

    /** Strategies 0 and 1: unbounded streams starting at 1. */
    public static Limits streams() {
        return new Limits(true, 1, Long.MAX_VALUE);
    }

    /** Strategy 2: sequence space W, numbers 0..W-1 (W >= 2, notes Z3: W = 1 makes s+1 = s). */
    public static Limits wrapAround(int w) {
        if (w < 2) {
            throw new IllegalArgumentException("sequence space W = " + w + " must be at least 2 (Condition 1 "
                    + "needs x.(s+1) distinct from x.s)");
        }
        return new Limits(true, 0, w - 1L);
    }

    /** Strategy 3: any globally unique id. */
    public static Limits global() {
        return new Limits(false, 0, 0);
    }

    /** Throws {@link InvalidMessageException} naming {@code field} if {@code id} is not acceptable. */
    public void check(String field, NoteId id) {
        if (sequenced) {
            if (!(id instanceof NoteId.Sequenced s)) {
                throw new InvalidMessageException(field, "note id " + id.text() + " is global; this strategy "
                        + "numbers notes ServerID.SeqNo");
            }
            if (s.seq() < minSeq || s.seq() > maxSeq) {
                throw new InvalidMessageException(field + ".seq", s.seq() + " is outside " + minSeq + ".." + maxSeq
                        + " (note " + id.text() + ")");
            }
        } else if (!(id instanceof NoteId.Global)) {
            throw new InvalidMessageException(field, "note id " + id.text() + " is sequenced; Strategy 3 takes "
                    + "globally unique ids");
        }
    }

    public void checkAll(String field, Iterable<NoteId> ids) {
        for (NoteId id : ids) {
            check(field, id);
        }
    }
}
