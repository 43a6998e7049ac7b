package dev.onceproof.storage;

import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The process {@link JournalSigkillTest} kills: opens the journal in {@code args[0]} (recovering it),
 * then {@code args[2]} threads append and commit notes of about 100 bytes in a loop, each printing
 * {@code committed <note>} only after its commit returned, and checkpoint whenever one is due, until
 * the process is killed. Notes are named {@code i<incarnation args[1]>-t<thread>-<n>}. An optional
 * {@code args[3]} names a {@link Journal.Defect} to inject, for the test's control.
 */
public final class JournalChild {

    private JournalChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String incarnation = args[1];
        int threads = Integer.parseInt(args[2]);
        // Our own stream, flushed per line under its lock: a line is out only once its commit returned.
        PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.US_ASCII);
        // Small checkpoints often, so the kill can land in a compaction too.
        Journal.Options options = new Journal.Options(Journal.Commit.GROUP, 2.0, 8 << 10);
        Journal.Defect defect = args.length > 3 ? Journal.Defect.valueOf(args[3]) : Journal.Defect.NONE;
        Journal<List<String>, String> journal = Journal.open(dir, Notes.CODEC, options, JournalDisk.REAL, defect,
                Journal.StepHook.NONE);
        List<String> state = new ArrayList<>(Notes.recoveredState(journal));
        synchronized (out) {
            out.println("recovered " + state.size());
            out.flush();
        }
        AtomicBoolean checkpointing = new AtomicBoolean();
        String padding = "K+ D- " + "x".repeat(70);
        for (int t = 0; t < threads; t++) {
            int thread = t;
            Thread worker = new Thread(() -> {
                for (long n = 0; ; n++) {
                    String note = "i" + incarnation + "-t" + thread + "-" + n;
                    long seq;
                    // The state and the journal's order agree: both change under this lock.
                    synchronized (state) {
                        seq = journal.append(note + " " + padding);
                        state.add(note + " " + padding);
                    }
                    journal.commit(seq);
                    synchronized (out) {
                        out.println("committed " + note);
                        out.flush();
                    }
                    if (journal.checkpointDue() && checkpointing.compareAndSet(false, true)) {
                        try {
                            List<String> copy;
                            long through;
                            synchronized (state) {
                                copy = List.copyOf(state);
                                through = journal.lastSeq();
                            }
                            journal.checkpoint(copy, through);
                            synchronized (out) {
                                out.println("checkpoint " + through);
                                out.flush();
                            }
                        } finally {
                            checkpointing.set(false);
                        }
                    }
                }
            }, "appender-" + t);
            worker.start();
        }
        synchronized (out) {
            out.println("ready");
            out.flush();
        }
    }
}
