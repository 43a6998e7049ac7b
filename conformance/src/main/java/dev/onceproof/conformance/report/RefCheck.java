package dev.onceproof.conformance.report;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Every ref of a statements file must resolve, or the proof map cites evidence nobody runs: a model,
 * mutant or expected counterexample is a manifest model of the family (a model must be expected to
 * pass, the others to violate the property they name); a model's control violates the model's
 * property; a trace is a manifest trace entry with a stored file, or a file under traces/; a test is a
 * class under some module's src/test/java (and the method is in it); a claim is an id of the family's
 * committed bench results.
 */
public final class RefCheck {

    /** The modules whose src/test/java a test ref may live in. */
    static final List<String> MODULES = List.of("impl", "conformance", "bench");

    private final Repo repo;
    private final Map<String, ModelEntry> models;
    private final Map<String, TraceEntry> traces;

    public RefCheck(Repo repo, Manifest manifest) {
        this.repo = repo;
        this.models = manifest.models().stream().collect(Collectors.toMap(ModelEntry::name, Function.identity()));
        this.traces = manifest.traces().stream().collect(Collectors.toMap(TraceEntry::name, Function.identity()));
    }

    /** Every unresolved ref of the family's file, one line each naming file, statement and evidence. */
    public List<String> problems(FamilyStatements fs) {
        Claims claims = Claims.load(repo, fs.family());
        List<String> out = new ArrayList<>();
        Path file = repo.root().relativize(FamilyStatements.file(repo, fs.family()));
        for (Statement s : fs.statements()) {
            for (int i = 0; i < s.evidence().size(); i++) {
                Evidence e = s.evidence().get(i);
                String where = file + ": statement " + s.id() + ", evidence " + (i + 1) + " (" + e.kind().json() + " "
                        + e.ref() + "): ";
                check(fs.family(), e, claims).ifPresent(p -> out.add(where + p));
            }
        }
        return out;
    }

    private Optional<String> check(String family, Evidence e, Claims claims) {
        return switch (e.kind()) {
            case MODEL -> model(family, e.ref(), true, e.property()).or(() -> control(family, e));
            case MUTANT, EXPECTED_COUNTEREXAMPLE -> model(family, e.ref(), false, e.property());
            case TRACE -> trace(family, e.ref());
            case TEST -> test(e.ref()).or(() -> e.control() == null ? Optional.empty()
                    : test(e.control()).map(p -> "control: " + p));
            case CLAIM -> claims.claims().containsKey(e.ref()) ? Optional.empty()
                    : Optional.of(claims.source() == null ? "the family has no bench/results/" + family
                            + "/claims.json or summary.txt" : "no such claim id in " + repo.root().relativize(claims.source()));
        };
    }

    private Optional<String> model(String family, String name, boolean mustPass, String property) {
        ModelEntry m = models.get(name);
        if (m == null) {
            return Optional.of("no model of that name in specs/manifest.json");
        }
        if (!m.family().equals(family)) {
            return Optional.of("the manifest puts it in family " + m.family());
        }
        if (mustPass && !m.expectsPass()) {
            return Optional.of("the manifest expects " + m.expect() + ", not pass: cite it as a mutant or expected-counterexample");
        }
        if (!mustPass && m.expectsPass()) {
            return Optional.of("the manifest expects it to pass: cite it as a model");
        }
        if (!mustPass && property != null && !property.equals(m.expect())) {
            return Optional.of("names property " + property + " but the manifest expects " + m.expect());
        }
        return Optional.empty();
    }

    private Optional<String> control(String family, Evidence e) {
        if (e.control() == null) {
            return Optional.empty();
        }
        ModelEntry c = models.get(e.control());
        if (c == null) {
            return Optional.of("control " + e.control() + " is not a model in specs/manifest.json");
        }
        if (!c.family().equals(family) || c.expectsPass()) {
            return Optional.of("control " + e.control() + " must be a model of family " + family
                    + " that violates a property (the manifest says " + c.family() + ", " + c.expect() + ")");
        }
        if (e.property() != null && !e.property().equals(c.expect())) {
            return Optional.of("control " + e.control() + " violates " + c.expect() + ", not " + e.property());
        }
        ModelEntry m = models.get(e.ref());
        if (m != null && m.simulated() && !m.simulate().equals(c.simulate())) {
            // A simulation's pass says something only if the same draw finds the control's violation.
            return Optional.of("control " + e.control() + " must be a simulation with the same settings as "
                    + e.ref() + " (" + m.simulate() + "), is " + (c.simulated() ? c.simulate() : "exhaustive"));
        }
        return Optional.empty();
    }

    private Optional<String> trace(String family, String ref) {
        if (ref.startsWith("traces/")) {
            return Files.isRegularFile(repo.root().resolve(ref)) ? Optional.empty() : Optional.of("no such file");
        }
        TraceEntry t = traces.get(ref);
        if (t == null) {
            return Optional.of("neither a trace entry of specs/manifest.json nor a path under traces/");
        }
        if (!t.family().equals(family)) {
            return Optional.of("the manifest puts it in family " + t.family());
        }
        return traceFiles(repo, t).isEmpty() ? Optional.of("no stored file traces/" + family + "/" + ref + "*.jsonl")
                : Optional.empty();
    }

    /** The stored files of a trace entry: NAME.jsonl (targeted) or NAME-seedN.jsonl (simulation). */
    static List<Path> traceFiles(Repo repo, TraceEntry t) {
        Path dir = repo.traces().resolve(t.family());
        Pattern own = Pattern.compile(Pattern.quote(t.name()) + "(-seed\\d+)?\\.jsonl");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> own.matcher(f.getFileName().toString()).matches()).sorted().toList();
        } catch (IOException e) {
            throw new StatementsException(dir, "cannot be listed: " + e);
        }
    }

    /** A test class by its fully qualified name, with an optional #method that must occur in it. */
    Optional<String> test(String ref) {
        String cls = ref.contains("#") ? ref.substring(0, ref.indexOf('#')) : ref;
        String method = ref.contains("#") ? ref.substring(ref.indexOf('#') + 1) : null;
        String rel = cls.replace('.', '/') + ".java";
        for (String module : MODULES) {
            Path f = repo.root().resolve(module).resolve("src/test/java").resolve(rel);
            if (Files.isRegularFile(f)) {
                if (method == null) {
                    return Optional.empty();
                }
                try {
                    return Pattern.compile("\\b" + Pattern.quote(method) + "\\s*\\(").matcher(Files.readString(f)).find()
                            ? Optional.empty() : Optional.of("no method " + method + " in " + module + "/src/test/java/" + rel);
                } catch (IOException e) {
                    return Optional.of("cannot read " + f + ": " + e);
                }
            }
        }
        return Optional.of("no test class " + cls + " under " + String.join(", ", MODULES) + "/src/test/java");
    }
}
