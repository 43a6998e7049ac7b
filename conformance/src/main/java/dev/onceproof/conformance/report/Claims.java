package dev.onceproof.conformance.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceproof.conformance.manifest.Repo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
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
 */
public record Claims(Path source, Map<String, Claim> claims) {

    /** @param basis how the claim is checked ("identity" cannot fail), null when the source does not say */
    public record Claim(String id, String verdict, String statement, String basis) { }

    private static final Pattern SUMMARY_LINE = Pattern.compile("^([A-Z]+)\\s{2,}(\\S+)\\s+(.*)$");
    private static final ObjectMapper JSON = new ObjectMapper();

    public static Path dir(Repo repo, String family) {
        return repo.root().resolve("bench").resolve("results").resolve(family);
    }

    public static Claims load(Repo repo, String family) {
        Path json = dir(repo, family).resolve("claims.json");
        if (Files.isRegularFile(json)) {
            return fromJson(json);
        }
        Path summary = dir(repo, family).resolve("summary.txt");
        if (Files.isRegularFile(summary)) {
            return fromSummary(summary);
        }
        return new Claims(null, Map.of());
    }

    /** Either an array of claims or an object with a "claims" array; each claim has an "id". */
    static Claims fromJson(Path file) {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (IOException e) {
            throw new StatementsException(file, "cannot be read as JSON: " + e.getMessage());
        }
        JsonNode list = root != null && root.isObject() ? root.get("claims") : root;
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
            out.putIfAbsent(id, new Claim(id, text(c, "verdict"), text(c, "statement"), text(c, "basis")));
        }
        return new Claims(file, Collections.unmodifiableMap(out));
    }

    static Claims fromSummary(Path file) {
        Map<String, Claim> out = new LinkedHashMap<>();
        try {
            for (String line : Files.readAllLines(file)) {
                Matcher m = SUMMARY_LINE.matcher(line);
                if (m.matches() && isVerdict(m.group(1))) {
                    out.putIfAbsent(m.group(2), new Claim(m.group(2), m.group(1), m.group(3).strip(), null));
                }
            }
        } catch (IOException e) {
            throw new StatementsException(file, "cannot be read: " + e);
        }
        return new Claims(file, Collections.unmodifiableMap(out));
    }

    private static boolean isVerdict(String word) {
        return word.equals("PASS") || word.equals("FAIL") || word.equals("GAP") || word.equals("STALE");
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n == null ? null : n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }
}
