package dev.onceproof.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * A {@link SnapshotStore} in one file. Format (big-endian): magic {@code "OPSN"}, format version
 * (int, {@value #VERSION}), generation (long), payload length (int), payload, CRC32C of everything
 * before it (int).
 *
 * <p>A write goes to a temporary file beside it, is forced to the device, atomically renamed over
 * the old file, and the directory is forced so the rename survives a power loss: after a crash the
 * file holds the old or the new snapshot, never a mix. A temporary file left by a crash mid-write
 * is never read. One writer per file; methods are synchronized.
 */
public final class FileSnapshotStore implements SnapshotStore {

    static final int MAGIC = 0x4F50534E; // "OPSN": onceproof snapshot
    static final int VERSION = 1;
    static final int HEADER = 4 + 4 + 8 + 4;
    /** A bound on what a corrupt length field can make us allocate. */
    static final int MAX_PAYLOAD = 64 << 20;

    private final Path file;
    private final Path temp;
    private Optional<Snapshot> cached = Optional.empty();
    private boolean loaded;

    public FileSnapshotStore(Path file) {
        this.file = file.toAbsolutePath();
        Path dir = this.file.getParent();
        if (dir == null) {
            throw new IllegalArgumentException("snapshot file " + file + " has no directory");
        }
        this.temp = dir.resolve(this.file.getFileName() + ".tmp");
    }

    public Path file() {
        return file;
    }

    @Override
    public String where() {
        return "snapshot file " + file;
    }

    @Override
    public synchronized Optional<Snapshot> read() {
        if (!loaded) {
            cached = load();
            loaded = true;
        }
        return cached;
    }

    @Override
    public synchronized void write(Snapshot snapshot) {
        long stored = read().map(Snapshot::generation).orElse(0L);
        if (snapshot.generation() <= stored) {
            throw new SnapshotBackwardsException("snapshot file " + file, snapshot.generation(), stored);
        }
        if (snapshot.payload().length > MAX_PAYLOAD) {
            throw new IllegalArgumentException("snapshot for " + file + " is " + snapshot.payload().length
                    + " bytes, above " + MAX_PAYLOAD);
        }
        ByteBuffer buf = encode(snapshot);
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write snapshot temp file " + temp, e);
        }
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot atomically rename " + temp + " to " + file, e);
        }
        try (FileChannel ch = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force directory " + file.getParent() + " after renaming " + file, e);
        }
        cached = Optional.of(snapshot);
    }

    private Optional<Snapshot> load() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read snapshot file " + file, e);
        }
        return Optional.of(decode(file, bytes));
    }

    static ByteBuffer encode(Snapshot snapshot) {
        byte[] payload = snapshot.payload();
        ByteBuffer buf = ByteBuffer.allocate(HEADER + payload.length + 4);
        buf.putInt(MAGIC).putInt(VERSION).putLong(snapshot.generation()).putInt(payload.length).put(payload);
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), 0, HEADER + payload.length);
        buf.putInt((int) crc.getValue());
        return buf.flip();
    }

    static Snapshot decode(Path file, byte[] bytes) {
        if (bytes.length < HEADER + 4) {
            throw new CorruptSnapshotException(file, "length " + bytes.length + " bytes, below the minimum "
                    + (HEADER + 4) + " (truncated)");
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        int magic = buf.getInt();
        if (magic != MAGIC) {
            throw new CorruptSnapshotException(file, String.format("magic 0x%08X, expected 0x%08X (\"OPSN\")",
                    magic, MAGIC));
        }
        int version = buf.getInt();
        if (version != VERSION) {
            throw new CorruptSnapshotException(file, "format version " + version + ", this build reads " + VERSION);
        }
        long generation = buf.getLong();
        int length = buf.getInt();
        if (length < 0 || length > MAX_PAYLOAD || bytes.length != HEADER + length + 4) {
            throw new CorruptSnapshotException(file, "payload length " + length + " does not fit the file's "
                    + bytes.length + " bytes");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, HEADER + length);
        int stored = ByteBuffer.wrap(bytes, HEADER + length, 4).getInt();
        if (stored != (int) crc.getValue()) {
            throw new CorruptSnapshotException(file, String.format("CRC32C 0x%08X does not match contents 0x%08X",
                    stored, (int) crc.getValue()));
        }
        if (generation < 1) {
            throw new CorruptSnapshotException(file, "generation " + generation + " is below 1");
        }
        byte[] payload = new byte[length];
        buf.get(payload);
        return new Snapshot(generation, payload);
    }
}
