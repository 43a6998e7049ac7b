package dev.onceproof.exactlyonce.store;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.storage.Snapshot;
import dev.onceproof.storage.SnapshotStore;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import dev.onceproof.storage.CorruptSnapshotException;

/**
 * A client's stable storage: its R (or nothing, Strategy 0) together with the application's state,
 * written as ONE snapshot. {@link #commit} folds the processing of the accepted note into the
 * application state and writes both at once, which is how "accept and record" become one atomic
 * durable write (L77, L530): after a crash the store holds both or neither.
 *
 * <p>Over a {@link dev.onceproof.storage.FileSnapshotStore} each commit is durable (fsync, atomic
 * rename) when it returns, so the caller may then send the acknowledgement (ordering rule of
 * {@link dev.onceproof.exactlyonce.ClientStep}). Not thread-safe: one client, one store.
 */
public final class ClientStore {

    /** What the store holds. {@code application} is owned by the caller's {@link Processing}. */
    public record Contents(ClientStableState stable, byte[] application) {
        public Contents {
            Objects.requireNonNull(stable, "stable");
            application = application.clone();
        }

        @Override
        public byte[] application() {
            return application.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Contents c && c.stable.equals(stable) && Arrays.equals(c.application, application);
        }

        @Override
        public int hashCode() {
            return stable.hashCode() * 31 + Arrays.hashCode(application);
        }
    }

    /** The application's processing of a note, as a pure function of its durable state. */
    @FunctionalInterface
    public interface Processing {
        byte[] apply(byte[] application, Note note);
    }

    /** A processing that appends the note's id and a newline: a journal of processings. */
    public static Processing journal() {
        return (application, note) -> {
            byte[] line = (note.id().text() + "\n").getBytes(StandardCharsets.US_ASCII);
            byte[] out = Arrays.copyOf(application, application.length + line.length);
            System.arraycopy(line, 0, out, application.length, line.length);
            return out;
        };
    }

    private final SnapshotStore store;
    private final Processing processing;

    public ClientStore(SnapshotStore store, Processing processing) {
        this.store = Objects.requireNonNull(store, "store");
        this.processing = Objects.requireNonNull(processing, "processing");
    }

    /** What the store holds, empty for a client that never committed; corrupt -> exception naming it. */
    public Optional<Contents> load() {
        return store.read().map(s -> StateCodec.decodeClient(store.where(), s.payload()));
    }

    /** The stored stable state, or {@code initial} for a client that never committed. */
    public ClientStableState stableOr(ClientStableState initial) {
        return load().map(Contents::stable).orElse(initial);
    }

    /**
     * The client core built from the stored state ({@code initial} for a client that never
     * committed). A file that holds another strategy's state, or a state the core refuses (an R
     * above q, a number outside the sequence space), is as untrustworthy as a damaged one: it stops
     * with a {@link CorruptSnapshotException} naming the file, and the file is left as it is.
     */
    public <C> C restore(ClientStableState initial, Function<ClientStableState, C> build) {
        ClientStableState stored = stableOr(initial);
        if (stored.getClass() != initial.getClass()) {
            throw new CorruptSnapshotException(store.where(), "it holds a " + stored.getClass().getSimpleName()
                    + " client state, this client keeps " + initial.getClass().getSimpleName());
        }
        try {
            return build.apply(stored);
        } catch (IllegalArgumentException e) {
            throw new CorruptSnapshotException(store.where(), "the client core refuses its state: " + e.getMessage());
        }
    }

    /** One atomic durable write of the record's state and, if it carries a note, its processing. */
    public void commit(ClientEffect.Record record) {
        byte[] application = load().map(Contents::application).orElse(new byte[0]);
        if (record.processed().isPresent()) {
            application = processing.apply(application, record.processed().get());
        }
        store.write(new Snapshot(store.generation() + 1, StateCodec.encodeClient(record.state(), application)));
    }
}
