package dev.onceproof.bench.storage;

import dev.onceproof.storage.Journal;
import dev.onceproof.storage.JournalCodec;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * One measured run: {@code threads} threads each append and commit records of {@code recordBytes}
 * bytes on disk (framing included) to a fresh {@link Journal} for {@code seconds}, as fast as they
 * can; every operation counted is durable (its commit returned). No checkpoint is taken: this is
 * the journal's own durable rate.
 */
final class JournalBench {

    /** What one run measured. */
    record Run(Journal.Commit commit, long ops, long fsyncs, double seconds) {

        double opsPerSecond() {
            return ops / seconds;
        }

        double fsyncsPerSecond() {
            return fsyncs / seconds;
        }

        double opsPerFsync() {
            return fsyncs == 0 ? 0 : (double) ops / fsyncs;
        }
    }

    /** Operations are raw byte arrays; the journal stores them as they are. */
    static final JournalCodec<byte[], byte[]> BYTES = new JournalCodec<>() {
        @Override
        public byte[] encodeOperation(byte[] operation) {
            return operation;
        }

        @Override
        public byte[] decodeOperation(byte[] bytes) {
            return bytes;
        }

        @Override
        public byte[] encodeCheckpoint(byte[] state) {
            return state;
        }

        @Override
        public byte[] decodeCheckpoint(byte[] bytes) {
            return bytes;
        }
    };

    private JournalBench() {
    }

    /** Runs in a fresh directory made under {@code parent}, deleted afterwards; nothing else there is touched. */
    static Run run(Path parent, Journal.Commit commit, int threads, int recordBytes, double seconds)
            throws InterruptedException {
        int payload = recordBytes - 16; // JournalSegment's framing: length, sequence number, CRC
        if (payload < 12) {
            throw new IllegalArgumentException("--record-bytes " + recordBytes + " leaves no room for a note id");
        }
        Path dir;
        try {
            Files.createDirectories(parent);
            dir = Files.createTempDirectory(parent, "journal-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a benchmark directory under " + parent, e);
        }
        // No checkpoint is ever due: the floor is above anything a run writes.
        Journal.Options options = new Journal.Options(commit, 2.0, Long.MAX_VALUE / 4);
        Journal<byte[], byte[]> journal = Journal.open(dir, BYTES, options);
        LongAdder ops = new LongAdder();
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        List<RuntimeException> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread w = new Thread(() -> {
                try {
                    start.await();
                    for (long n = 0; !stop.get(); n++) {
                        // A note id (client, number) and a K/D change, padded to the record size.
                        byte[] op = new byte[payload];
                        ByteBuffer.wrap(op).putInt(thread).putLong(n);
                        op[12 % payload] = (byte) 'K';
                        journal.appendAndCommit(op);
                        ops.increment();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }, "journal-bench-" + t);
            workers.add(w);
            w.start();
        }
        long forcesBefore = journal.stats().forces();
        long t0 = System.nanoTime();
        start.countDown();
        Thread.sleep((long) (seconds * 1000));
        stop.set(true);
        for (Thread w : workers) {
            w.join();
        }
        // Every thread has stopped: the commits in flight at the deadline are counted with the time
        // they took, and every fsync belongs to a counted commit.
        double elapsed = (System.nanoTime() - t0) / 1e9;
        long counted = ops.sum();
        long forces = journal.stats().forces() - forcesBefore;
        journal.close();
        delete(dir);
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        return new Run(commit, counted, forces, elapsed);
    }

    private static void delete(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete benchmark directory " + dir, e);
        }
    }
}
