package dev.onceproof.conformance.report;

import dev.onceproof.conformance.manifest.ModelEntry;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.manifest.TraceEntry;
import dev.onceproof.conformance.trace.TraceInputs;
import dev.onceproof.conformance.verify.ModelInputs;

/**
 * The inputs hash of a model's or a trace's result as of now, to compare with the one a verify run
 * recorded: different means the result is stale. Both are the verify command's own definitions: a
 * model's is {@link ModelInputs}, a trace's the one its header carries ({@link TraceInputs#hash}).
 */
public final class CurrentInputs {

    private final TraceInputs traceInputs;
    private final ModelInputs modelInputs;

    public CurrentInputs(Repo repo) {
        this(repo, new TraceInputs(repo));
    }

    public CurrentInputs(Repo repo, TraceInputs traceInputs) {
        this.traceInputs = traceInputs;
        this.modelInputs = new ModelInputs(repo, traceInputs);
    }

    public String model(ModelEntry m) {
        return modelInputs.hash(m);
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
}
