package dev.onceproof.conformance.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.trace.TraceInputs;
import dev.onceproof.provenance.InputsHash;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The inputs hash of a model's or a trace's result as of now, to compare with the one a verify run
 * recorded: different means the result is stale.
 *
 * <p>A model's hash is {@link InputsHash} over its cfg and every module TLC can load for it (the module
 * and, transitively, the modules of its folder and its family's folder that it names, found as
 * {@link TraceInputs#modules} finds a trace model's). That is the definition the verify command's
 * results use (helper B's {@code verify.ModelInputs}, on branch verify when this was written, and
 * checked to give the same hashes); once both are on main this class should call that one. A trace's
 * hash is the one its header carries ({@link TraceInputs#hash}).
 */
public final class CurrentInputs {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Repo repo;
    private final TraceInputs traceInputs;

    public CurrentInputs(Repo repo) {
        this(repo, new TraceInputs(repo));
    }

    public CurrentInputs(Repo repo, TraceInputs traceInputs) {
        this.repo = repo;
        this.traceInputs = traceInputs;
    }

    public String model(ModelEntry m) {
        return InputsHash.of(repo.root(), modelFiles(m));
    }

    /** Repository-relative paths: the cfg, then the reachable modules (sorted). */
    public List<String> modelFiles(ModelEntry m) {
        // TraceInputs walks a trace model's modules; a model entry has the same module, cfg and family.
        // Built by name through Jackson, so this compiles whatever optional fields TraceEntry gains.
        Map<String, Object> fields = new HashMap<>();
        fields.put("name", m.name());
        fields.put("family", m.family());
        fields.put("module", m.module());
        fields.put("cfg", m.cfg());
        fields.put("kind", TraceEntry.Kind.TARGETED.name());
        fields.put("seeds", List.of());
        fields.put("depth", 0);
        fields.put("why", m.why());
        TraceEntry asTrace = JSON.convertValue(fields, TraceEntry.class);
        List<String> out = new ArrayList<>();
        out.add(relative(repo.specs().resolve(m.cfg())));
        for (Path module : traceInputs.modules(asTrace)) {
            out.add(relative(module));
        }
        return out;
    }

    /**
     * "sha256:" and the hash a trace header carries, as the verify results write it.
     *
     * @param seed the simulation seed of the file, null for a targeted trace
     */
    public String trace(TraceEntry t, Long seed) {
        return "sha256:" + traceInputs.hash(t, seed);
    }

    /** Whether two hashes are the same, with or without the "sha256:" a header leaves out. */
    static boolean same(String a, String b) {
        return strip(a).equals(strip(b));
    }

    private static String strip(String h) {
        return h.startsWith("sha256:") ? h.substring("sha256:".length()) : h;
    }

    private String relative(Path p) {
        return repo.root().relativize(p.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }
}
