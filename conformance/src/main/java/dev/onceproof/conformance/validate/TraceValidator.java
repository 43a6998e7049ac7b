package dev.onceproof.conformance.validate;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.tla.TlaParser;
import dev.onceproof.conformance.tla.TlaValue;
import dev.onceproof.conformance.tlc.Outcome;
import dev.onceproof.conformance.tlc.TlcRequest;
import dev.onceproof.conformance.tlc.TlcResult;
import dev.onceproof.conformance.tlc.TlcRunner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks with TLC that step logs are a behaviour of the spec their headers name (DESIGN.md, link 5).
 * The entry point for {@code ./onceproof validate}, the build's tests and, later, VerifyCommand:
 * {@code new TraceValidator(repo).validate(List.of(log, ...))}, then {@link Validation#accepted()} and
 * {@link Validation#report()}.
 *
 * <p>How: the logs become a generated module (the lines as TLA+ records, one sequence per process)
 * that EXTENDS the family's trace module, and TLC runs breadth-first with one worker on its
 * TraceSpec; its state constraint TraceProgress prints each new maximum of lines taken. TLC explores
 * every state reachable by a prefix of the log and stops when none is left, so the log is accepted
 * iff the last maximum is the number of lines: some interleaving of the processes' lines that the
 * spec allows takes them all. (An invariant violated at the end would stop sooner, but TLC then
 * prints the witness behaviour, quadratic in the log's length.)
 *
 * <p>On a rejection, the last maximum names the first line no reachable state takes; a second run,
 * bounded to that many lines, prints every spec state there and every spec action enabled in it
 * (TLC 2.18 has no POSTCONDITION, ALIAS or -dumpTrace, so the report is made of PrintT output).
 */
public final class TraceValidator {

    private static final java.util.regex.Pattern TAGGED = java.util.regex.Pattern.compile("<<\\s*\"");

    private final Path specs;
    private final TlcRunner tlc;
    private final Duration timeout;
    /** Whether every run counts as small: C1 only, and in our JVM when the runner is AUTO. */
    private final boolean quick;

    public TraceValidator(Repo repo) {
        this(repo.specs(), new TlcRunner(), Duration.ofMinutes(30));
    }

    public TraceValidator(Path specs, TlcRunner tlc, Duration timeout) {
        this(specs, tlc, timeout, false);
    }

    private TraceValidator(Path specs, TlcRunner tlc, Duration timeout, boolean quick) {
        this.specs = specs;
        this.tlc = tlc;
        this.timeout = timeout;
        this.quick = quick;
    }

    /**
     * The same validator for short logs (verify's, of a few hundred lines): TLC started as a small
     * model is (C1 only; in our JVM under TlcRunner.Mode.AUTO), where a JVM start and C2's compiling
     * would cost more than the search. A long log wants C2: ./onceproof validate keeps the default.
     */
    public TraceValidator quick() {
        return new TraceValidator(specs, tlc, timeout, true);
    }

    /** Validates the logs as the processes of one run (several incarnations of one process merge). */
    public Validation validate(List<Path> logs) {
        return validateLogs(logs.stream().map(StepLogFile::read).toList());
    }

    /**
     * The TLC input validation would run, written into {@code dir}: the generated module and its
     * cfg, and the spec folder TLC needs on its library path. For running TLC by hand or in another
     * JVM (the long-log test runs it with and without the stack TlcJvm gives TLC).
     */
    public record Generated(Path module, Path cfg, Path library) {
    }

    public Generated generate(List<Path> files, Path dir) {
        List<StepLogFile> logs = files.stream().map(StepLogFile::read).toList();
        checkSameSpec(logs);
        TraceFamily family = TraceFamily.forSpec(logs.get(0).spec(), logs.get(0).file() + ":1").forLogs(logs);
        List<TraceFamily.Process> processes = family.processes(logs);
        Map<String, String> constants = family.constants(logs, processes);
        return new Generated(write(dir.resolve("ValidateRun.tla"), module(family, processes, constants, files)),
                write(dir.resolve("ValidateRun.cfg"), cfg(constants, 0, false)),
                specs.resolve(family.folder()).toAbsolutePath());
    }

    private static void checkSameSpec(List<StepLogFile> logs) {
        if (logs.isEmpty()) {
            throw new StepLogException("no step log given");
        }
        StepLogFile first = logs.get(0);
        for (StepLogFile log : logs) {
            if (!log.spec().equals(first.spec()) || !log.mode().equals(first.mode())) {
                throw new StepLogException(log.file() + ":1: spec " + log.spec() + " mode " + log.mode()
                        + ", but " + first.file() + " has spec " + first.spec() + " mode " + first.mode());
            }
        }
    }

    public Validation validateLogs(List<StepLogFile> logs) {
        return validateLogs(logs, java.util.function.UnaryOperator.identity());
    }

    /**
     * As {@link #validateLogs(List)}, with the processes the family makes of the logs replaced by
     * {@code reorder}'s, the same lines in another order: the control of a family's merge
     * (KillRunReorderTest checks that other orders consistent with happens-before pass alike).
     */
    Validation validateLogs(List<StepLogFile> logs, java.util.function.UnaryOperator<List<TraceFamily.Process>> reorder) {
        checkSameSpec(logs);
        StepLogFile first = logs.get(0);
        TraceFamily family = TraceFamily.forSpec(first.spec(), first.file() + ":1").forLogs(logs);
        List<TraceFamily.Process> merged = family.processes(logs);
        List<TraceFamily.Process> processes = reorder.apply(merged);
        if (count(processes) != count(merged)) {
            throw new IllegalArgumentException("a reordering of " + count(merged) + " lines gave " + count(processes));
        }
        Map<String, String> constants = family.constants(logs, processes);
        Path dir;
        try {
            dir = Files.createTempDirectory("onceproof-validate");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a directory for the generated trace module", e);
        }
        try {
            return run(family, logs, processes, constants, dir);
        } finally {
            // ONCEPROOF_VALIDATE_KEEP=1 keeps the generated module and cfgs, to run TLC on them by hand.
            if (System.getenv("ONCEPROOF_VALIDATE_KEEP") == null) {
                deleteQuietly(dir);
            } else {
                System.err.println("onceproof validate: generated files kept in " + dir);
            }
        }
    }

    private static int count(List<TraceFamily.Process> processes) {
        return processes.stream().mapToInt(p -> p.lines().size()).sum();
    }

    private Validation run(TraceFamily family, List<StepLogFile> logs, List<TraceFamily.Process> processes,
                           Map<String, String> constants, Path dir) {
        int lines = processes.stream().mapToInt(p -> p.lines().size()).sum();
        List<Path> files = logs.stream().map(StepLogFile::file).toList();
        Path module = write(dir.resolve("ValidateRun.tla"), module(family, processes, constants, files));
        Path cfg = write(dir.resolve("ValidateRun.cfg"), cfg(constants, 0, false));
        Path reportCfgFile = dir.resolve("ValidateReport.cfg");
        TlcRunner tlc = quick ? new TlcRunner(this.tlc.jvm().withSmallModels(List.of(cfg, reportCfgFile)),
                this.tlc.mode()) : this.tlc;
        TlcResult result = tlc.run(request(family, module, cfg));
        if (result.outcome() != Outcome.PASS) {
            return new Validation(files, family.spec(), lines, false, result.distinctStates(), result.wallTime(),
                    null, "TLC could not check the log: " + result.summary());
        }
        int taken = -1;
        for (String printed : values(result.printed())) {
            TlaValue v = parse(printed);
            if (v instanceof TlaValue.Seq s && s.elements().get(0).equals(new TlaValue.Str("progress"))) {
                taken = (int) ((TlaValue.Int) s.elements().get(1)).value();
            }
        }
        if (taken == lines) {
            return new Validation(files, family.spec(), lines, true, result.distinctStates(), result.wallTime(),
                    null, null);
        }
        if (taken < 0) {
            return new Validation(files, family.spec(), lines, false, result.distinctStates(), result.wallTime(),
                    null, "TLC printed no progress (no initial state?): " + result.summary());
        }
        Path reportCfg = write(reportCfgFile, cfg(constants, taken, true));
        TlcResult report = tlc.run(request(family, module, reportCfg));
        Rejection rejection = rejection(processes, taken, report);
        return new Validation(files, family.spec(), lines, false, result.distinctStates(),
                result.wallTime().plus(report.wallTime()), rejection,
                rejection == null ? "the report run found no state after " + taken + " lines: " + report.summary()
                        : null);
    }

    private TlcRequest request(TraceFamily family, Path module, Path cfg) {
        return new TlcRequest(module, cfg, List.of(specs.resolve(family.folder()).toAbsolutePath()), false,
                List.of(), timeout);
    }

    private static Rejection rejection(List<TraceFamily.Process> processes, int taken, TlcResult report) {
        Set<TlaValue> states = new LinkedHashSet<>();
        TlaValue shownCursor = null;
        TlaValue shown = null;
        List<String> enabled = new ArrayList<>();
        Map<TlaValue, Boolean> seenEnabled = new LinkedHashMap<>();
        for (String printed : values(report.printed())) {
            if (!(parse(printed) instanceof TlaValue.Seq s) || !(s.elements().get(0) instanceof TlaValue.Str tag)) {
                continue;
            }
            List<TlaValue> e = s.elements();
            if (tag.value().equals("at")) {
                states.add(new TlaValue.Seq(List.of(e.get(1), e.get(2))));
                if (shown == null) {
                    shownCursor = e.get(1);
                    shown = e.get(2);
                }
            } else if (tag.value().equals("enabled") && e.get(1).equals(shownCursor) && e.get(2).equals(shown)
                    && seenEnabled.put(e.get(3), true) == null) {
                enabled.add(Validation.action(e.get(3)));
            }
        }
        if (shown == null) {
            return null;
        }
        List<Rejection.Tried> tried = new ArrayList<>();
        List<TlaValue> cursor = ((TlaValue.Seq) shownCursor).elements();
        for (int p = 0; p < processes.size(); p++) {
            int at = (int) ((TlaValue.Int) cursor.get(p)).value();
            TraceFamily.Process proc = processes.get(p);
            if (at < proc.lines().size()) {
                TraceFamily.Process.Line line = proc.lines().get(at);
                tried.add(new Rejection.Tried(proc.name(), at + 1, line.origin(), line.step().toString()));
            }
        }
        return new Rejection(taken, tried, states.size(), (TlaValue.Record) shown, enabled);
    }

    /**
     * The PrintT values in TLC's free text: a block holds consecutive lines, and TLC breaks a long
     * value over several lines, so a value starts at a line that opens a tagged tuple.
     */
    static List<String> values(List<String> printed) {
        List<String> values = new ArrayList<>();
        StringBuilder current = null;
        for (String block : printed) {
            for (String line : block.split("\n")) {
                if (TAGGED.matcher(line).lookingAt()) {
                    if (current != null) {
                        values.add(current.toString());
                    }
                    current = new StringBuilder(line);
                } else if (current != null) {
                    current.append(' ').append(line.strip());
                }
            }
        }
        if (current != null) {
            values.add(current.toString());
        }
        return values;
    }

    private static TlaValue parse(String printed) {
        try {
            return TlaParser.parse(printed.strip());
        } catch (RuntimeException e) {
            return new TlaValue.Str(printed);
        }
    }

    static String module(TraceFamily family, List<TraceFamily.Process> processes, Map<String, String> constants,
                         List<Path> files) {
        StringBuilder sb = new StringBuilder();
        sb.append("---- MODULE ValidateRun ----\n");
        sb.append("\\* Generated by onceproof validate from ").append(files).append('\n');
        sb.append("EXTENDS ").append(family.traceModule()).append('\n');
        List<String> procs = new ArrayList<>();
        for (TraceFamily.Process p : processes) {
            List<String> lines = new ArrayList<>();
            for (TraceFamily.Process.Line line : p.lines()) {
                lines.add("    " + TlaText.line(line.step(), line.origin()));
            }
            procs.add("  \\* process " + p.name() + "\n  <<\n" + String.join(",\n", lines) + "\n  >>");
        }
        sb.append("LogDef ==\n<<\n").append(String.join(",\n", procs)).append("\n>>\n");
        constants.forEach((name, expr) -> sb.append("Def").append(name).append(" == ").append(expr).append('\n'));
        sb.append("====\n");
        return sb.toString();
    }

    static String cfg(Map<String, String> constants, int reportAt, boolean report) {
        StringBuilder sb = new StringBuilder("CONSTANTS\n  TraceLog <- LogDef\n  ReportAt = ").append(reportAt).append('\n');
        constants.keySet().forEach(name -> sb.append("  ").append(name).append(" <- Def").append(name).append('\n'));
        if (report) {
            sb.append("SPECIFICATION ReportSpec\nVIEW TraceView\nCONSTRAINT ReportBound\n"
                    + "ACTION_CONSTRAINT ReportProbe\nINVARIANT ReportState\n");
        } else {
            sb.append("SPECIFICATION TraceSpec\nVIEW TraceView\nCONSTRAINT TraceProgress\n");
        }
        return sb.toString();
    }

    private static Path write(Path file, String text) {
        try {
            return Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // a leftover temp dir is harmless
        }
    }
}
