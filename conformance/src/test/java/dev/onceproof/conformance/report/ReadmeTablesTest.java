package dev.onceproof.conformance.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The drift test: each family README's proof-map table is what {@code ./onceproof report --readmes}
 * makes from the family's statements file. Fix a failure with that command, not by hand.
 */
class ReadmeTablesTest {

    private static final Repo REPO = Repo.locate();

    @TempDir
    Path tmp;

    /** The family READMEs whose proof-map block differs from what the statements file gives. */
    static List<String> drifted(Repo repo) throws IOException {
        List<String> out = new ArrayList<>();
        for (String family : FamilyStatements.families(repo)) {
            String readme = Files.readString(ReadmeTables.readme(repo, family));
            Optional<String> regenerated = ReadmeTables.regenerate(readme, FamilyStatements.load(repo, family));
            if (regenerated.isEmpty()) {
                out.add(family + ": no proof-map markers in specs/" + family + "/README.md");
            } else if (!regenerated.get().equals(readme)) {
                out.add(family + ": specs/" + family + "/README.md differs from specs/" + family
                        + "/statements.json; run ./onceproof report --readmes");
            }
        }
        return out;
    }

    @Test
    void everyFamilyReadmeTableIsGeneratedFromItsStatementsFile() throws IOException {
        assertThat(drifted(REPO)).isEmpty();
    }

    /** The drift test can fail: a hand edit of a table row, or a statement added without regenerating. */
    @Test
    void aHandEditedTableOrAnUnregeneratedStatementIsCaught() throws IOException {
        Repo copy = copyOfSpecs();
        Path readme = ReadmeTables.readme(copy, "scmp");
        String text = Files.readString(readme);
        Files.writeString(readme, text.replace("(`no-duplicate`)", "(`no-duplicate`, edited by hand)"));
        assertThat(drifted(copy)).containsExactly(
                "scmp: specs/scmp/README.md differs from specs/scmp/statements.json; run ./onceproof report --readmes");

        Files.writeString(readme, text);
        assertThat(drifted(copy)).isEmpty();
        Path statements = FamilyStatements.file(copy, "causal");
        Files.writeString(statements, Files.readString(statements).replace("\"statements\": [",
                "\"statements\": [ { \"id\": \"new-one\", \"statement\": \"s\", \"location\": \"l\" },"));
        assertThat(drifted(copy)).containsExactly(
                "causal: specs/causal/README.md differs from specs/causal/statements.json; run ./onceproof report --readmes");
        assertThat(ReadmeTables.rewrite(copy, FamilyStatements.load(copy, "causal"))).isTrue();
        assertThat(drifted(copy)).isEmpty();
        assertThat(Files.readString(ReadmeTables.readme(copy, "causal")))
                .contains("| l | s (`new-one`) | none | **no: uncovered** |");
    }

    @Test
    void rewritingKeepsTheProseAroundTheBlock() {
        FamilyStatements fs = new FamilyStatements("fam", "p", List.of(new Statement("a", "st", "sec. 1",
                List.of(new Evidence(Evidence.Kind.MUTANT, "m", "P", null, null, null)))));
        String readme = "# Title\n\nprose before\n\n" + ReadmeTables.begin("fam") + "\nold table\n"
                + ReadmeTables.END + "\n\nprose after\n";
        assertThat(ReadmeTables.regenerate(readme, fs)).contains("# Title\n\nprose before\n\n" + ReadmeTables.begin("fam")
                + "\n| paper | statement | evidence | can fail on its own |\n| --- | --- | --- | --- |\n"
                + "| sec. 1 | st (`a`) | mutant `m` -> `P` | yes |\n" + ReadmeTables.END + "\n\nprose after\n");
        assertThat(ReadmeTables.regenerate("no markers", fs)).isEmpty();
    }

    private Repo copyOfSpecs() throws IOException {
        for (String family : FamilyStatements.families(REPO)) {
            Path dir = Files.createDirectories(tmp.resolve("specs").resolve(family));
            Files.copy(ReadmeTables.readme(REPO, family), dir.resolve("README.md"));
            Files.copy(FamilyStatements.file(REPO, family), dir.resolve(FamilyStatements.FILE));
        }
        Files.copy(REPO.manifestFile(), tmp.resolve("specs/manifest.json"));
        return new Repo(tmp);
    }
}
