package dev.onceproof.exactlyonce;

import com.google.common.collect.ImmutableSortedSet;
import java.util.Collections;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;

/**
 * What a client keeps on stable storage (paper 3, "we assume that the clients have some stable
 * storage"; notes 1.5). It must survive client crashes: R lost is a duplicate (mutant "R volatile").
 */
public sealed interface ClientStableState {

    /** Strategy 0: nothing. */
    record Stateless() implements ClientStableState {
    }

    /**
     * Strategies 1 and 2: {@code R[x]}, the sequence number of the last note of stream x the client
     * accepted (L79). A stream absent from the map is at its initial value (0 for Strategy 1,
     * W-1 for Strategy 2, so the first note is x.1, resp. x.0).
     */
    record Streams(SortedMap<ServerId, Long> r) implements ClientStableState {
        public Streams {
            r = Collections.unmodifiableSortedMap(new TreeMap<>(Objects.requireNonNull(r, "r")));
        }
    }

    /**
     * Strategy 3: the id list R of notes processed and not yet purged (L127), at most q ids. Held
     * as an immutable copy, which an immutable set in natural order already is: the client core
     * hands over one it made ({@link S3Client#stable()}), so each record copies R once, not twice.
     */
    record IdList(SortedSet<NoteId> r) implements ClientStableState {
        public IdList {
            r = ImmutableSortedSet.copyOfSorted(Objects.requireNonNull(r, "r"));
        }
    }
}
