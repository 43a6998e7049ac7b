package dev.onceproof.exactlyonce.store;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientHistory;
import dev.onceproof.storage.CorruptJournalException;
import dev.onceproof.storage.CorruptSnapshotException;
import dev.onceproof.storage.InMemoryOperationLog;
import dev.onceproof.storage.Journal;
import dev.onceproof.storage.JournalCodec;
import dev.onceproof.storage.OperationLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Strategy 6's client history H on stable storage, as a journal like every other exactly-once
 * store: a checkpoint, then one record per write holding the new H. H is bounded by the number of
 * servers ({@link ClientHistory#MAX_SERVERS}) and changes at connect and at a clean end, so the
 * record is the new H itself, as a client's record is its new R ({@link ClientStore}); a write is
 * one append and one fsync, and the journal is compacted into a checkpoint once it outgrows the last.
 *
 * <p>Unlike R in the client-centric strategies, H only serves performance (L254), so a history
 * that cannot be read is not fatal: it is UNKNOWN, detectably (notes Z17), and the next server
 * pulls from everyone. {@link #load} says why: absent (a new device or a deleted directory) or
 * corrupt (the journal directory, moved aside so the next write starts afresh, and the reason).
 * Never an empty map, which would read "never connected". A torn last record is a write that never
 * returned (the connection it was for never began), so the journal drops it and the history before
 * it stands, as for every journal.
 */
public final class HistoryStore implements AutoCloseable {

    /** What {@link #load} found: the history to use, and the problem if it is UNKNOWN by loss. */
    public record Loaded(ClientHistory history, Optional<String> problem) {
        public Loaded {
            Objects.requireNonNull(history, "history");
            Objects.requireNonNull(problem, "problem");
        }
    }

    /**
     * A checkpoint once the journal outgrows twice the history or 16 KiB: H is at most a few tens of
     * bytes per server, so the journal's 1 MiB default floor would keep tens of thousands of writes.
     */
    static final Journal.Options OPTIONS = new Journal.Options(Journal.Commit.GROUP, 2.0, 16 << 10);

    /** The journal directory, or null for an in-memory log (whose corruption cannot be moved aside). */
    private final Path dir;
    private final Supplier<OperationLog<ClientHistory, ClientHistory>> opener;
    private OperationLog<ClientHistory, ClientHistory> log;
    /** The history the log holds now (this store is its only writer); null when it holds none. */
    private ClientHistory held;

    private HistoryStore(Path dir, Supplier<OperationLog<ClientHistory, ClientHistory>> opener) {
        this.dir = dir;
        this.opener = opener;
    }

    /** Over the journal in directory {@code dir} (created if absent); a corrupt one is renamed to {@code <dir>.corrupt}. */
    public static HistoryStore open(Path dir) {
        Path d = Objects.requireNonNull(dir, "dir");
        return new HistoryStore(d, () -> Journal.open(d, codec(), OPTIONS));
    }

    /** Over an in-memory log on {@code disk} (replay, test worlds); corruption there is thrown, not moved aside. */
    public static HistoryStore inMemory(InMemoryOperationLog.Disk disk) {
        Objects.requireNonNull(disk, "disk");
        return new HistoryStore(null, () -> InMemoryOperationLog.open(disk, codec(), OPTIONS));
    }

    /** The codec of a history journal: checkpoint and record are both one encoded H (tag EHI1). */
    static JournalCodec<ClientHistory, ClientHistory> codec() {
        return new JournalCodec<>() {
            @Override
            public byte[] encodeOperation(ClientHistory h) {
                return GatherCodec.encodeHistory(h);
            }

            @Override
            public ClientHistory decodeOperation(byte[] bytes) {
                return GatherCodec.decodeHistory("history record", bytes);
            }

            @Override
            public byte[] encodeCheckpoint(ClientHistory h) {
                return GatherCodec.encodeHistory(h);
            }

            @Override
            public ClientHistory decodeCheckpoint(byte[] bytes) {
                return GatherCodec.decodeHistory("history checkpoint", bytes);
            }
        };
    }

    /** Opens the log (once) and reads what it holds: UNKNOWN with the reason when absent or corrupt. */
    public Loaded load() {
        if (log == null) {
            try {
                log = opener.get();
            } catch (CorruptJournalException | CorruptSnapshotException e) {
                if (dir == null) {
                    throw e;
                }
                Path aside = dir.resolveSibling(dir.getFileName() + ".corrupt");
                moveAside(aside);
                log = opener.get();
                held = null;
                return new Loaded(ClientHistory.unknown(), Optional.of(e.getMessage() + "; moved to " + aside
                        + ", history UNKNOWN"));
            }
            held = last(log.recovered());
        }
        if (held == null) {
            return new Loaded(ClientHistory.unknown(), Optional.of(log.where() + " is absent: history UNKNOWN"));
        }
        return new Loaded(held, Optional.empty());
    }

    private static ClientHistory last(Journal.Recovered<ClientHistory, ClientHistory> r) {
        List<ClientHistory> ops = r.operations();
        return ops.isEmpty() ? r.checkpoint().orElse(null) : ops.get(ops.size() - 1);
    }

    private void moveAside(Path aside) {
        try {
            if (Files.exists(aside)) {
                MoreFiles.deleteRecursively(aside, RecursiveDeleteOption.ALLOW_INSECURE);
            }
            Files.move(dir, aside, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException io) {
            throw new UncheckedIOException("cannot move corrupt history " + dir + " aside to " + aside, io);
        }
    }

    /**
     * One durable, atomic write of H (before the effects after it, {@link dev.onceproof.exactlyonce.ConnectStep}):
     * durable when it returns.
     */
    public void save(ClientEffect.RecordHistory record) {
        if (log == null) {
            load();
        }
        ClientHistory h = record.history();
        long seq = log.append(h);
        if (log.checkpointDue()) {
            log.checkpoint(h, seq); // commits through seq first
        } else {
            log.commit(seq);
        }
        held = h;
    }

    public String where() {
        return dir != null ? "journal directory " + dir.toAbsolutePath() : "in-memory history log";
    }

    @Override
    public void close() {
        if (log != null) {
            log.close();
        }
    }
}
