package dev.onceproof.exactlyonce.store;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientHistory;
import dev.onceproof.storage.CorruptSnapshotException;
import dev.onceproof.storage.FileSnapshotStore;
import dev.onceproof.storage.Snapshot;
import dev.onceproof.storage.SnapshotStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Objects;
import java.util.Optional;

/**
 * Strategy 6's client history H on stable storage. Unlike R in the client-centric strategies, H
 * only serves performance (L254), so a history that cannot be read is not fatal: it is UNKNOWN,
 * detectably (notes Z17), and the next server pulls from everyone. {@link #load} says why:
 * absent (a new device or a deleted file) or corrupt (the file, moved aside so the next write
 * can start afresh, and the reason). Never an empty map, which would read "never connected".
 */
public final class HistoryStore {

    /** What {@link #load} found: the history to use, and the problem if it is UNKNOWN by loss. */
    public record Loaded(ClientHistory history, Optional<String> problem) {
        public Loaded {
            Objects.requireNonNull(history, "history");
            Objects.requireNonNull(problem, "problem");
        }
    }

    private final Path file;
    private SnapshotStore store;

    /** Over a snapshot file; a corrupt one is renamed to {@code <file>.corrupt} when loaded. */
    public HistoryStore(Path file) {
        this.file = Objects.requireNonNull(file, "file");
        this.store = new FileSnapshotStore(file);
    }

    /** Over any snapshot store (in memory: tests, simulation); corruption cannot be moved aside. */
    public HistoryStore(SnapshotStore store) {
        this.file = null;
        this.store = Objects.requireNonNull(store, "store");
    }

    public Loaded load() {
        Optional<Snapshot> s;
        try {
            s = store.read();
            if (s.isEmpty()) {
                return new Loaded(ClientHistory.unknown(), Optional.of(store.where() + " is absent: history UNKNOWN"));
            }
            return new Loaded(GatherCodec.decodeHistory(store.where(), s.get().payload()), Optional.empty());
        } catch (CorruptSnapshotException e) {
            if (file == null) {
                throw e;
            }
            Path aside = file.resolveSibling(file.getFileName() + ".corrupt");
            try {
                Files.move(file, aside, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException io) {
                throw new UncheckedIOException("cannot move corrupt history " + file + " aside to " + aside, io);
            }
            store = new FileSnapshotStore(file);
            return new Loaded(ClientHistory.unknown(), Optional.of(e.getMessage() + "; moved to " + aside
                    + ", history UNKNOWN"));
        }
    }

    /** One durable, atomic write of H (before the effects after it, {@link dev.onceproof.exactlyonce.ConnectStep}). */
    public void save(ClientEffect.RecordHistory record) {
        store.write(new Snapshot(store.generation() + 1, GatherCodec.encodeHistory(record.history())));
    }
}
