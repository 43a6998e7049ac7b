package dev.onceproof.conformance.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.tlc.TlcJobs;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Checks that traces/ holds exactly what the specs generate today: a stored trace that the spec no
 * longer produces, one that is missing, or one no manifest entry makes is a failure naming the file.
 * This is what keeps stored traces tied to the current spec.
 *
 * <p>Two modes. {@link Mode#REGENERATE_ALL} (the thorough one, {@code ./onceproof traces check})
 * runs TLC for every trace and compares bytes. {@link Mode#BY_INPUTS} ({@code ./onceproof verify})
 * runs TLC only for the traces whose header does not match: a stored file whose digest matches its
 * own bytes and whose inputs hash equals the hash of today's inputs ({@link TraceInputs}) is what the
 * generator wrote from exactly these inputs, and generation is deterministic, so regenerating it would
 * give the same bytes. Every other file is regenerated and compared byte for byte, as in the
 * thorough mode, so a stale file is reported the same way in both.
 */
public final class StalenessCheck {

    public enum Mode { REGENERATE_ALL, BY_INPUTS }

    /** A trace file a manifest entry makes: entry with seed (null for a targeted entry). */
    public record Expected(TraceEntry entry, Long seed, String fileName) {
    }

    /**
     * What a check of one family has to do.
     *
     * @param regenerate the traces TLC must make again (every one in the thorough mode), entries' order
     * @param unchanged  stored traces shown fresh by their header (inputs and digest)
     * @param extras     one problem per stored file no manifest entry makes
     */
    public record Plan(String family, List<Expected> regenerate, List<Expected> unchanged, List<String> extras) {
    }

    /**
     * @param problems  one line per stale, missing or extra file; empty when traces/ is fresh
     * @param generated the traces TLC made again
     * @param unchanged the stored traces shown fresh by their header, as read from traces/
     */
    public record Report(List<String> problems, List<GeneratedTrace> generated, List<GeneratedTrace> unchanged) {

        public boolean fresh() {
            return problems.isEmpty();
        }
    }

    private StalenessCheck() {
    }

    /** The thorough check: every trace regenerated and compared byte for byte. */
    public static Report check(Repo repo, Manifest manifest, String family, TraceGenerator generator) {
        return check(repo, manifest, family, generator, Mode.REGENERATE_ALL);
    }

    public static Report check(Repo repo, Manifest manifest, String family, TraceGenerator generator, Mode mode) {
        Plan plan = plan(repo, manifest, family, generator.inputs(), mode);
        List<GeneratedTrace> made = TlcJobs.map(plan.regenerate(), TlcJobs.defaultJobs(),
                e -> generator.generate(e.entry(), e.seed()), (i, t) -> { });
        return compare(repo, plan, made);
    }

    /** Which traces of the family must be regenerated; reads traces/ and hashes inputs, runs no TLC. */
    public static Plan plan(Repo repo, Manifest manifest, String family, TraceInputs inputs, Mode mode) {
        List<Expected> expected = new ArrayList<>();
        for (TraceEntry e : manifest.traces()) {
            if (!e.family().equals(family)) {
                continue;
            }
            if (e.kind() == TraceEntry.Kind.TARGETED) {
                expected.add(new Expected(e, null, e.fileStem(null) + ".jsonl"));
            } else {
                e.seeds().forEach(seed -> expected.add(new Expected(e, seed, e.fileStem(seed) + ".jsonl")));
            }
        }
        Path dir = repo.traces().resolve(family);
        List<Expected> regenerate = new ArrayList<>();
        List<Expected> unchanged = new ArrayList<>();
        for (Expected x : expected) {
            boolean same = mode == Mode.BY_INPUTS && matchesInputs(dir.resolve(x.fileName()), inputs, x);
            (same ? unchanged : regenerate).add(x);
        }
        List<String> extras = new ArrayList<>();
        Set<String> names = new TreeSet<>(storedNames(dir));
        expected.forEach(x -> names.remove(x.fileName()));
        for (String extra : names) {
            extras.add("extra: " + repo.root().relativize(dir.resolve(extra)) + " is made by no manifest entry"
                    + " (delete it, or add its entry to specs/manifest.json)");
        }
        return new Plan(family, regenerate, unchanged, extras);
    }

    /** Compares what TLC made again (plan.regenerate()'s traces, in its order) with traces/. */
    public static Report compare(Repo repo, Plan plan, List<GeneratedTrace> made) {
        if (made.size() != plan.regenerate().size()) {
            throw new IllegalArgumentException("the plan regenerates " + plan.regenerate().size() + " traces of "
                    + plan.family() + ", given " + made.size());
        }
        List<String> problems = new ArrayList<>();
        Path dir = repo.traces().resolve(plan.family());
        for (int i = 0; i < made.size(); i++) {
            GeneratedTrace t = made.get(i);
            Path stored = dir.resolve(t.fileName());
            String rel = repo.root().relativize(stored).toString();
            String fix = " (run " + TraceGenerator.command(plan.regenerate().get(i).entry()) + ")";
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
        problems.addAll(plan.extras());
        List<GeneratedTrace> unchanged = new ArrayList<>();
        for (Expected x : plan.unchanged()) {
            Path stored = dir.resolve(x.fileName());
            String text = read(stored);
            Set<String> taken = new TreeSet<>();
            TraceCodec.parse(stored, text).steps().stream().skip(1).forEach(s -> taken.add(s.action()));
            unchanged.add(new GeneratedTrace(plan.family(), x.fileName(), text, taken, List.of()));
        }
        return new Report(problems, made, unchanged);
    }

    private static boolean matchesInputs(Path stored, TraceInputs inputs, Expected x) {
        if (!Files.isRegularFile(stored)) {
            return false;
        }
        String text = read(stored);
        if (TraceCodec.notAsWritten(text) != null) {
            return false;
        }
        try {
            JsonNode header = CanonicalJson.read(text.substring(0, text.indexOf('\n')));
            return header.path("inputs").asText("").equals(inputs.hash(x.entry(), x.seed()));
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    private static Set<String> storedNames(Path dir) {
        Set<String> names = new TreeSet<>();
        if (!Files.isDirectory(dir)) {
            return names;
        }
        try (Stream<Path> files = Files.list(dir)) {
            files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".jsonl")).forEach(names::add);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
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
