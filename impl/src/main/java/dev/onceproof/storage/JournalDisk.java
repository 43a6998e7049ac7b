package dev.onceproof.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The journal's two fsyncs, behind a seam so tests can count them, hold one open while other
 * threads append, or remember what was forced and cut a file back to it (a power loss).
 */
interface JournalDisk {

    /** Makes every byte written to {@code channel} (the file {@code file}) durable. */
    void force(FileChannel channel, Path file) throws IOException;

    /** Makes the directory's entries (files created, renamed, deleted) durable. */
    void forceDirectory(Path dir) throws IOException;

    JournalDisk REAL = new JournalDisk() {
        @Override
        public void force(FileChannel channel, Path file) throws IOException {
            // Data only: the file's length is metadata fdatasync still writes, its times are not needed.
            channel.force(false);
        }

        @Override
        public void forceDirectory(Path dir) throws IOException {
            try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
                ch.force(true);
            }
        }
    };
}
