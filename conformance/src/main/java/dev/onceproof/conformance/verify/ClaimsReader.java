package dev.onceproof.conformance.verify;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.provenance.InputsHash;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads the evaluation claims the benches committed (bench/results/&lt;family&gt;/claims.json, schema
 * {@value #SCHEMA}) and checks each file's inputs hash against the repository as it is now. Benches
 * are not rerun: a claim is as good as the code it was measured on, and the hash says whether that
 * code changed.
 *
 * <p>Status per claim: ok for PASS or GAP (a disagreement the bench explains) with the inputs
 * unchanged; fail for FAIL; stale when the inputs changed since the bench ran (whatever the verdict
 * was); skipped for NOT_RUN; error, with one line naming the file and the field, when the file cannot
 * be read. Whether stale fails the run is the caller's choice ({@code --strict-claims}).
 */
public final class ClaimsReader {

    public static final String SCHEMA = "onceproof-claims/1";
    private static final Set<String> VERDICTS = Set.of("PASS", "FAIL", "GAP", "NOT_RUN");
    private static final ObjectMapper JSON = new ObjectMapper();

    private ClaimsReader() {
    }

    /** Every claims file under bench/results, families sorted; only {@code family} when not null. */
    public static List<VerifyResults.Claim> read(Repo repo, String family) {
        Path results = repo.root().resolve("bench").resolve("results");
        List<VerifyResults.Claim> out = new ArrayList<>();
        if (!Files.isDirectory(results)) {
            return out;
        }
        List<Path> files;
        try (Stream<Path> dirs = Files.list(results)) {
            files = dirs.filter(Files::isDirectory).sorted().map(d -> d.resolve("claims.json"))
                    .filter(Files::isRegularFile).toList();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot list " + results, e);
        }
        for (Path f : files) {
            String folder = f.getParent().getFileName().toString();
            if (family == null || family.equals(folder)) {
                out.addAll(readFile(repo, f));
            }
        }
        return out;
    }

    /** The claims of one file; a broken file is one claim with status error naming the file and the field. */
    public static List<VerifyResults.Claim> readFile(Repo repo, Path file) {
        String rel = repo.root().relativize(file.toAbsolutePath().normalize()).toString().replace('\\', '/');
        String folder = file.getParent().getFileName().toString();
        try {
            return parse(repo, file, rel, folder);
        } catch (Broken e) {
            return List.of(new VerifyResults.Claim(folder, null, null, null, null, null, null, null, null, "error",
                    null, rel + ": " + e.getMessage(), rel));
        }
    }

    private static List<VerifyResults.Claim> parse(Repo repo, Path file, String rel, String folder) {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (JsonProcessingException e) {
            throw new Broken("is not valid JSON: " + e.getOriginalMessage() + " at line "
                    + e.getLocation().getLineNr());
        } catch (IOException e) {
            throw new Broken("cannot be read: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new Broken("must be a JSON object");
        }
        String schema = text(root, "schema");
        if (!schema.equals(SCHEMA)) {
            throw new Broken("field \"schema\": is \"" + schema + "\", expected \"" + SCHEMA + "\"");
        }
        String family = text(root, "family");
        if (!family.equals(folder)) {
            throw new Broken("field \"family\": is \"" + family + "\" but the file is in bench/results/" + folder);
        }
        JsonNode inputs = root.get("inputs");
        if (inputs == null || !inputs.isArray() || inputs.isEmpty()) {
            throw new Broken("field \"inputs\": must be a non-empty array of repository paths");
        }
        List<String> paths = new ArrayList<>();
        for (JsonNode p : inputs) {
            if (!p.isTextual() || p.asText().isBlank()) {
                throw new Broken("field \"inputs\": " + p + " is not a path");
            }
            paths.add(p.asText());
        }
        String recorded = text(root, "inputsHash");
        String now;
        String staleReason = null;
        try {
            now = InputsHash.of(repo.root(), paths);
        } catch (IllegalArgumentException e) {
            now = null;
            staleReason = "an input is gone: " + e.getMessage();
        }
        if (staleReason == null && !recorded.equals(now)) {
            staleReason = "inputs changed since the bench ran (recorded " + abbreviate(recorded) + ", now "
                    + abbreviate(now) + "); rerun: " + root.path("command").asText("the bench");
        }
        JsonNode claims = root.get("claims");
        if (claims == null || !claims.isArray()) {
            throw new Broken("field \"claims\": must be an array");
        }
        List<VerifyResults.Claim> out = new ArrayList<>();
        for (int i = 0; i < claims.size(); i++) {
            JsonNode c = claims.get(i);
            String at = "claims[" + i + "]";
            if (!c.isObject()) {
                throw new Broken("field \"" + at + "\": must be an object");
            }
            String id = text(c, "id", at);
            String verdict = text(c, "verdict", at);
            if (!VERDICTS.contains(verdict)) {
                throw new Broken("field \"" + at + ".verdict\" (" + id + "): is \"" + verdict + "\"; it must be one of "
                        + new java.util.TreeSet<>(VERDICTS));
            }
            String statement = text(c, "statement", at);
            JsonNode canFail = c.get("canFail");
            if (canFail != null && !canFail.isBoolean() && !canFail.isNull()) {
                throw new Broken("field \"" + at + ".canFail\" (" + id + "): must be true or false, is " + canFail);
            }
            String status;
            String reason = optional(c, "reason");
            if (staleReason != null) {
                status = "stale";
                reason = staleReason;
            } else {
                status = switch (verdict) {
                    case "PASS", "GAP" -> "ok";
                    case "FAIL" -> "fail";
                    default -> "skipped";
                };
            }
            out.add(new VerifyResults.Claim(family, id, optional(c, "location"), statement, verdict,
                    optional(c, "measured"), optional(c, "expected"), optional(c, "basis"),
                    canFail == null || canFail.isNull() ? null : canFail.booleanValue(), status, recorded, reason, rel));
        }
        return out;
    }

    private static String abbreviate(String hash) {
        return hash == null ? "none" : hash.length() > 19 ? hash.substring(0, 19) + "..." : hash;
    }

    private static String text(JsonNode n, String field) {
        return text(n, field, null);
    }

    private static String text(JsonNode n, String field, String at) {
        JsonNode v = n.get(field);
        String name = at == null ? field : at + "." + field;
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            throw new Broken("field \"" + name + "\": " + (v == null ? "is missing" : "must be a non-empty string, is " + v));
        }
        return v.asText();
    }

    /** A string or a number rendered as text (measured values may be either); null when absent. */
    private static String optional(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.isValueNode() ? v.asText() : v.toString();
    }

    /** A claims file that cannot be read; the message names the field. */
    private static final class Broken extends RuntimeException {
        Broken(String message) {
            super(message);
        }
    }
}
