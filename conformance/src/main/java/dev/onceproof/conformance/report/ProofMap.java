package dev.onceproof.conformance.report;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The statements of every family joined with the last verify run: each evidence's last outcome,
 * state count, depth and time, whether it is stale (its inputs changed since), and the flags a
 * reader must see: statements with no evidence, with no evidence that can fail on its own, and with
 * evidence that failed, is stale or was not run.
 */
public final class ProofMap {

    /** An evidence's state in the last run, worst first. */
    public enum Status {
        FAIL("fail"), ERROR("error"), STALE("stale"), INCOMPLETE("incomplete"), NOT_RUN("not run"),
        NOT_RUN_DEEP("not run (deep)"), UNTRACKED("not in the results (mvn test)"), OK("ok");

        public final String label;

        Status(String label) {
            this.label = label;
        }

        static Status of(String s) {
            return switch (s) {
                case "ok" -> OK;
                case "fail" -> FAIL;
                case "stale" -> STALE;
                case "incomplete" -> INCOMPLETE;
                case "skipped" -> NOT_RUN;
                default -> ERROR;
            };
        }
    }

    public enum Flag {
        UNCOVERED("uncovered: no evidence"),
        CANNOT_FAIL("no evidence that can fail on its own"),
        FAILED("evidence failed"),
        STALE("evidence stale"),
        NOT_RUN("evidence not run");

        public final String label;

        Flag(String label) {
            this.label = label;
        }
    }

    /**
     * One evidence with what the last run says of it.
     *
     * @param cannotFail    why it cannot fail on its own; empty when it can
     * @param detail        TLC's outcome, the claim's verdict and measure, the replay mismatch
     * @param counterexample the counterexample table of the run, when there is one
     * @param files         stored trace files (repository-relative)
     * @param control       the control's status, for a model or test with one
     */
    public record EvidenceResult(Evidence evidence, Status status, String detail, Long distinctStates, Integer depth,
                                 Double seconds, String counterexample, List<String> files,
                                 Optional<String> cannotFail, Status control) { }

    public record StatementResult(Statement statement, List<EvidenceResult> evidence, Set<Flag> flags) { }

    public record FamilyResult(FamilyStatements statements, List<StatementResult> rows, Claims claims) {

        public long flagged() {
            return rows.stream().filter(r -> !r.flags().isEmpty()).count();
        }

        public long with(Flag f) {
            return rows.stream().filter(r -> r.flags().contains(f)).count();
        }
    }

    private static final Pattern SEED = Pattern.compile("-seed(\\d+)\\.jsonl$");

    private final Repo repo;
    private final LastResults results;
    private final Map<String, ModelEntry> models;
    private final Map<String, TraceEntry> traces;
    private final CurrentInputs inputs;
    // A model or trace file is cited by several statements; its inputs are hashed once per report.
    private final Map<String, String> modelHashes = new HashMap<>();
    private final Map<String, String> traceHashes = new HashMap<>();

    public ProofMap(Repo repo, Manifest manifest, LastResults results, CurrentInputs inputs) {
        this.repo = repo;
        this.results = results;
        this.models = manifest.models().stream().collect(Collectors.toMap(ModelEntry::name, Function.identity()));
        this.traces = manifest.traces().stream().collect(Collectors.toMap(TraceEntry::name, Function.identity()));
        this.inputs = inputs;
    }

    public FamilyResult family(FamilyStatements fs) {
        Claims claims = Claims.load(repo, fs.family());
        List<StatementResult> rows = new ArrayList<>();
        for (Statement s : fs.statements()) {
            List<EvidenceResult> ev = s.evidence().stream().map(e -> evaluate(fs.family(), e, claims)).toList();
            rows.add(new StatementResult(s, ev, flags(ev)));
        }
        return new FamilyResult(fs, rows, claims);
    }

    static Set<Flag> flags(List<EvidenceResult> ev) {
        Set<Flag> f = EnumSet.noneOf(Flag.class);
        if (ev.isEmpty()) {
            f.add(Flag.UNCOVERED);
            return f;
        }
        if (ev.stream().allMatch(e -> e.cannotFail().isPresent())) {
            f.add(Flag.CANNOT_FAIL);
        }
        if (ev.stream().anyMatch(e -> e.status() == Status.FAIL || e.status() == Status.ERROR)) {
            f.add(Flag.FAILED);
        }
        if (ev.stream().anyMatch(e -> e.status() == Status.STALE)) {
            f.add(Flag.STALE);
        }
        // A deep model left out of a ci run is normal; it counts only when nothing of the statement ran.
        boolean anyRan = ev.stream().anyMatch(e -> e.status() != Status.NOT_RUN && e.status() != Status.NOT_RUN_DEEP
                && e.status() != Status.UNTRACKED);
        if (ev.stream().anyMatch(e -> e.status() == Status.NOT_RUN || e.status() == Status.INCOMPLETE) || !anyRan) {
            f.add(Flag.NOT_RUN);
        }
        return f;
    }

    private EvidenceResult evaluate(String family, Evidence e, Claims claims) {
        return switch (e.kind()) {
            case MODEL, MUTANT, EXPECTED_COUNTEREXAMPLE -> model(e);
            case TRACE -> trace(family, e);
            case TEST -> new EvidenceResult(e, Status.UNTRACKED, "run by mvn test, not by verify", null, null, null,
                    null, List.of(), e.whyCannotFail(), null);
            case CLAIM -> claim(family, e, claims);
        };
    }

    private EvidenceResult model(Evidence e) {
        ModelCheck m = modelStatus(e.ref());
        Status control = e.control() == null ? null : modelStatus(e.control()).status();
        // A control that no longer makes the property fail takes the evidence's power to fail with it.
        Status status = control == Status.FAIL || control == Status.ERROR ? worst(m.status(), Status.FAIL) : m.status();
        String detail = control == Status.FAIL || control == Status.ERROR
                ? m.detail() + "; control " + e.control() + " " + control.label : m.detail();
        if (e.kind() != Evidence.Kind.MODEL && (m.result() == null || m.result().counterexample() == null)) {
            // verify keeps the table only for a behaviour the manifest did not expect; this one it did.
            detail += "; counterexample: ./onceproof models check " + e.ref();
        }
        return new EvidenceResult(e, status, detail, m.result() == null ? null : m.result().distinctStates(),
                m.result() == null ? null : m.result().depth(), m.result() == null ? null : m.result().seconds(),
                m.result() == null ? null : m.result().counterexample(), List.of(), e.whyCannotFail(), control);
    }

    private record ModelCheck(Status status, String detail, LastResults.Model result) { }

    private ModelCheck modelStatus(String name) {
        ModelEntry entry = models.get(name);
        Optional<LastResults.Model> r = results.models().stream().filter(m -> m.name().equals(name)).findFirst();
        if (r.isEmpty()) {
            boolean deep = entry != null && entry.mode() == ModelEntry.Mode.DEEP;
            return new ModelCheck(deep ? Status.NOT_RUN_DEEP : Status.NOT_RUN, "expect " + (entry == null ? "?" : entry.expect()), null);
        }
        LastResults.Model m = r.get();
        Status s = Status.of(m.status());
        String detail = (m.outcome() == null ? "" : m.outcome()) + (m.expect() == null ? "" : " (expect " + m.expect() + ")");
        if (s == Status.OK && entry != null && m.inputsHash() != null
                && !CurrentInputs.same(m.inputsHash(), modelHashes.computeIfAbsent(name, n -> inputs.model(entry)))) {
            return new ModelCheck(Status.STALE, detail + "; its inputs changed since the run", m);
        }
        return new ModelCheck(s, detail, m);
    }

    private EvidenceResult trace(String family, Evidence e) {
        List<String> files = new ArrayList<>();
        TraceEntry entry = traces.get(e.ref());
        if (entry != null) {
            RefCheck.traceFiles(repo, entry).forEach(f -> files.add(relative(f)));
        } else {
            files.add(e.ref());
        }
        List<LastResults.Trace> runs = results.traces().stream()
                .filter(t -> files.contains(t.file()) && !"fresh".equals(t.kind())).toList();
        if (runs.isEmpty()) {
            return new EvidenceResult(e, Status.NOT_RUN, "", null, null, null, null, files, e.whyCannotFail(), null);
        }
        Status worst = Status.OK;
        List<String> details = new ArrayList<>();
        int steps = 0;
        double secs = 0;
        for (LastResults.Trace t : runs) {
            Status s = Status.of(t.status());
            if (s == Status.OK && entry != null && t.inputsHash() != null
                    && !CurrentInputs.same(t.inputsHash(), traceHash(entry, t.file()))) {
                s = Status.STALE;
                details.add(t.file() + ": its inputs changed since the run");
            }
            if (t.mismatch() != null) {
                details.add(t.mismatch());
            }
            if (t.reason() != null) {
                details.add(t.reason());
            }
            worst = worst(worst, s);
            steps += t.steps() == null ? 0 : t.steps();
            secs += t.seconds() == null ? 0 : t.seconds();
        }
        return new EvidenceResult(e, worst, runs.size() + " file(s), " + steps + " steps replayed", null, null, secs,
                details.isEmpty() ? null : String.join("\n", details), files, e.whyCannotFail(), null);
    }

    private String traceHash(TraceEntry entry, String file) {
        return traceHashes.computeIfAbsent(file, f -> {
            Matcher m = SEED.matcher(f);
            return inputs.trace(entry, m.find() ? Long.valueOf(m.group(1)) : null);
        });
    }

    private EvidenceResult claim(String family, Evidence e, Claims claims) {
        List<LastResults.Claim> runs = results.claims().stream()
                .filter(c -> c.id().equals(e.ref()) && (c.family() == null || c.family().equals(family))).toList();
        Claims.Claim committed = claims.claims().get(e.ref());
        String basis = runs.stream().map(LastResults.Claim::basis).filter(b -> b != null).findFirst()
                .orElse(committed == null ? null : committed.basis());
        Optional<String> cannotFail = e.whyCannotFail(basis);
        if (cannotFail.isEmpty() && (runs.stream().anyMatch(c -> Boolean.FALSE.equals(c.canFail()))
                || committed != null && Boolean.FALSE.equals(committed.canFail()))) {
            cannotFail = Optional.of("claim the bench marks as unable to fail");
        }
        // The bench may have run again since verify read its claims: the committed file decides.
        boolean staleNow = Boolean.FALSE.equals(claims.fresh());
        if (runs.isEmpty()) {
            String detail = committed == null ? "" : "committed " + committed.verdict();
            return new EvidenceResult(e, staleNow ? Status.STALE : Status.NOT_RUN,
                    staleNow ? detail + "; its inputs changed since the bench ran" : detail,
                    null, null, null, null, List.of(), cannotFail, null);
        }
        Status worst = runs.stream().map(c -> Status.of(c.status())).min(Comparator.naturalOrder()).orElseThrow();
        if (staleNow) {
            worst = worst(worst, Status.STALE);
        }
        String detail = runs.stream().map(c -> (c.verdict() == null ? "" : c.verdict())
                        + (c.measured() == null ? "" : ": " + c.measured()) + (c.reason() == null ? "" : " (" + c.reason() + ")"))
                .collect(Collectors.toCollection(LinkedHashSet::new)).stream().collect(Collectors.joining("; "))
                + (basis == null ? "" : " [basis " + basis + "]");
        return new EvidenceResult(e, worst, detail, null, null, null, null, List.of(), cannotFail, null);
    }

    private static Status worst(Status a, Status b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    private String relative(Path p) {
        return repo.root().relativize(p).toString().replace('\\', '/');
    }
}
