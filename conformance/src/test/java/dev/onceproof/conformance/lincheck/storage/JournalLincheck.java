package dev.onceproof.conformance.lincheck.storage;

import dev.onceproof.storage.Journal;
import dev.onceproof.storage.JournalSeams;
import dev.onceproof.storage.SnapshotBackwardsException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;

/**
 * The operations Lincheck runs on the real {@link Journal} (group commit): append, append and
 * commit, commit everything, and a checkpoint of the longest prefix whose operations the test has
 * seen appended, all from threads that share the journal. Besides linearizability (sequence numbers
 * are handed out as by one counter, {@link SequentialJournal}), two checks on every explored
 * interleaving:
 * <ul>
 * <li><b>CommitMeansDurable</b>: when a commit returns, the journal counts its operation durable
 *     (forced), checked by the committing thread at once, while other threads may still be writing;
 * <li><b>CommittedSurvives</b>, at the end: the process dies without writing what is queued and
 *     the power fails (what no fsync covered is cut away, {@link JournalSeams#powerLossAndRecover});
 *     the reopened journal recovers, in sequence order, exactly a prefix of what was appended, and
 *     every operation whose commit returned is in it.
 * </ul>
 * Subclasses pick the journal's defect; {@code "NONE"} is the class as it ships.
 */
@Param(name = "op", gen = IntGen.class, conf = "1:3")
public abstract class JournalLincheck {

    private final String defect;
    /** Built on first use: Lincheck 2.39 cannot walk the records a journal holds (lincheck#402). */
    private volatile JournalSeams seams;
    private Path dir;
    /** Every operation whose append returned, by sequence number. */
    private final Map<Long, String> appended = new ConcurrentHashMap<>();
    /** The highest sequence number some returned commit covers. */
    private final AtomicLong committedThrough = new AtomicLong();
    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();

    JournalLincheck(String defect) {
        this.defect = defect;
    }

    private Journal<List<String>, String> journal() {
        JournalSeams s = seams;
        if (s != null) {
            return s.journal();
        }
        synchronized (this) {
            if (seams == null) {
                try {
                    dir = Files.createTempDirectory("journal-lincheck");
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot create a temporary journal directory", e);
                }
                seams = new JournalSeams(dir, Journal.Options.defaults(), defect);
            }
            return seams.journal();
        }
    }

    /** Not an operation: opens the journal before a targeted scenario (see the Scenarios class). */
    public void prelude() {
        journal();
    }

    @Operation
    public long append(@Param(name = "op") int op) {
        String o = "op" + op;
        long seq = journal().append(o);
        appended.put(seq, o);
        return seq;
    }

    @Operation
    public long appendAndCommit(@Param(name = "op") int op) {
        String o = "op" + op;
        long seq = journal().appendAndCommit(o);
        appended.put(seq, o);
        committed(seq);
        return seq;
    }

    /** Commits everything appended so far, whatever thread appended it. */
    @Operation
    public void commit() {
        Journal<List<String>, String> j = journal();
        long through = j.lastSeq();
        j.commit();
        committed(through);
    }

    /**
     * A checkpoint of operations 1..k, k the longest run of sequence numbers this test has seen
     * appended (an append in flight ends it). Refused, as the journal must, when a concurrent
     * checkpoint already went further.
     */
    @Operation
    public void checkpoint() {
        Journal<List<String>, String> j = journal();
        List<String> prefix = new ArrayList<>();
        for (long seq = 1; appended.containsKey(seq); seq++) {
            prefix.add(appended.get(seq));
        }
        try {
            j.checkpoint(JournalSeams.state(prefix), prefix.size());
        } catch (SnapshotBackwardsException e) {
            // another checkpoint covered more first: the journal keeps the newer one
        }
    }

    private void committed(long seq) {
        long durable = journal().stats().durableSeq();
        if (durable < seq) {
            violations.add("(CommitMeansDurable) commit of " + seq + " returned with only " + durable + " durable");
        }
        committedThrough.accumulateAndGet(seq, Math::max);
    }

    @Validate
    public void committedSurvivesPowerLoss() {
        journal();
        try {
            if (!violations.isEmpty()) {
                throw new IllegalStateException(String.join("; ", violations));
            }
            List<String> recovered = seams.powerLossAndRecover();
            for (int i = 0; i < recovered.size(); i++) {
                if (!recovered.get(i).equals(appended.get(i + 1L))) {
                    throw new IllegalStateException("(CommittedSurvives) recovered " + recovered
                            + " is not a prefix of what was appended " + appended);
                }
            }
            if (recovered.size() < committedThrough.get()) {
                throw new IllegalStateException("(CommittedSurvives) committed through " + committedThrough.get()
                        + " but a power loss leaves only " + recovered + " of " + appended);
            }
        } finally {
            delete(dir);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a temporary directory left behind loses nothing
        }
    }
}
