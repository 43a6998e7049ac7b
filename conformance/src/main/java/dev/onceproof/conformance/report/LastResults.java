package dev.onceproof.conformance.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the report reads of the results file {@code ./onceproof verify} writes
 * (target/onceproof/last-results.json, schema {@value #SCHEMA}). Read field by field and leniently
 * (fields added later are ignored) so the report works with any run that keeps the schema's names.
 *
 * @param file null when there is no results file: every entry then reads as not run
 */
public record LastResults(Path file, String commit, String startedAt, String command, String shard,
                          List<Model> models, List<Trace> traces, List<Claim> claims) {

    public static final String SCHEMA = "onceproof-verify/1";

    /** @param status ok, fail, error or incomplete */
    public record Model(String name, String family, String mode, String expect, String outcome, String status,
                        Long distinctStates, Integer depth, Double seconds, String inputsHash, String counterexample) { }

    /** @param status ok, fail, stale, error or skipped */
    public record Trace(String file, String family, String kind, String status, Integer steps, Double seconds,
                        String inputsHash, String mismatch, String reason) { }

    /** @param status ok, fail, stale, error or skipped */
    public record Claim(String family, String id, String verdict, String measured, String basis, Boolean canFail,
                        String status, String inputsHash, String reason) { }

    public LastResults {
        models = List.copyOf(models);
        traces = List.copyOf(traces);
        claims = List.copyOf(claims);
    }

    public static LastResults none() {
        return new LastResults(null, null, null, null, null, List.of(), List.of(), List.of());
    }

    public static LastResults read(Path file) {
        JsonNode root;
        try {
            root = new ObjectMapper().readTree(Files.readString(file));
        } catch (IOException e) {
            throw new StatementsException(file, "cannot be read as JSON: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new StatementsException(file, "must be a JSON object (schema " + SCHEMA + ")");
        }
        if (!SCHEMA.equals(text(root, "schema"))) {
            throw new StatementsException(file, "field \"schema\" is " + root.get("schema") + ", this report reads " + SCHEMA);
        }
        List<Model> models = new ArrayList<>();
        for (JsonNode m : array(file, root, "models")) {
            models.add(new Model(required(file, m, "models", "name"), text(m, "family"), text(m, "mode"), text(m, "expect"),
                    text(m, "outcome"), required(file, m, "models", "status"), longOf(m, "distinctStates"),
                    intOf(m, "depth"), doubleOf(m, "seconds"), text(m, "inputsHash"), text(m, "counterexample")));
        }
        List<Trace> traces = new ArrayList<>();
        for (JsonNode t : array(file, root, "traces")) {
            traces.add(new Trace(required(file, t, "traces", "file"), text(t, "family"), text(t, "kind"),
                    required(file, t, "traces", "status"), intOf(t, "steps"), doubleOf(t, "seconds"),
                    text(t, "inputsHash"), text(t, "mismatch"), text(t, "reason")));
        }
        List<Claim> claims = new ArrayList<>();
        for (JsonNode c : array(file, root, "claims")) {
            JsonNode canFail = c.get("canFail");
            claims.add(new Claim(text(c, "family"), required(file, c, "claims", "id"), text(c, "verdict"),
                    text(c, "measured"), text(c, "basis"), canFail == null || canFail.isNull() ? null : canFail.asBoolean(),
                    required(file, c, "claims", "status"), text(c, "inputsHash"), text(c, "reason")));
        }
        return new LastResults(file, text(root, "commit"), text(root, "startedAt"), text(root, "command"),
                text(root, "shard"), models, traces, claims);
    }

    private static Iterable<JsonNode> array(Path file, JsonNode root, String field) {
        JsonNode a = root.get(field);
        if (a == null || a.isNull()) {
            return List.of();
        }
        if (!a.isArray()) {
            throw new StatementsException(file, "field \"" + field + "\" must be an array");
        }
        return a;
    }

    private static String required(Path file, JsonNode n, String list, String field) {
        String v = text(n, field);
        if (v == null) {
            throw new StatementsException(file, "an entry of \"" + list + "\" has no \"" + field + "\": " + n);
        }
        return v;
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static Long longOf(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || !v.isNumber() ? null : v.asLong();
    }

    private static Integer intOf(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || !v.isNumber() ? null : v.asInt();
    }

    private static Double doubleOf(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || !v.isNumber() ? null : v.asDouble();
    }
}
