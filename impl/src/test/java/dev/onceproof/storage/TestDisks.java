package dev.onceproof.storage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/** {@link JournalDisk}s for tests. None calls the real fsync: they model it. */
final class TestDisks {

    private TestDisks() {
    }

    /** Forces nothing: for tests about file contents, where the real fsync only costs time. */
    static final JournalDisk NO_FSYNC = new JournalDisk() {
        @Override
        public void force(FileChannel channel, Path file) {
        }

        @Override
        public void forceDirectory(Path dir) {
        }
    };

    static Journal<List<String>, String> open(Path dir, JournalDisk disk, Journal.Defect defect) {
        return Journal.open(dir, Notes.CODEC, Journal.Options.defaults(), disk, defect, Journal.StepHook.NONE);
    }

    /**
     * Remembers how long each segment was when it was last forced; {@link #powerLoss} cuts every
     * segment back to that length and removes segments never forced: what a power loss may leave
     * of writes that no fsync covered. (The checkpoint file is written whole by its own fsyncs and
     * kept as it is.)
     */
    static final class PowerLoss implements JournalDisk {
        final Map<Path, Long> forced = new ConcurrentHashMap<>();
        final AtomicInteger forces = new AtomicInteger();

        @Override
        public void force(FileChannel channel, Path file) throws IOException {
            forced.put(file, channel.size());
            forces.incrementAndGet();
        }

        @Override
        public void forceDirectory(Path dir) {
        }

        void powerLoss(Path dir) throws IOException {
            List<Path> segments;
            try (Stream<Path> s = Files.list(dir)) {
                segments = s.filter(f -> JournalSegment.first(f).isPresent()).toList();
            }
            for (Path f : segments) {
                Long length = forced.get(f);
                if (length == null) {
                    Files.delete(f);
                } else {
                    try (FileChannel ch = FileChannel.open(f, StandardOpenOption.WRITE)) {
                        ch.truncate(length);
                    }
                }
            }
        }
    }

    /**
     * Once {@link #arm}ed, the next record fsync (not a segment header's) blocks until
     * {@link #release}: a slow disk, so a test can see what other threads do meanwhile.
     */
    static final class Gate implements JournalDisk {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch released = new CountDownLatch(1);
        private volatile boolean armed;

        void arm() {
            armed = true;
        }

        void release() {
            released.countDown();
        }

        @Override
        public void force(FileChannel channel, Path file) throws IOException {
            if (armed && channel.size() > JournalSegment.HEADER) {
                armed = false;
                entered.countDown();
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted in a gated fsync", e);
                }
            }
        }

        @Override
        public void forceDirectory(Path dir) {
        }
    }
}
