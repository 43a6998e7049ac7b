package dev.onceproof.exactlyonce.store;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.storage.InMemoryOperationLog;
import dev.onceproof.storage.Journal;
import dev.onceproof.storage.JournalCodec;
import dev.onceproof.storage.OperationLog;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import dev.onceproof.storage.CorruptSnapshotException;

/**
 * A client's stable storage: its R (or nothing, Strategy 0) together with the application's state,
 * as an {@link OperationLog}: a checkpoint of both, then one journal record per accepted note, the
 * {@link ClientEffect.Record} itself (the new R, bounded by the protocol: one counter per stream or
 * at most q ids, and the note processed). Recovery folds each record's note into the application
 * state with the {@link Processing} and takes its R, so "accept and record" are ONE atomic durable
 * record (L77, L530): after a crash the store holds both or neither.
 *
 * <p>Over a {@link Journal} each commit is durable (fsync) when it returns, so the caller may then
 * send the acknowledgement (ordering rule of {@link dev.onceproof.exactlyonce.ClientStep}). Not
 * thread-safe: one client, one store.
 */
public final class ClientStore implements AutoCloseable {

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

    private final OperationLog<Contents, ClientEffect.Record> log;
    private final Processing processing;
    /** What the log holds now (this store is its only writer): null for a client that never committed. */
    private ClientStableState stable;
    private byte[] application;

    /** The store over {@code log}, recovering its contents (checkpoint plus records) at once. */
    public ClientStore(OperationLog<Contents, ClientEffect.Record> log, Processing processing) {
        this.log = Objects.requireNonNull(log, "log");
        this.processing = Objects.requireNonNull(processing, "processing");
        Journal.Recovered<Contents, ClientEffect.Record> r = log.recovered();
        r.checkpoint().ifPresent(c -> {
            stable = c.stable();
            application = c.application();
        });
        for (ClientEffect.Record record : r.operations()) {
            fold(record);
        }
    }

    /** The codec of a client journal (checkpoints tag ECL1, records tag ECO1). */
    public static JournalCodec<Contents, ClientEffect.Record> codec() {
        return StateCodec.clientJournal();
    }

    /** The store over the journal in directory {@code dir} (created if absent). */
    public static ClientStore open(Path dir, Processing processing) {
        return new ClientStore(Journal.open(dir, codec(), Journal.Options.defaults()), processing);
    }

    /** The store over an in-memory log on {@code disk} (test worlds, replay). */
    public static ClientStore inMemory(InMemoryOperationLog.Disk disk, Processing processing) {
        return new ClientStore(InMemoryOperationLog.open(disk, codec(), Journal.Options.defaults()), processing);
    }

    private void fold(ClientEffect.Record record) {
        byte[] app = application == null ? new byte[0] : application;
        if (record.processed().isPresent()) {
            app = processing.apply(app, record.processed().get());
        }
        stable = record.state();
        application = app;
    }

    /** What the store holds, empty for a client that never committed. */
    public Optional<Contents> load() {
        return stable == null ? Optional.empty() : Optional.of(new Contents(stable, application));
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
            throw new CorruptSnapshotException(log.where(), "it holds a " + stored.getClass().getSimpleName()
                    + " client state, this client keeps " + initial.getClass().getSimpleName());
        }
        try {
            return build.apply(stored);
        } catch (IllegalArgumentException e) {
            throw new CorruptSnapshotException(log.where(), "the client core refuses its state: " + e.getMessage());
        }
    }

    /**
     * One atomic durable record of the new state and, if it carries a note, its processing; a
     * checkpoint of both when the journal has outgrown the last one. Durable when it returns.
     */
    public void commit(ClientEffect.Record record) {
        fold(record);
        long seq = log.append(record);
        if (log.checkpointDue()) {
            log.checkpoint(new Contents(stable, application), seq); // commits through seq first
        } else {
            log.commit(seq);
        }
    }

    public String where() {
        return log.where();
    }

    @Override
    public void close() {
        log.close();
    }
}
