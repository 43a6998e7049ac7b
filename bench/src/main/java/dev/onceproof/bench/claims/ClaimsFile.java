package dev.onceproof.bench.claims;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.provenance.InputsHash;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code bench/results/<family>/claims.json}: a bench's claims with the hash of every source folder
 * its numbers depend on ({@link InputsHash}), so a reader that recomputes the hash sees a stale result
 * as stale without rerunning the bench. Schema {@value #SCHEMA}:
 * <pre>
 * { "schema", "family", "command", "inputs": [repo-relative paths], "inputsHash": "sha256:...",
 *   "claims": [ { "id", "location", "statement", "verdict", "measured", "expected", "basis", "canFail", "reason" } ] }
 * </pre>
 */
public final class ClaimsFile {

    public static final String SCHEMA = "onceproof-claims/1";
    public static final String NAME = "claims.json";

    private ClaimsFile() {
    }

    /**
     * Writes {@code dir/claims.json}; the inputs hash is taken under {@code root} (the repository)
     * right before writing, so it names the sources this run was compiled from unless they changed
     * during the run.
     */
    public static Path write(Path root, Path dir, String family, String command, List<String> inputs,
            List<PaperClaim> claims) throws IOException {
        ObjectMapper json = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode rootNode = json.createObjectNode();
        rootNode.put("schema", SCHEMA);
        rootNode.put("family", family);
        rootNode.put("command", command);
        ArrayNode in = rootNode.putArray("inputs");
        inputs.forEach(in::add);
        rootNode.put("inputsHash", InputsHash.of(root, inputs));
        ArrayNode cs = rootNode.putArray("claims");
        for (PaperClaim c : claims) {
            ObjectNode n = cs.addObject();
            n.put("id", c.id());
            n.put("location", c.location());
            n.put("statement", c.statement());
            n.put("verdict", c.verdict().name());
            n.put("measured", c.measured());
            n.put("expected", c.expected());
            n.put("basis", c.basis().json());
            n.put("canFail", c.canFail());
            n.put("reason", c.reason());
        }
        Files.createDirectories(dir);
        Path file = dir.resolve(NAME);
        json.writeValue(file.toFile(), rootNode);
        return file;
    }

    /** Whether the file's recorded hash equals the hash of its inputs under {@code root} now. */
    public static boolean fresh(Path root, Path file) throws IOException {
        JsonNode n = new ObjectMapper().readTree(file.toFile());
        List<String> inputs = new java.util.ArrayList<>();
        n.get("inputs").forEach(i -> inputs.add(i.asText()));
        return InputsHash.of(root, inputs).equals(n.get("inputsHash").asText());
    }

    /**
     * The repository root: the nearest folder at or above {@code start} that holds
     * {@code specs/manifest.json} and {@code bench/pom.xml} (the benches run from the root, by
     * {@code ./onceproof}).
     */
    public static Path repoRoot(Path start) {
        for (Path p = start.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("specs/manifest.json")) && Files.isRegularFile(p.resolve("bench/pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("no repository root (a folder with specs/manifest.json and bench/pom.xml) at"
                + " or above " + start.toAbsolutePath() + "; run the bench from the repository");
    }
}
