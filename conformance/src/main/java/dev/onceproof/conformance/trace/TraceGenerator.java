package dev.onceproof.conformance.trace;

import dev.onceproof.conformance.tlc.TlcJobs;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.tla.TlaJson;
import dev.onceproof.conformance.tla.TlaParser;
import dev.onceproof.conformance.tla.TlaValue;
import dev.onceproof.conformance.tlc.CfgFile;
import dev.onceproof.conformance.tlc.CounterexampleTable;
import dev.onceproof.conformance.tlc.Outcome;
import dev.onceproof.conformance.tlc.TlcRequest;
import dev.onceproof.conformance.tlc.TlcResult;
import dev.onceproof.conformance.tlc.TlcRunner;
import dev.onceproof.conformance.tlc.TraceState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Makes the trace files of one manifest "traces" entry with TLC.
 *
 * <p>simulate: {@code -simulate file=DIR/trace,num=1 -depth D -seed S}, one run per seed, reading the
 * TLC-written STATE_n module back. Simulation with one worker and a fixed seed is deterministic, and
 * reading the states TLC wrote for the behaviour it took (rather than logging from an operator) is
 * immune to -simulate evaluating invariants on successors it does not take.
 *
 * <p>targeted: model-check the cfg whose only invariant is the trap NotX; TLC's BFS counterexample is
 * the shortest behaviour reaching X, and the same on every run.
 *
 * <p>Both runs go through a wrapper module that EXTENDS the model and PrintTs the cfg's constants,
 * which land in the header so a replayer configures the core exactly as the model did.
 */
public final class TraceGenerator {

    static final String CONSTANTS_TAG = "onceproof-constants";
    private static final java.util.regex.Pattern ACTION_NAMES = java.util.regex.Pattern.compile("(?m)^ActionNames\\s*==");

    private final Repo repo;
    private final TlcRunner runner;
    private final Duration timeout;
    private final TraceInputs inputs;

    public TraceGenerator(Repo repo, TlcRunner runner, Duration timeout) {
        this(repo, runner, timeout, new TraceInputs(repo));
    }

    public TraceGenerator(Repo repo, TlcRunner runner, Duration timeout, TraceInputs inputs) {
        this.repo = repo;
        this.runner = runner;
        this.timeout = timeout;
        this.inputs = inputs;
    }

    /** What this generator hashes into a header's inputs (the freshness check compares with it). */
    public TraceInputs inputs() {
        return inputs;
    }

    /** One trace: a simulation entry with this seed, or a targeted entry (seed null). One TLC run. */
    public GeneratedTrace generate(TraceEntry entry, Long seed) {
        if (entry.kind() == TraceEntry.Kind.TARGETED) {
            return targeted(entry);
        }
        if (seed == null) {
            throw new IllegalArgumentException(entry.name() + " is a simulation entry: it needs a seed");
        }
        return simulate(entry, seed);
    }

    /** The entry's own traces: every seed of a simulation, or the targeted counterexample. */
    public List<GeneratedTrace> generate(TraceEntry entry) {
        return entry.kind() == TraceEntry.Kind.SIMULATE ? generate(entry, entry.seeds()) : List.of(targeted(entry));
    }

    /** A simulation entry with other seeds (fresh traces for replay); a targeted entry as it is. */
    public List<GeneratedTrace> generate(TraceEntry entry, List<Long> seeds) {
        if (entry.kind() == TraceEntry.Kind.TARGETED) {
            return List.of(targeted(entry));
        }
        return TlcJobs.map(seeds, TlcJobs.defaultJobs(), seed -> simulate(entry, seed), (i, t) -> { });
    }

    /**
     * Every trace of the entries (each simulation seed and each targeted trap is one TLC run), run
     * side by side as {@link TlcJobs} allows, in the entries' order. {@code seedsOf} gives a
     * simulation entry's seeds (its own, or fresh ones).
     */
    public List<GeneratedTrace> generateAll(List<TraceEntry> entries, Function<TraceEntry, List<Long>> seedsOf) {
        record Job(TraceEntry entry, Long seed) {
        }
        List<Job> jobs = new ArrayList<>();
        for (TraceEntry e : entries) {
            if (e.kind() == TraceEntry.Kind.TARGETED) {
                jobs.add(new Job(e, null));
            } else {
                seedsOf.apply(e).forEach(seed -> jobs.add(new Job(e, seed)));
            }
        }
        return TlcJobs.map(jobs, TlcJobs.defaultJobs(), j -> generate(j.entry(), j.seed()), (i, t) -> { });
    }

    public static String command(TraceEntry entry) {
        return "./onceproof traces generate --name " + entry.name();
    }

    private GeneratedTrace simulate(TraceEntry entry, long seed) {
        // Hashed before TLC runs, so the header names the inputs the trace was made from.
        String madeFrom = inputs.hash(entry, seed);
        Path scratch = tempDir();
        try {
            Path wrapper = wrapper(entry, scratch);
            Path prefix = scratch.resolve("sim").resolve("trace");
            Files.createDirectories(prefix.getParent());
            TlcRequest req = request(entry, wrapper).withArgs(List.of("-simulate", "file=" + prefix + ",num=1",
                    "-depth", Integer.toString(entry.depth()), "-seed", Long.toString(seed), "-coverage", "1"));
            String where = entry.name() + " (seed " + seed + ")";
            TlcResult r = runner.run(req);
            if (r.outcome() != Outcome.PASS) {
                throw new TraceGenerationException(where + ": TLC reported " + r.summary() + "\n"
                        + (r.counterexample().isEmpty() ? "" : CounterexampleTable.render(r)));
            }
            Path file = onlyTraceFile(prefix.getParent(), where);
            List<Map<String, TlaValue>> states = SimulationTraceFile.parse(Files.readString(file), where);
            TraceHeader header = new TraceHeader(entry.fileStem(seed), spec(entry), entry.module(), entry.cfg(),
                    "simulate", seed, entry.depth(), null, constants(r, where), command(entry), madeFrom, null);
            List<String> named = actionNames(r);
            return trace(entry, header, StepBuilder.steps(states, where), entry.fileStem(seed),
                    named.isEmpty() ? r.actions() : named);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            delete(scratch);
        }
    }

    private GeneratedTrace targeted(TraceEntry entry) {
        String madeFrom = inputs.hash(entry, null);
        Path scratch = tempDir();
        try {
            TlcResult r = runner.run(request(entry, wrapper(entry, scratch)));
            String where = entry.name();
            if (r.outcome() == Outcome.PASS) {
                throw new TraceGenerationException(where + ": the trap " + entry.trap() + " never fails, so the"
                        + " scenario is unreachable in " + entry.cfg() + " (" + r.distinctStates() + " states)");
            }
            if (r.outcome() != Outcome.INVARIANT_VIOLATED || !entry.trap().equals(r.property())) {
                throw new TraceGenerationException(where + ": expected the trap " + entry.trap()
                        + " to be violated, TLC reported " + r.summary());
            }
            List<Map<String, TlaValue>> states = r.counterexample().stream().map(TraceState::variables)
                    .collect(Collectors.toList());
            TraceHeader header = new TraceHeader(entry.fileStem(null), spec(entry), entry.module(), entry.cfg(),
                    "targeted", null, null, entry.trap(), constants(r, where), command(entry), madeFrom, null);
            return trace(entry, header, StepBuilder.steps(states, where), entry.fileStem(null), actionNames(r));
        } finally {
            delete(scratch);
        }
    }

    private GeneratedTrace trace(TraceEntry entry, TraceHeader header, List<TraceStep> steps, String stem,
                                 List<String> specActions) {
        Set<String> taken = new TreeSet<>();
        steps.stream().skip(1).forEach(s -> taken.add(s.action()));
        return new GeneratedTrace(entry.family(), stem + ".jsonl", TraceCodec.write(header, steps), taken, specActions);
    }

    private TlcRequest request(TraceEntry entry, Path wrapper) {
        Path module = repo.specs().resolve(entry.module());
        return new TlcRequest(wrapper, repo.specs().resolve(entry.cfg()),
                List.of(module.getParent(), repo.familyDir(entry.family())), false, List.of(), timeout);
    }

    /** A module that EXTENDS the model and prints the cfg's constants once, before TLC starts. */
    private Path wrapper(TraceEntry entry, Path scratch) {
        String model = repo.specs().resolve(entry.module()).getFileName().toString().replace(".tla", "");
        String name = "OnceproofTrace" + model;
        List<String> constants = CfgFile.read(repo.specs().resolve(entry.cfg())).constants();
        String record = constants.isEmpty() ? "<<>>"
                : constants.stream().map(c -> c + " |-> " + c).collect(Collectors.joining(", ", "[", "]"));
        String actions = definesActionNames(entry) ? "ActionNames" : "{}";
        String text = "---- MODULE " + name + " ----\n"
                + "\\* Written by the trace generator: the model, plus its constants printed for the trace header.\n"
                + "EXTENDS " + model + ", TLC\n"
                + "ASSUME PrintT(<<\"" + CONSTANTS_TAG + "\", " + record + ", " + actions + ">>)\n"
                + "====\n";
        Path file = scratch.resolve(name + ".tla");
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }

    /**
     * Whether the spec lists its action names (ActionNames == {...}, CONVENTIONS.md). TLC's coverage
     * report cannot say: a trace model that restricts Next (SimNext == Next /\ ...) is one action.
     */
    private boolean definesActionNames(TraceEntry entry) {
        for (Path m : SpecName.chain(repo.familyDir(entry.family()), repo.specs().resolve(entry.module()))) {
            try {
                if (ACTION_NAMES.matcher(Files.readString(m)).find()) {
                    return true;
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + m, e);
            }
        }
        return false;
    }

    /** The spec's ActionNames as TLC printed them (third element of the PrintT tuple), minus Init. */
    private static List<String> actionNames(TlcResult r) {
        TlaValue.Seq printed = printedTuple(r);
        List<String> out = new ArrayList<>();
        if (printed != null && printed.elements().size() > 2 && printed.elements().get(2) instanceof TlaValue.Set s) {
            for (TlaValue v : s.elements()) {
                if (v instanceof TlaValue.Str name && !name.value().equals("Init")) {
                    out.add(name.value());
                }
            }
        }
        return out;
    }

    private static TlaValue.Seq printedTuple(TlcResult r) {
        // PrintT pretty-prints long values over several lines: << "onceproof-constants",\n   [ ... ] >>
        String tag = "\"" + CONSTANTS_TAG + "\"";
        for (String block : r.printed()) {
            int at = block.lastIndexOf("<<", Math.max(0, block.indexOf(tag)));
            if (block.contains(tag) && at >= 0) {
                return (TlaValue.Seq) TlaParser.parse(block.substring(at));
            }
        }
        return null;
    }

    private static ObjectNode constants(TlcResult r, String where) {
        TlaValue.Seq printed = printedTuple(r);
        if (printed == null) {
            throw new TraceGenerationException(where + ": TLC did not print the model's constants");
        }
        JsonNode json = TlaJson.render(printed.elements().get(1));
        return json.isObject() ? (ObjectNode) json : JsonNodeFactory.instance.objectNode();
    }

    private String spec(TraceEntry entry) {
        return SpecName.of(repo.familyDir(entry.family()), repo.specs().resolve(entry.module()));
    }

    private static Path onlyTraceFile(Path dir, String where) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> all = files.sorted().collect(Collectors.toList());
            if (all.size() != 1) {
                throw new TraceGenerationException(where + ": expected one simulation file from TLC, found " + all);
            }
            return all.get(0);
        }
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("onceproof-gen");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // leftover temp files are harmless
        }
    }

    /** Writes traces under root/&lt;family&gt;/, replacing files of the same name. */
    public static List<Path> write(Path root, List<GeneratedTrace> traces) {
        List<Path> written = new ArrayList<>();
        for (GeneratedTrace t : traces) {
            Path file = root.resolve(t.family()).resolve(t.fileName());
            try {
                Files.createDirectories(file.getParent());
                Files.writeString(file, t.content());
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write " + file, e);
            }
            written.add(file);
        }
        return written;
    }

    /** Actions of Next no trace of the family takes: sorted, per family. */
    public static Map<String, Set<String>> uncovered(List<GeneratedTrace> traces) {
        Map<String, Set<String>> out = new java.util.TreeMap<>();
        Map<String, Set<String>> spec = new java.util.TreeMap<>();
        Map<String, Set<String>> taken = new java.util.TreeMap<>();
        for (GeneratedTrace t : traces) {
            spec.computeIfAbsent(t.family(), f -> new LinkedHashSet<>()).addAll(t.specActions());
            taken.computeIfAbsent(t.family(), f -> new TreeSet<>()).addAll(t.taken());
        }
        spec.forEach((family, actions) -> {
            Set<String> missing = new TreeSet<>(actions);
            missing.removeAll(taken.getOrDefault(family, Set.of()));
            if (!missing.isEmpty()) {
                out.put(family, missing);
            }
        });
        return out;
    }
}
