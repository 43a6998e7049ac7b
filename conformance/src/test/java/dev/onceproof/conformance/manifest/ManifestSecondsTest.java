package dev.onceproof.conformance.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.conformance.trace.TinyRepo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The seconds field is written as a text edit: every other byte of the manifest stays. */
class ManifestSecondsTest {

    @TempDir
    Path dir;

    private static ManifestSeconds.Key model(String name) {
        return new ManifestSeconds.Key(ManifestSeconds.Section.MODELS, name);
    }

    /** The manifest without any seconds field (its lines removed): what must not change. */
    private static String withoutSeconds(String text) {
        return text.replaceAll("(?m)^\\s*\"seconds\": [0-9.]+,\n", "");
    }

    @Test
    void theRealManifestChangesOnlyInTheSecondsOfTheEntriesTimed() throws Exception {
        Path real = Repo.locate().manifestFile();
        String text = Files.readString(real);
        assertThat(ManifestSeconds.apply(real, text, Map.of())).isEqualTo(text);
        String once = ManifestSeconds.apply(real, text, Map.of(model("scmp-resilient"), 4.26,
                new ManifestSeconds.Key(ManifestSeconds.Section.TRACES, "rpc-sim"), 1.0));
        assertThat(withoutSeconds(once)).isEqualTo(withoutSeconds(text));
        Path copy = dir.resolve("manifest.json");
        Files.writeString(copy, once);
        // (The loader checks the files next to the manifest, which the copy has not; read it as JSON.)
        var json = new com.fasterxml.jackson.databind.ObjectMapper().readTree(once);
        json.get("models").forEach(e -> assertThat(e.has("seconds")).isEqualTo(e.get("name").asText()
                .equals("scmp-resilient") || text.contains("\"seconds\"") && e.has("seconds")));
        json.get("models").forEach(e -> {
            if (e.get("name").asText().equals("scmp-resilient")) {
                assertThat(e.get("seconds").asDouble()).isEqualTo(4.3);
            }
        });
        json.get("traces").forEach(e -> {
            if (e.get("name").asText().equals("rpc-sim")) {
                assertThat(e.get("seconds").asDouble()).isEqualTo(1.0);
            }
        });
        String again = ManifestSeconds.apply(copy, once, Map.of(model("scmp-resilient"), 5.0));
        assertThat(again.lines().count()).as("replaced in place").isEqualTo(once.lines().count());
        assertThat(withoutSeconds(again)).isEqualTo(withoutSeconds(text));
    }

    @Test
    void theLoaderReadsWhatWasWrittenAndACompactLayoutStaysCompact() throws Exception {
        Repo repo = TinyRepo.copyTo(dir);
        String before = Files.readString(repo.manifestFile());
        ManifestSeconds.write(repo.manifestFile(), Map.of(model("tiny-pass"), 0.72,
                new ManifestSeconds.Key(ManifestSeconds.Section.TRACES, "tiny-two"), 12.0));
        String after = Files.readString(repo.manifestFile());
        assertThat(after.lines().count()).isEqualTo(before.lines().count() + 1);
        assertThat(after).contains("\"trap\": \"NotReachedTwo\", \"seconds\": 12.0, \"why\"");
        Manifest m = repo.manifest();
        assertThat(m.models().get(0).seconds()).isEqualTo(0.7);
        assertThat(m.models().get(1).seconds()).isNull();
        assertThat(m.trace("tiny-two").orElseThrow().seconds()).isEqualTo(12.0);
    }

    @Test
    void anUnknownEntryOrABadValueIsNamed() throws Exception {
        Repo repo = TinyRepo.copyTo(dir);
        assertThatThrownBy(() -> ManifestSeconds.write(repo.manifestFile(), Map.of(model("tiny-nope"), 1.0)))
                .hasMessageContaining("tiny-nope: field \"seconds\": no models entry of that name");
        Files.writeString(repo.manifestFile(), Files.readString(repo.manifestFile())
                .replace("\"depth\": 6,", "\"depth\": 6, \"seconds\": \"slow\","));
        assertThatThrownBy(repo::manifest).hasMessageContaining("models[0] \"tiny-pass\": field \"seconds\": must be"
                + " a non-negative number of seconds, is \"slow\"");
    }
}
