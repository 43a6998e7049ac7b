package dev.onceproof.conformance.report;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.core.JsonProcessingException;
import dev.onceproof.conformance.manifest.Repo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * specs/&lt;family&gt;/statements.json: the family's paper statements, each with its evidence. The
 * proof-map tables of the family README and the report are generated from it; nobody keeps a second
 * list.
 *
 * @param paper the paper the statements come from, as the README cites it
 */
public record FamilyStatements(String family, String paper, List<Statement> statements) {

    /** The order the report and the README list families in: the order of the repository README. */
    public static final List<String> FAMILY_ORDER = List.of("scmp", "adaptive", "rpc", "exactlyonce", "causal");

    public static final String FILE = "statements.json";

    private static final ObjectMapper JSON = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);

    public FamilyStatements {
        statements = statements == null ? List.of() : List.copyOf(statements);
    }

    public static Path file(Repo repo, String family) {
        return repo.familyDir(family).resolve(FILE);
    }

    /** Every family folder holding a statements file, in {@link #FAMILY_ORDER}, others after by name. */
    public static List<String> families(Repo repo) {
        try (Stream<Path> dirs = Files.list(repo.specs())) {
            Set<String> found = dirs.filter(d -> Files.isRegularFile(d.resolve(FILE)))
                    .map(d -> d.getFileName().toString()).collect(Collectors.toSet());
            List<String> out = new ArrayList<>(FAMILY_ORDER.stream().filter(found::contains).toList());
            found.stream().filter(f -> !FAMILY_ORDER.contains(f)).sorted().forEach(out::add);
            return out;
        } catch (IOException e) {
            throw new StatementsException(repo.specs(), "cannot be listed: " + e);
        }
    }

    public static FamilyStatements load(Repo repo, String family) {
        Path file = file(repo, family);
        FamilyStatements fs = read(file);
        if (!family.equals(fs.family())) {
            throw new StatementsException(file, "field \"family\" is \"" + fs.family() + "\", the folder is " + family);
        }
        return fs;
    }

    /**
     * Reads and checks the shape: every statement has an id (unique), a statement, a location; every
     * evidence a kind and a ref; a control only on a model or test. Whether the refs resolve is
     * {@link RefCheck}'s business, which needs the rest of the repository.
     */
    public static FamilyStatements read(Path file) {
        FamilyStatements fs;
        try {
            fs = JSON.readValue(Files.readString(file), FamilyStatements.class);
        } catch (JsonMappingException e) {
            throw new StatementsException(file, e.getOriginalMessage() + " at " + path(e) + location(e));
        } catch (JsonProcessingException e) {
            throw new StatementsException(file, "is not valid JSON: " + e.getOriginalMessage() + location(e));
        } catch (IOException e) {
            throw new StatementsException(file, "cannot be read: " + e);
        }
        if (fs == null || blank(fs.family()) || blank(fs.paper())) {
            throw new StatementsException(file, "needs \"family\", \"paper\" and \"statements\"");
        }
        Set<String> ids = new HashSet<>();
        for (Statement s : fs.statements()) {
            String where = s.id() == null ? "a statement without an id" : "statement " + s.id();
            if (blank(s.id()) || !s.id().matches("[a-z0-9]+(-[a-z0-9]+)*")) {
                throw new StatementsException(file, where + ": \"id\" must be kebab-case");
            }
            if (!ids.add(s.id())) {
                throw new StatementsException(file, where + ": the id occurs twice");
            }
            if (blank(s.statement()) || blank(s.location())) {
                throw new StatementsException(file, where + ": needs \"statement\" and \"location\"");
            }
            for (int i = 0; i < s.evidence().size(); i++) {
                Evidence e = s.evidence().get(i);
                String ev = where + ", evidence " + (i + 1);
                if (e == null || e.kind() == null || blank(e.ref())) {
                    throw new StatementsException(file, ev + ": needs \"kind\" and \"ref\"");
                }
                if (e.control() != null && e.kind() != Evidence.Kind.MODEL && e.kind() != Evidence.Kind.TEST) {
                    throw new StatementsException(file, ev + " (" + e.ref() + "): \"control\" belongs to a model or test");
                }
            }
        }
        return fs;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static String path(JsonMappingException e) {
        return e.getPath().stream()
                .map(r -> r.getFieldName() != null ? "." + r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining()).replaceFirst("^\\.", "");
    }

    private static String location(JsonProcessingException e) {
        return e.getLocation() == null ? ""
                : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    }
}
