package dev.onceproof.conformance.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.provenance.InputsHash;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The evaluation claims a family's bench has committed: bench/results/&lt;family&gt;/claims.json when it
 * exists (it carries each claim's basis, so an identity of the closed form can be told from a claim
 * that can fail), else the {@code VERDICT  id  text} lines of summary.txt, which name the claim but
 * not its basis.
 *
 * @param source the file the claims were read from, null when the family has neither
 * @param claims id to claim, in file order; the same id may stand on several lines of summary.txt
 *               (one claim checked at several points), kept once
 * @param fresh  claims.json only: whether its recorded inputsHash is the hash of its inputs now
 *               (InputsHash over the "inputs" it lists); null when the source cannot say
 */
public record Claims(Path source, Map<String, Claim> claims, Boolean fresh) {

    /**
     * @param basis   how the claim is checked ("identity" cannot fail), null when the source does not say
     * @param canFail the bench's own word on it, null when the source does not say
     */
    public record Claim(String id, String verdict, String statement, String basis, Boolean canFail) { }

    private static final Pattern SUMMARY_LINE = Pattern.compile("^([A-Z]+)\\s{2,}(\\S+)\\s+(.*)$");
    private static final ObjectMapper JSON = new ObjectMapper();

    public static Path dir(Repo repo, String family) {
        return repo.root().resolve("bench").resolve("results").resolve(family);
    }

    public static Claims load(Repo repo, String family) {
        Path json = dir(repo, family).resolve("claims.json");
        if (Files.isRegularFile(json)) {
            return fromJson(repo.root(), json);
        }
        Path summary = dir(repo, family).resolve("summary.txt");
        if (Files.isRegularFile(summary)) {
            return fromSummary(summary);
        }
        return new Claims(null, Map.of(), null);
    }

    /**
     * Either an array of claims or an object with a "claims" array (the bench's onceproof-claims/1,
     * which also lists its "inputs" and their "inputsHash"); each claim has an "id".
     */
    static Claims fromJson(Path root, Path file) {
        JsonNode doc;
        try {
            doc = JSON.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new StatementsException(file, "cannot be read as JSON: " + e.getMessage());
        }
        JsonNode list = doc != null && doc.isObject() ? doc.get("claims") : doc;
        if (list == null || !list.isArray()) {
            throw new StatementsException(file, "needs an array of claims (or an object with \"claims\")");
        }
        Map<String, Claim> out = new LinkedHashMap<>();
        for (int i = 0; i < list.size(); i++) {
            JsonNode c = list.get(i);
            String id = text(c, "id");
            if (id == null) {
                throw new StatementsException(file, "claim " + (i + 1) + " has no \"id\"");
            }
            JsonNode canFail = c.get("canFail");
            out.putIfAbsent(id, new Claim(id, text(c, "verdict"), text(c, "statement"), text(c, "basis"),
                    canFail == null || canFail.isNull() ? null : canFail.asBoolean()));
        }
        return new Claims(file, Collections.unmodifiableMap(out), fresh(root, file, doc));
    }

    /** The bench's staleness rule: the recorded inputsHash against InputsHash of the listed inputs now. */
    private static Boolean fresh(Path root, Path file, JsonNode doc) {
        JsonNode inputs = doc.isObject() ? doc.get("inputs") : null;
        String recorded = doc.isObject() ? text(doc, "inputsHash") : null;
        if (inputs == null || !inputs.isArray() || recorded == null) {
            return null;
        }
        List<String> paths = new ArrayList<>();
        inputs.forEach(i -> paths.add(i.asText()));
        try {
            return InputsHash.of(root, paths).equals(recorded);
        } catch (IllegalArgumentException e) {
            // An input that no longer exists: the result cannot be fresh against it.
            return false;
        }
    }

    static Claims fromSummary(Path file) {
        Map<String, Claim> out = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                Matcher m = SUMMARY_LINE.matcher(line);
                if (m.matches() && isVerdict(m.group(1))) {
                    out.putIfAbsent(m.group(2), new Claim(m.group(2), m.group(1), m.group(3).strip(), null, null));
                }
            }
        } catch (IOException e) {
            throw new StatementsException(file, "cannot be read: " + e);
        }
        return new Claims(file, Collections.unmodifiableMap(out), null);
    }

    private static boolean isVerdict(String word) {
        return word.equals("PASS") || word.equals("FAIL") || word.equals("GAP") || word.equals("STALE");
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
