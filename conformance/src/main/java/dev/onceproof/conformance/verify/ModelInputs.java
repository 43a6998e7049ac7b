package dev.onceproof.conformance.verify;

import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.trace.TraceInputs;
import dev.onceproof.provenance.InputsHash;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The inputs hash of a model's result: {@link InputsHash} over the model's cfg and every module TLC
 * can load for it (the module and, transitively, the modules of its folder and of its family's folder
 * that it names), found the way {@link TraceInputs#modules} finds a trace model's. A spec edit that
 * reaches the model changes its hash; an edit to another model's cfg or to an unrelated module does
 * not. TLC itself and the JVM are not inputs here: a result says what these files give.
 */
public final class ModelInputs {

    private final Repo repo;
    private final TraceInputs traceInputs;

    public ModelInputs(Repo repo, TraceInputs traceInputs) {
        this.repo = repo;
        this.traceInputs = traceInputs;
    }

    public String hash(ModelEntry m) {
        return InputsHash.of(repo.root(), files(m));
    }

    /** Repository-relative paths: the cfg, then the reachable modules (sorted). */
    public List<String> files(ModelEntry m) {
        // TraceInputs walks a trace model's modules; a model entry has the same module, cfg and family.
        TraceEntry asTrace = new TraceEntry(m.name(), m.family(), m.module(), m.cfg(), TraceEntry.Kind.TARGETED,
                List.of(), 0, null, m.why(), null);
        List<String> out = new ArrayList<>();
        out.add(relative(repo.specs().resolve(m.cfg())));
        for (Path module : traceInputs.modules(asTrace)) {
            out.add(relative(module));
        }
        return out;
    }

    private String relative(Path p) {
        return repo.root().relativize(p.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }
}
