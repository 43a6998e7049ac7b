package dev.onceproof.conformance.trace;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Regenerates a family's traces and compares them byte for byte with traces/: a stored trace that
 * the spec no longer produces, one that is missing, or one no manifest entry makes is a failure
 * naming the file. This is what keeps stored traces tied to the current spec.
 */
public final class StalenessCheck {

    /** @param problems one line per stale, missing or extra file; empty when traces/ is fresh */
    public record Report(List<String> problems, List<GeneratedTrace> generated) {

        public boolean fresh() {
            return problems.isEmpty();
        }
    }

    private StalenessCheck() {
    }

    public static Report check(Repo repo, Manifest manifest, String family, TraceGenerator generator) {
        List<TraceEntry> entries = manifest.traces().stream().filter(t -> t.family().equals(family))
                .collect(Collectors.toList());
        List<String> problems = new ArrayList<>();
        List<GeneratedTrace> generated = new ArrayList<>();
        Map<String, TraceEntry> madeBy = new HashMap<>();
        for (TraceEntry e : entries) {
            if (e.kind() == TraceEntry.Kind.TARGETED) {
                madeBy.put(e.fileStem(null) + ".jsonl", e);
            } else {
                e.seeds().forEach(seed -> madeBy.put(e.fileStem(seed) + ".jsonl", e));
            }
        }
        generated.addAll(generator.generateAll(entries, TraceEntry::seeds));
        Path dir = repo.traces().resolve(family);
        for (GeneratedTrace t : generated) {
            Path stored = dir.resolve(t.fileName());
            String rel = repo.root().relativize(stored).toString();
            String fix = " (run " + TraceGenerator.command(madeBy.get(t.fileName())) + ")";
            if (!Files.isRegularFile(stored)) {
                problems.add("missing: " + rel + fix);
                continue;
            }
            String old = read(stored);
            if (!old.equals(t.content())) {
                problems.add("stale: " + rel + " differs from a fresh generation at line "
                        + firstDifferentLine(old, t.content()) + fix);
            }
        }
        for (String extra : extras(dir, generated)) {
            problems.add("extra: " + repo.root().relativize(dir.resolve(extra)) + " is made by no manifest entry"
                    + " (delete it, or add its entry to specs/manifest.json)");
        }
        return new Report(problems, generated);
    }

    private static Set<String> extras(Path dir, List<GeneratedTrace> generated) {
        Set<String> names = new TreeSet<>();
        if (!Files.isDirectory(dir)) {
            return names;
        }
        try (Stream<Path> files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jsonl")).forEach(names::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
        generated.forEach(t -> names.remove(t.fileName()));
        return names;
    }

    static int firstDifferentLine(String a, String b) {
        String[] x = a.split("\n", -1);
        String[] y = b.split("\n", -1);
        for (int i = 0; i < Math.min(x.length, y.length); i++) {
            if (!x[i].equals(y[i])) {
                return i + 1;
            }
        }
        return Math.min(x.length, y.length) + 1;
    }

    private static String read(Path p) {
        try {
            return Files.readString(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p, e);
        }
    }
}
