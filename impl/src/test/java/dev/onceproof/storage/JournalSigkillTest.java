package dev.onceproof.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Recovery across a real process kill: a {@link JournalChild} JVM appends, commits and
 * checkpoints with real fsyncs on this machine's disk until it is killed with SIGKILL; then the
 * journal opens with every note the child reported committed (it prints a note only after its
 * commit returned), once each. Three incarnations on one directory, each recovering what the
 * previous left, torn tail and half-done compaction included.
 */
class JournalSigkillTest {

    static final int INCARNATIONS = 3;
    static final int THREADS = 8;
    /** Commits each incarnation reports before it is killed. */
    static final int COMMITS = 1500;

    @TempDir
    Path dir;

    final Set<String> reported = new LinkedHashSet<>();
    int checkpoints;

    @Test
    @Timeout(180)
    void everyOperationAChildReportedCommittedIsRecoveredAfterASigkill() throws Exception {
        for (int inc = 1; inc <= INCARNATIONS; inc++) {
            int committedNow = runAndKill(inc, Journal.Defect.NONE);
            try (Journal<List<String>, String> j = reopen()) {
                List<String> notes = notes(j);
                assertThat(new HashSet<>(notes)).as("incarnation %d", inc).containsAll(reported);
                assertThat(notes).doesNotHaveDuplicates();
                System.out.println("incarnation " + inc + ": SIGKILLed after " + committedNow + " reported commits; "
                        + notes.size() + " notes recovered (checkpoint through " + j.recovered().checkpointSeq()
                        + ", " + j.recovered().operations().size() + " operations after it), " + reported.size()
                        + " reported in all, " + checkpoints + " checkpoints reported");
            }
        }
        assertThat(checkpoints).as("the kills happened with compaction going on").isPositive();
    }

    /**
     * Control: a journal whose commit returns while its record is still queued in memory lets the
     * child report notes that die with it. The window is the time a record waits in the queue, which
     * an fsync takes to pass, so a kill almost always lands in it; three tries make a miss unlikely.
     */
    @Test
    @Timeout(180)
    void controlACommitReturningBeforeTheWriteLosesReportedOperations() throws Exception {
        Set<String> lost = new HashSet<>();
        for (int inc = 1; inc <= 3 && lost.isEmpty(); inc++) {
            runAndKill(inc, Journal.Defect.COMMIT_RETURNS_BEFORE_WRITE);
            try (Journal<List<String>, String> j = reopen()) {
                lost.addAll(reported);
                lost.removeAll(notes(j));
            }
        }
        System.out.println("control: " + lost.size() + " of " + reported.size() + " reported notes lost");
        assertThat(lost).isNotEmpty();
    }

    Journal<List<String>, String> reopen() {
        return Journal.open(dir.resolve("journal"), Notes.CODEC, Journal.Options.defaults());
    }

    /** The notes' names, without their padding, in journal order. */
    static List<String> notes(Journal<List<String>, String> j) {
        return Notes.recoveredState(j).stream().map(s -> s.substring(0, s.indexOf(' '))).toList();
    }

    /** Starts incarnation {@code inc}, reads its reports until COMMITS commits, SIGKILLs it. */
    int runAndKill(int inc, Journal.Defect defect) throws Exception {
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), JournalChild.class.getName(),
                dir.resolve("journal").toString(), "" + inc, "" + THREADS, defect.name());
        Path err = dir.resolve("child-" + inc + ".err");
        Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> read(p, lines), "child-" + inc + "-stdout");
        reader.setDaemon(true);
        reader.start();
        int committedNow = 0;
        try {
            while (committedNow < COMMITS || checkpoints == 0) {
                String line = lines.poll(60, TimeUnit.SECONDS);
                assertThat(line).as("child %d still printing (see %s)", inc, err).isNotNull().isNotEqualTo(EOF);
                if (line.startsWith("recovered ") && defect == Journal.Defect.NONE) {
                    assertThat(Long.parseLong(line.substring(10))).as("the child recovered every reported note")
                            .isGreaterThanOrEqualTo(reported.size());
                }
                committedNow += take(line);
            }
        } finally {
            p.toHandle().destroyForcibly(); // SIGKILL on Linux, through the handle so stdout stays readable
            assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(p.exitValue()).as("killed by SIGKILL").isEqualTo(137);
        reader.join(10_000);
        // Lines the child printed before it died are reports too.
        for (String line : drain(lines)) {
            committedNow += take(line);
        }
        return committedNow;
    }

    /** Records a report line; 1 if it reported a commit. */
    private int take(String line) {
        if (line.startsWith("committed ")) {
            reported.add(line.substring(10));
            return 1;
        }
        if (line.startsWith("checkpoint ")) {
            checkpoints++;
        }
        return 0;
    }

    static final String EOF = "\u0000eof";

    private static void read(Process p, BlockingQueue<String> lines) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.US_ASCII))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
            }
        } catch (java.io.IOException e) {
            // killed
        }
        lines.add(EOF);
    }

    private static List<String> drain(BlockingQueue<String> lines) {
        List<String> rest = new ArrayList<>();
        lines.drainTo(rest);
        return rest;
    }
}
