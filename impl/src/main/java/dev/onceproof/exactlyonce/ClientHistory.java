package dev.onceproof.exactlyonce;

import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Strategy 6's connect history H (L248: "H(A) is the time when the last connection to server A
 * ended"), with the two corrections of notes Z17:
 * <ul>
 *   <li>{@code open}: servers whose connection began and never ended cleanly. H[s] := OPEN is
 *       written durably at connect, before the connection's first note is processed, so a crash in
 *       mid-connection leaves "must pull from s" rather than an older end time (mutant M6-b);</li>
 *   <li>{@code complete = false}: the history was lost, or is a fresh device's (Z17: a device that
 *       cannot prove it never connected sends UNKNOWN, never an empty map, which would read
 *       "never connected anywhere", mutant M6-d). Then a server absent from {@code ended} and
 *       {@code open} is UNKNOWN, not NEVER; while any other server is UNKNOWN, a server pulls from
 *       every other server (L254's full synchronization, {@link #unknownBesides}). Entries written
 *       after the loss are trustworthy: once every other server has one, each has a D, sent after
 *       its entry's time, that holds its deliveries from before the loss.</li>
 * </ul>
 * In a complete history, a server absent from both {@code ended} and {@code open} is NEVER (never
 * visited: no pull, notes sec. 2.8 (g)). Times are the client's clock ({@link EoClock} ticks).
 *
 * <p>A final value class rather than a record, with a record's API (the canonical constructor,
 * the accessors {@code complete()}, {@code ended()}, {@code open()}, and a record's equals,
 * hashCode and toString): the Strategy 6 client holds it in a field of the state Lincheck
 * explores, and Lincheck 2.39 cannot take field offsets of records (JetBrains/lincheck#402; see
 * {@link Note}).
 */
public final class ClientHistory {

    /** Most servers a history may name (a bound on what an upload makes a server read). */
    public static final int MAX_SERVERS = 1 << 12;

    private final boolean complete;
    private final SortedMap<ServerId, Long> ended;
    private final SortedSet<ServerId> open;

    public ClientHistory(boolean complete, SortedMap<ServerId, Long> ended, SortedSet<ServerId> open) {
        ended = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(ended, "ended")));
        open = Collections.unmodifiableSortedSet(new TreeSet<>(Objects.requireNonNull(open, "open")));
        if (ended.size() + open.size() > MAX_SERVERS) {
            throw new InvalidMessageException("history", ended.size() + open.size() + " entries, above "
                    + MAX_SERVERS);
        }
        for (var e : ended.entrySet()) {
            Objects.requireNonNull(e.getKey(), "history.ended server");
            if (e.getValue() == null || e.getValue() < 0) {
                throw new InvalidMessageException("history.ended[" + e.getKey() + "]", e.getValue()
                        + " is not a clock reading (>= 0)");
            }
            if (open.contains(e.getKey())) {
                throw new InvalidMessageException("history.open", e.getKey() + " is both OPEN and ended at "
                        + e.getValue());
            }
        }
        this.complete = complete;
        this.ended = ended;
        this.open = open;
    }

    /** False when the history was lost or is a fresh device's (absent entries are UNKNOWN). */
    public boolean complete() {
        return complete;
    }

    /** For each server whose last connection ended cleanly, the client time it ended. */
    public SortedMap<ServerId, Long> ended() {
        return ended;
    }

    /** Servers whose connection began and never ended cleanly (H[s] = OPEN). */
    public SortedSet<ServerId> open() {
        return open;
    }

    @Override
    public boolean equals(Object o) {
        return o == this || o instanceof ClientHistory h && h.complete == complete && h.ended.equals(ended)
                && h.open.equals(open);
    }

    @Override
    public int hashCode() {
        return Objects.hash(complete, ended, open);
    }

    /** As the record it was: {@code ClientHistory[complete=..., ended=..., open=...]}. */
    @Override
    public String toString() {
        return "ClientHistory[complete=" + complete + ", ended=" + ended + ", open=" + open + "]";
    }

    /** UNKNOWN: nothing is known of the client's past connections (fresh device, lost H). */
    public static ClientHistory unknown() {
        return new ClientHistory(false, new TreeMap<>(), new TreeSet<>());
    }

    /** An empty but complete history: only for a client known never to have connected anywhere. */
    public static ClientHistory never() {
        return new ClientHistory(true, new TreeMap<>(), new TreeSet<>());
    }

    /** This history with H[s] := OPEN. */
    public ClientHistory opened(ServerId s) {
        TreeMap<ServerId, Long> e = new TreeMap<>(ended);
        e.remove(s);
        TreeSet<ServerId> o = new TreeSet<>(open);
        o.add(s);
        return new ClientHistory(complete, e, o);
    }

    /** This history with H[s] := at (the connection to s ended at client time {@code at}). */
    public ClientHistory ended(ServerId s, long at) {
        TreeMap<ServerId, Long> e = new TreeMap<>(ended);
        e.put(s, at);
        TreeSet<ServerId> o = new TreeSet<>(open);
        o.remove(s);
        return new ClientHistory(complete, e, o);
    }

    /** Whether the history is incomplete (lost or a fresh device's): absent entries are UNKNOWN. */
    public boolean isUnknown() {
        return !complete;
    }

    /** Whether H[t] is UNKNOWN for some server of {@code servers} other than {@code self}. */
    public boolean unknownBesides(ServerId self, java.util.Set<ServerId> servers) {
        if (complete) {
            return false;
        }
        for (ServerId t : servers) {
            if (!t.equals(self) && !ended.containsKey(t) && !open.contains(t)) {
                return true;
            }
        }
        return false;
    }
}
