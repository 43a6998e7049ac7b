package dev.onceproof.conformance.replay;

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
 * printed with any failure, and `./onceproof traces generate` with them reproduces the trace.
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

    /** Generates fresh simulation traces of the entries into dir and replays each; returns the results. */
    public static List<ReplayResult> run(List<TraceEntry> entries, TraceGenerator generator, TraceReplayer replayer,
                                         long base, int count, Path dir) {
        List<TraceEntry> sims = entries.stream().filter(e -> e.kind() == TraceEntry.Kind.SIMULATE).toList();
        List<GeneratedTrace> traces = generator.generateAll(sims, e -> seeds(e, base, count));
        List<ReplayResult> results = new ArrayList<>();
        for (Path p : TraceGenerator.write(dir, traces)) {
            results.add(replayer.replay(p));
        }
        return results;
    }

    public static Path tempDir() {
        try {
            return Files.createTempDirectory("onceproof-fresh");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
