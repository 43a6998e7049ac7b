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
import java.util.OptionalLong;
import java.util.zip.CRC32C;

/**
 * Latest in one small file. Format (big-endian, {@value #LENGTH} bytes): magic {@code "OPSL"}, format
 * version (int, {@value #VERSION}), latest (long), CRC32C of the preceding 16 bytes (int).
 *
 * <p>A write goes to a temporary file in the same directory, is forced to the device, atomically
 * renamed over the old file, and the directory is forced so the rename itself survives a power
 * loss. So after a crash the file holds either the old or the new value, never a mix; a file that
 * fails any check raises {@link CorruptStableStorageException} instead of yielding a value. A
 * temporary file left by a crash mid-write is never read, and the next write truncates it.
 *
 * <p>One writer per file (the server that owns it); methods are synchronized for the background
 * latest writer.
 */
public final class FileStableStorage implements StableStorage {

    static final int MAGIC = 0x4F50534C; // "OPSL": onceproof stable latest
    static final int VERSION = 1;
    static final int LENGTH = 4 + 4 + 8 + 4;

    private final Path file;
    private final Path temp;
    /** The value last read from or written to the file; empty until known. Never decreases. */
    private OptionalLong cached = OptionalLong.empty();
    private boolean loaded;

    public FileStableStorage(Path file) {
        this.file = file.toAbsolutePath();
        Path dir = this.file.getParent();
        if (dir == null) {
            throw new IllegalArgumentException("stable storage file " + file + " has no directory");
        }
        this.temp = dir.resolve(this.file.getFileName() + ".tmp");
    }

    public Path file() {
        return file;
    }

    @Override
    public synchronized OptionalLong read() {
        if (!loaded) {
            cached = load();
            loaded = true;
        }
        return cached;
    }

    @Override
    public synchronized void write(long latest) {
        OptionalLong current = read();
        if (current.isPresent() && latest < current.getAsLong()) {
            throw new StableStorageBackwardsException(latest, current.getAsLong());
        }
        ByteBuffer buf = encode(latest);
        try (FileChannel ch = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write stable storage temp file " + temp, e);
        }
        try {
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot atomically rename " + temp + " to " + file, e);
        }
        forceDirectory();
        cached = OptionalLong.of(latest);
    }

    private void forceDirectory() {
        Path dir = file.getParent();
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot force directory " + dir + " after renaming " + file, e);
        }
    }

    private OptionalLong load() {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return OptionalLong.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read stable storage file " + file, e);
        }
        return OptionalLong.of(decode(file, bytes));
    }

    static ByteBuffer encode(long latest) {
        ByteBuffer buf = ByteBuffer.allocate(LENGTH);
        buf.putInt(MAGIC).putInt(VERSION).putLong(latest);
        CRC32C crc = new CRC32C();
        crc.update(buf.array(), 0, LENGTH - 4);
        buf.putInt((int) crc.getValue());
        return buf.flip();
    }

    static long decode(Path file, byte[] bytes) {
        if (bytes.length != LENGTH) {
            throw new CorruptStableStorageException(file, "length " + bytes.length + " bytes, expected " + LENGTH
                    + (bytes.length < LENGTH ? " (truncated)" : " (trailing garbage)"));
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        int magic = buf.getInt();
        if (magic != MAGIC) {
            throw new CorruptStableStorageException(file, String.format(
                    "magic 0x%08X, expected 0x%08X (\"OPSL\")", magic, MAGIC));
        }
        int version = buf.getInt();
        if (version != VERSION) {
            throw new CorruptStableStorageException(file, "format version " + version + ", this build reads "
                    + VERSION);
        }
        long latest = buf.getLong();
        int stored = buf.getInt();
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, LENGTH - 4);
        int computed = (int) crc.getValue();
        if (stored != computed) {
            throw new CorruptStableStorageException(file, String.format(
                    "CRC32C 0x%08X does not match contents 0x%08X", stored, computed));
        }
        return latest;
    }
}
