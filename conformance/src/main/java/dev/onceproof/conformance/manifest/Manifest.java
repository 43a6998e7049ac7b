package dev.onceproof.conformance.manifest;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/** specs/manifest.json: the only list of models and traces. */
public record Manifest(List<ModelEntry> models, List<TraceEntry> traces) {

    public Manifest {
        models = List.copyOf(models);
        traces = List.copyOf(traces);
    }

    /** Every family that has a model or a trace, sorted. */
    public List<String> families() {
        TreeSet<String> f = new TreeSet<>();
        models.forEach(m -> f.add(m.family()));
        traces.forEach(t -> f.add(t.family()));
        return List.copyOf(f);
    }

    public Optional<TraceEntry> trace(String name) {
        return traces.stream().filter(t -> t.name().equals(name)).findFirst();
    }
}
