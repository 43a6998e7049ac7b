package dev.onceproof.conformance.verify;

import java.util.List;

/**
 * Everything one {@code ./onceproof verify} run found, as it is written to JSON (schema
 * {@value #SCHEMA}): {@code --json FILE}, and always target/onceproof/last-results.json, which
 * {@code ./onceproof report} reads. Field names are the schema; add fields, do not rename them.
 *
 * @param commit    the repository's git HEAD, or null outside a git checkout
 * @param startedAt ISO-8601
 * @param shard     "I/N" for a shard run, null for a whole run (and for a merge)
 * @param ok        the verdict the exit code gives: no model, trace or claim failed
 * @param failures  one line per failure, as printed
 * @param selection every model the command selected, before a shard took its part: a merge checks
 *                  that the shards together hold each exactly once
 * @param validations the trace validations of real runs' step logs (README, "Trace validation");
 *                  empty in a file written before they were part of verify
 */
public record VerifyResults(String schema, String commit, String startedAt, double seconds, String command,
                            String shard, boolean ok, List<Model> models, List<Trace> traces, List<Claim> claims,
                            List<String> failures, List<String> selection, List<Validation> validations) {

    public static final String SCHEMA = "onceproof-verify/1";

    public VerifyResults {
        models = List.copyOf(models);
        traces = List.copyOf(traces);
        claims = List.copyOf(claims);
        failures = List.copyOf(failures);
        selection = List.copyOf(selection);
        validations = validations == null ? List.of() : List.copyOf(validations);
    }

    /**
     * One trace validation: TLC checked that the step logs of one real run are a behaviour of the
     * spec their headers name.
     *
     * @param name    a stored run: its file or folder relative to the repository; a fresh run: what
     *                made it and its seed
     * @param family  the manifest's family (the hybrid's logs are rpc's)
     * @param spec    the spec module the logs name (SCMP, RPC, Hybrid)
     * @param kind    stored (conformance/src/test/resources/validate/) or fresh (made by this run)
     * @param status  ok (accepted), rejected (a line no reachable state takes: see report), error
     *                (TLC could not check, or the run could not be made), skipped (see reason)
     * @param lines   step lines over all processes
     * @param report  the rejection report (first line no state takes, a state as a table, the actions
     *                enabled in it) or the error; null when accepted
     */
    public record Validation(String name, String family, String spec, String kind, String status, int lines,
                             long states, double seconds, String report, String reason) {

        public Validation {
            seconds = millis(seconds);
        }
    }

    /**
     * One model TLC checked.
     *
     * @param outcome        TLC's summary ("pass", the violated property, "timeout: ...", "incomplete")
     * @param status         ok, fail (TLC disagrees with the manifest), error (TLC could not run),
     *                       incomplete (a budgeted run stopped before the end: never a pass)
     * @param inputsHash     over the model's module, cfg and every module of the family it reaches
     *                       ({@link ModelInputs})
     * @param counterexample the rendered table when TLC found a behaviour the manifest did not expect
     * @param untakenActions for an incomplete run, the actions it never took; empty otherwise
     */
    public record Model(String name, String family, String mode, String module, String cfg, String expect,
                        String outcome, String status, long distinctStates, int depth, double seconds,
                        String inputsHash, String counterexample, List<String> problems,
                        List<String> untakenActions) {

        public Model {
            seconds = millis(seconds);
            problems = List.copyOf(problems);
            untakenActions = List.copyOf(untakenActions);
        }
    }

    /**
     * One trace: a stored file under traces/ (its freshness and its replay) or a fresh simulation.
     *
     * @param file       traces/&lt;family&gt;/x.jsonl for a stored trace, the file name for a fresh one
     * @param kind       stored or fresh
     * @param status     ok, fail (the core left the trace), stale (the stored file is not what the
     *                   spec generates today, or is missing or extra), error (TLC could not make it,
     *                   or was cut short at its budget), skipped (not run: see reason)
     * @param inputsHash the trace's inputs hash (TraceInputs) as of this run; null for an extra file
     * @param mismatch   the replay mismatch report, the staleness line, or why TLC could not make it
     * @param reason     why a trace was skipped or cut short; null otherwise
     */
    public record Trace(String file, String family, String kind, String status, int steps, double seconds,
                        String inputsHash, String mismatch, String reason) {

        public Trace {
            seconds = millis(seconds);
        }
    }

    /** Times to the millisecond: finer digits are noise. */
    static double millis(double seconds) {
        return Math.round(seconds * 1000) / 1000.0;
    }

    /**
     * One evaluation claim of a committed bench result (bench/results/&lt;family&gt;/claims.json).
     *
     * @param status ok (PASS or GAP, with its inputs unchanged), fail (FAIL), stale (its inputs changed
     *               since the bench ran), skipped (NOT_RUN), error (the file cannot be read)
     * @param file   the claims file, relative to the repository
     */
    public record Claim(String family, String id, String location, String statement, String verdict,
                        String measured, String expected, String basis, Boolean canFail, String status,
                        String inputsHash, String reason, String file) {
    }
}
