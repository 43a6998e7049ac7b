package dev.onceproof.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit: a commit returns only once its operation is forced, one fsync covers every operation
 * written since the previous one, and appenders never wait for the disk.
 */
@Timeout(120)
class JournalGroupCommitTest {

    static final int WAITERS = 8;

    @TempDir
    Path dir;

    final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    /** Threads appending and committing; returns every operation whose commit returned. */
    List<String> appendConcurrently(Journal<List<String>, String> j, int threads, int each) throws Exception {
        ConcurrentLinkedQueue<String> committed = new ConcurrentLinkedQueue<>();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int thread = t;
            done.add(pool.submit(() -> {
                for (int i = 0; i < each; i++) {
                    String op = "note t" + thread + "-" + i + " K+";
                    j.appendAndCommit(op);
                    committed.add(op);
                }
            }));
        }
        for (Future<?> f : done) {
            f.get(60, TimeUnit.SECONDS);
        }
        return new ArrayList<>(committed);
    }

    @Test
    void everyCommittedOperationOfConcurrentAppendersSurvivesAPowerLoss() throws Exception {
        TestDisks.PowerLoss disk = new TestDisks.PowerLoss();
        Journal<List<String>, String> j = TestDisks.open(dir, disk, Journal.Defect.NONE);
        List<String> committed = appendConcurrently(j, 16, 100);
        // Some appended but not committed: the power loss may take them.
        j.append("never committed");
        j.abandon();
        disk.powerLoss(dir);
        try (Journal<List<String>, String> again = TestDisks.open(dir, disk, Journal.Defect.NONE)) {
            List<String> recovered = again.recovered().operations();
            assertThat(recovered).containsAll(committed).doesNotHaveDuplicates();
            assertThat(recovered.size()).isBetween(committed.size(), committed.size() + 1);
            // Each thread's operations in the order it committed them.
            for (int t = 0; t < 16; t++) {
                String prefix = "note t" + t + "-";
                assertThat(recovered.stream().filter(o -> o.startsWith(prefix)).toList())
                        .isEqualTo(committed.stream().filter(o -> o.startsWith(prefix))
                                .sorted(java.util.Comparator.comparingInt(JournalGroupCommitTest::index)).toList());
            }
        }
    }

    static int index(String op) {
        return Integer.parseInt(op.substring(op.indexOf('-') + 1, op.indexOf(' ', op.indexOf('-'))));
    }

    /** Control: a commit acknowledged without its fsync loses committed operations in a power loss. */
    @Test
    void controlAcknowledgingWithoutTheFsyncLosesCommittedOperations() throws Exception {
        TestDisks.PowerLoss disk = new TestDisks.PowerLoss();
        Journal<List<String>, String> j = TestDisks.open(dir, disk, Journal.Defect.ACKNOWLEDGED_WITHOUT_FORCE);
        List<String> committed = appendConcurrently(j, 4, 25);
        j.abandon();
        disk.powerLoss(dir);
        try (Journal<List<String>, String> again = TestDisks.open(dir, disk, Journal.Defect.NONE)) {
            Set<String> recovered = new HashSet<>(again.recovered().operations());
            assertThat(committed).hasSize(100).anyMatch(op -> !recovered.contains(op));
        }
    }

    /**
     * While the leader's fsync is held, the other threads append (they do not wait for the disk)
     * and then wait; one further fsync then covers all of them: 1 + WAITERS commits, 2 fsyncs.
     */
    @Test
    void oneFsyncCoversEveryOperationWrittenSinceTheLastAndAppendersDoNotWaitForIt() throws Exception {
        TestDisks.Gate disk = new TestDisks.Gate();
        try (Journal<List<String>, String> j = TestDisks.open(dir, disk, Journal.Defect.NONE)) {
            long forcesBefore = j.stats().forces();
            disk.arm();
            Future<Long> leader = pool.submit(() -> j.appendAndCommit("leader"));
            assertThat(disk.entered.await(30, TimeUnit.SECONDS)).as("leader in its fsync").isTrue();
            List<Future<Long>> appended = new ArrayList<>();
            List<CompletableFuture<Void>> committed = new ArrayList<>();
            for (int t = 0; t < WAITERS; t++) {
                int thread = t;
                CompletableFuture<Void> c = new CompletableFuture<>();
                committed.add(c);
                appended.add(pool.submit(() -> {
                    long seq = j.append("waiter " + thread);
                    pool.submit(() -> {
                        j.commit(seq);
                        c.complete(null);
                    });
                    return seq;
                }));
            }
            for (Future<Long> a : appended) {
                a.get(30, TimeUnit.SECONDS); // every append returned while the fsync is held
            }
            assertThat(leader.isDone()).as("leader still in its fsync").isFalse();
            assertThat(committed).noneMatch(CompletableFuture::isDone);
            disk.release();
            assertThat(leader.get(30, TimeUnit.SECONDS)).isEqualTo(1);
            CompletableFuture.allOf(committed.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
            assertThat(j.stats().forces() - forcesBefore).as("fsyncs for %d commits", 1 + WAITERS).isEqualTo(2);
            assertThat(j.stats().durableSeq()).isEqualTo(1 + WAITERS);
        }
    }

    /**
     * A failed fsync: the leader and every committer parked behind it throw; none returns as if its
     * operation were durable, and none stays parked (committers park one by one, so the failure
     * must wake them all, not only the next leader).
     */
    @Test
    void aFailedFsyncWakesEveryParkedCommitterToThrow() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch released = new CountDownLatch(1);
        JournalDisk failing = new JournalDisk() {
            @Override
            public void force(FileChannel channel, Path file) throws IOException {
                if (channel.size() > JournalSegment.HEADER) {
                    entered.countDown();
                    try {
                        released.await();
                    } catch (InterruptedException e) {
                        throw new InterruptedIOException();
                    }
                    throw new IOException("the disk is gone (test)");
                }
            }

            @Override
            public void forceDirectory(Path d) {
            }
        };
        Journal<List<String>, String> j = TestDisks.open(dir, failing, Journal.Defect.NONE);
        Future<Long> leader = pool.submit(() -> j.appendAndCommit("leader"));
        assertThat(entered.await(30, TimeUnit.SECONDS)).as("leader in its fsync").isTrue();
        List<Thread> threads = new java.util.concurrent.CopyOnWriteArrayList<>();
        List<Future<Long>> waiters = new ArrayList<>();
        for (int t = 0; t < WAITERS; t++) {
            int thread = t;
            waiters.add(pool.submit(() -> {
                threads.add(Thread.currentThread());
                return j.appendAndCommit("waiter " + thread);
            }));
        }
        // Every waiter appended and parked (the append lock is free once all have appended, so
        // WAITING is the commit's park) before the fsync fails.
        while (j.lastSeq() < 1 + WAITERS || threads.size() < WAITERS
                || threads.stream().anyMatch(th -> th.getState() != Thread.State.WAITING)) {
            Thread.onSpinWait();
        }
        released.countDown();
        assertThatThrownBy(() -> leader.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(UncheckedIOException.class);
        for (Future<Long> w : waiters) {
            assertThatThrownBy(() -> w.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(UncheckedIOException.class);
        }
        assertThat(j.stats().durableSeq()).isZero();
        j.abandon();
    }

    /** Control: one fsync per operation, the same scenario takes one fsync per commit. */
    @Test
    void controlPerOperationCommitTakesAnFsyncPerCommit() throws Exception {
        TestDisks.Gate disk = new TestDisks.Gate();
        try (Journal<List<String>, String> j = Journal.open(dir, Notes.CODEC,
                Journal.Options.defaults().with(Journal.Commit.PER_OPERATION), disk, Journal.Defect.NONE,
                Journal.StepHook.NONE)) {
            long forcesBefore = j.stats().forces();
            disk.arm();
            Future<Long> leader = pool.submit(() -> j.appendAndCommit("leader"));
            assertThat(disk.entered.await(30, TimeUnit.SECONDS)).isTrue();
            List<Future<Long>> waiters = new ArrayList<>();
            for (int t = 0; t < WAITERS; t++) {
                int thread = t;
                waiters.add(pool.submit(() -> j.appendAndCommit("waiter " + thread)));
            }
            while (j.lastSeq() < 1 + WAITERS) {
                Thread.onSpinWait();
            }
            disk.release();
            leader.get(30, TimeUnit.SECONDS);
            for (Future<Long> w : waiters) {
                w.get(30, TimeUnit.SECONDS);
            }
            assertThat(j.stats().forces() - forcesBefore).isEqualTo(1 + WAITERS);
        }
    }

    /**
     * Control: a leader that holds the append lock across its fsync makes appenders wait for the
     * disk. (The only timed wait here, and only in this control: the append stays blocked for as
     * long as the fsync is held, so any wait shows it.)
     */
    @Test
    void controlHoldingTheAppendLockAcrossTheFsyncBlocksAppenders() throws Exception {
        TestDisks.Gate disk = new TestDisks.Gate();
        try (Journal<List<String>, String> j = TestDisks.open(dir, disk, Journal.Defect.APPEND_LOCK_HELD_ACROSS_FORCE)) {
            disk.arm();
            Future<Long> leader = pool.submit(() -> j.appendAndCommit("leader"));
            assertThat(disk.entered.await(30, TimeUnit.SECONDS)).isTrue();
            Future<Long> append = pool.submit(() -> j.append("blocked"));
            assertThat(catchTimeout(append)).as("append waits for the fsync").isTrue();
            disk.release();
            assertThat(append.get(30, TimeUnit.SECONDS)).isEqualTo(2);
            leader.get(30, TimeUnit.SECONDS);
        }
    }

    private static boolean catchTimeout(Future<?> f) throws Exception {
        try {
            f.get(300, TimeUnit.MILLISECONDS);
            return false;
        } catch (TimeoutException e) {
            return true;
        }
    }
}
