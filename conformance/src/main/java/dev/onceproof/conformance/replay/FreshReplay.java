package dev.onceproof.conformance.replay;

import com.google.common.io.MoreFiles;
import com.google.common.io.RecursiveDeleteOption;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.trace.GeneratedTrace;
import dev.onceproof.conformance.trace.TraceGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Traces the stored set does not hold: each simulation entry run with new seeds into a temp dir and
 * replayed, so every run of the suite explores behaviours beyond the stored ones. The seeds are
 * printed with any failure, and `./onceproof traces generate` with them reproduces the trace. The
 * temp dir is removed after a passing run.
 */
public final class FreshReplay {

    private FreshReplay() {
    }

    /** New seeds from a base, avoiding the entry's own seeds. */
    public static List<Long> seeds(TraceEntry entry, long base, int count) {
        Random r = new Random(base ^ entry.name().hashCode());
        List<Long> out = new ArrayList<>();
        while (out.size() < count) {
            long s = 1000 + Math.floorMod(r.nextLong(), 1_000_000_000L);
            if (!entry.seeds().contains(s) && !out.contains(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /**
     * Generates fresh simulation traces of the entries into a new directory under tempRoot and
     * replays each. The directory is deleted before returning when every replay passed, so runs do
     * not pile up in the temp folder; when one failed it is kept, since the failure's report names
     * the file in it (the seed base printed with it regenerates the file anyway).
     */
    public static List<ReplayResult> run(List<TraceEntry> entries, TraceGenerator generator, TraceReplayer replayer,
                                         long base, int count, Path tempRoot) {
        List<TraceEntry> sims = entries.stream().filter(e -> e.kind() == TraceEntry.Kind.SIMULATE).toList();
        return replay(generator.generateAll(sims, e -> seeds(e, base, count)), replayer, tempRoot);
    }

    /**
     * Replays fresh traces made elsewhere (./onceproof verify makes them in its pool of TLC runs)
     * from a new directory under tempRoot, removed as {@link #run} removes its own.
     */
    public static List<ReplayResult> replay(List<GeneratedTrace> traces, TraceReplayer replayer, Path tempRoot) {
        Path dir;
        try {
            dir = Files.createTempDirectory(tempRoot, "onceproof-fresh");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a directory for fresh traces under " + tempRoot, e);
        }
        return replayIn(dir, traces, replayer);
    }

    private static List<ReplayResult> replayIn(Path dir, List<GeneratedTrace> traces, TraceReplayer replayer) {
        boolean keep = false;
        try {
            List<ReplayResult> results = new ArrayList<>();
            for (Path p : TraceGenerator.write(dir, traces)) {
                results.add(replayer.replay(p));
            }
            keep = results.stream().anyMatch(r -> !r.passed());
            return results;
        } finally {
            if (!keep) {
                delete(dir);
            }
        }
    }

    /** {@link #run(List, TraceGenerator, TraceReplayer, long, int, Path)} under the system temp folder. */
    public static List<ReplayResult> run(List<TraceEntry> entries, TraceGenerator generator, TraceReplayer replayer,
                                         long base, int count) {
        return run(entries, generator, replayer, base, count, Path.of(System.getProperty("java.io.tmpdir")));
    }

    private static void delete(Path dir) {
        try {
            // The directory is ours (created above with owner-only permissions), so a platform
            // without SecureDirectoryStream may delete it the plain way.
            MoreFiles.deleteRecursively(dir, RecursiveDeleteOption.ALLOW_INSECURE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete the fresh traces in " + dir, e);
        }
    }
}
