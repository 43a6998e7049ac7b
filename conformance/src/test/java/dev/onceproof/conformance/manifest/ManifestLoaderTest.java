package dev.onceproof.conformance.manifest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ManifestLoaderTest {

    @TempDir
    Path root;
    Path manifest;

    private static final String GOOD_MODEL = """
            {"name": "tiny-pass", "family": "tiny", "module": "tiny/M.tla", "cfg": "tiny/M.cfg",
             "mode": "ci", "expect": "pass", "distinctStates": 45, "depth": 6, "why": "it passes"}""";
    private static final String GOOD_TRACE = """
            {"name": "tiny-sim", "family": "tiny", "module": "tiny/M.tla", "cfg": "tiny/M.cfg",
             "kind": "simulate", "seeds": [1, 2], "depth": 10, "trap": null, "why": "random walks"}""";

    @BeforeEach
    void layout() throws IOException {
        Files.createDirectories(root.resolve("specs/tiny"));
        Files.writeString(root.resolve("specs/tiny/M.tla"), "---- MODULE M ----\n====\n");
        Files.writeString(root.resolve("specs/tiny/M.cfg"), "INIT Init\nNEXT Next\n");
        Files.writeString(root.resolve("specs/tiny/Trap.cfg"), "INIT Init\nNEXT Next\nINVARIANT NotX\n");
        manifest = root.resolve("specs/manifest.json");
    }

    private Manifest load(String models, String traces) throws IOException {
        Files.writeString(manifest, "{\"models\": [" + models + "], \"traces\": [" + traces + "]}");
        return ManifestLoader.load(manifest);
    }

    @Test
    void wellFormedManifestLoadsEveryEntry() throws IOException {
        Manifest m = load(GOOD_MODEL, GOOD_TRACE + ", " + """
                {"name": "tiny-x", "family": "tiny", "module": "tiny/M.tla", "cfg": "tiny/Trap.cfg",
                 "kind": "targeted", "seeds": null, "depth": null, "trap": "NotX", "why": "scenario X"}""");
        assertThat(m.models()).singleElement().satisfies(e -> {
            assertThat(e.mode()).isEqualTo(ModelEntry.Mode.CI);
            assertThat(e.checkDeadlock()).isFalse();
            assertThat(e.distinctStates()).isEqualTo(45);
        });
        assertThat(m.traces()).extracting(TraceEntry::name).containsExactly("tiny-sim", "tiny-x");
        assertThat(m.traces().get(0).seeds()).containsExactly(1L, 2L);
        assertThat(m.traces().get(1).trap()).isEqualTo("NotX");
        assertThat(m.families()).containsExactly("tiny");
    }

    @Test
    void unknownFieldIsNamedWithItsEntry() {
        assertThatThrownBy(() -> load(GOOD_MODEL.replace("\"why\"", "\"wyh\""), ""))
                .isInstanceOf(ManifestException.class)
                .hasMessageContaining("manifest.json: models[0] \"tiny-pass\": field \"wyh\": is not a known field");
    }

    @Test
    void missingFieldIsNamedWithItsEntry() {
        assertThatThrownBy(() -> load(GOOD_MODEL.replace("\"depth\": 6,", ""), ""))
                .hasMessageContaining("models[0] \"tiny-pass\": field \"depth\": is missing");
    }

    @Test
    void entryWithoutANameIsNamedByIndex() {
        assertThatThrownBy(() -> load(GOOD_MODEL + ", " + GOOD_MODEL.replace("\"name\": \"tiny-pass\",", ""), ""))
                .hasMessageContaining("models[1]: field \"name\": is missing");
    }

    @Test
    void badModeIsRefused() {
        assertThatThrownBy(() -> load(GOOD_MODEL.replace("\"ci\"", "\"nightly\""), ""))
                .hasMessageContaining("field \"mode\": is \"nightly\"; it must be ci or deep");
    }

    @Test
    void duplicateNamesAreRefused() {
        assertThatThrownBy(() -> load(GOOD_MODEL + ", " + GOOD_MODEL, ""))
                .hasMessageContaining("models[1] \"tiny-pass\": field \"name\": another model is already called \"tiny-pass\"");
    }

    @Test
    void missingFileIsNamed() {
        assertThatThrownBy(() -> load(GOOD_MODEL.replace("tiny/M.cfg", "tiny/Gone.cfg"), ""))
                .hasMessageContaining("field \"cfg\": file specs/tiny/Gone.cfg does not exist");
    }

    @Test
    void targetedTraceMustTrapTheOnlyInvariantOfItsCfg() {
        assertThatThrownBy(() -> load("", """
                {"name": "tiny-x", "family": "tiny", "module": "tiny/M.tla", "cfg": "tiny/Trap.cfg",
                 "kind": "targeted", "trap": "NotY", "why": "scenario Y"}"""))
                .hasMessageContaining("traces[0] \"tiny-x\": field \"trap\": the cfg tiny/Trap.cfg must list exactly the trap NotY");
    }

    @Test
    void simulationWithoutSeedsIsRefused() {
        assertThatThrownBy(() -> load("", GOOD_TRACE.replace("[1, 2]", "[]")))
                .hasMessageContaining("traces[0] \"tiny-sim\": field \"seeds\"");
    }

    @Test
    void malformedJsonNamesLineAndColumn() throws IOException {
        Files.writeString(manifest, "{\"models\": [,]}");
        assertThatThrownBy(() -> ManifestLoader.load(manifest))
                .hasMessageContaining("manifest.json: is not valid JSON").hasMessageContaining("line 1, column");
    }

    @Test
    void duplicateKeyInAnEntryIsRefused() {
        assertThatThrownBy(() -> load(GOOD_MODEL.replace("\"why\": \"it passes\"", "\"why\": \"a\", \"why\": \"b\""), ""))
                .hasMessageContaining("Duplicate field 'why'");
    }
    @Test
    void aSimulatedModelCarriesItsBehavioursDepthAndSeed() throws IOException {
        Manifest m = load(GOOD_MODEL.replace("\"why\"", "\"simulate\": {\"behaviours\": 100, \"depth\": 30, \"seed\": 7}, \"why\""), "");
        ModelEntry e = m.models().get(0);
        assertThat(e.simulated()).isTrue();
        assertThat(e.simulate().tlcArgs()).containsExactly("-simulate", "num=100", "-depth", "30", "-seed", "7");
        assertThat(load(GOOD_MODEL, "").models().get(0).simulated()).isFalse();
    }

    @Test
    void aSimulationWithoutASeedOrWithNoBehavioursIsRefused() {
        assertThatThrownBy(() -> load(GOOD_MODEL.replace("\"why\"", "\"simulate\": {\"behaviours\": 100, \"depth\": 30}, \"why\""), ""))
                .hasMessageContaining("models[0] \"tiny-pass\" simulate: field \"seed\": is missing");
        assertThatThrownBy(() -> load(GOOD_MODEL.replace("\"why\"", "\"simulate\": {\"behaviours\": 0, \"depth\": 30, \"seed\": 1}, \"why\""), ""))
                .hasMessageContaining("models[0] \"tiny-pass\": field \"simulate\": needs behaviours >= 1 and depth >= 1, has 0 behaviours");
        assertThatThrownBy(() -> load(GOOD_MODEL.replace("\"why\"", "\"simulate\": {\"num\": 100, \"depth\": 30, \"seed\": 1}, \"why\""), ""))
                .hasMessageContaining("simulate: field \"num\": is not a known field");
        assertThatThrownBy(() -> load(GOOD_MODEL.replace("\"why\"", "\"simulate\": 100, \"why\""), ""))
                .hasMessageContaining("field \"simulate\": must be an object");
        assertThatThrownBy(() -> load(GOOD_MODEL.replace("\"pass\"", "\"Inv\"").replace("\"why\"",
                "\"simulate\": {\"behaviours\": 100, \"depth\": 30, \"seed\": 1}, \"why\""), ""))
                .hasMessageContaining("field \"distinctStates\": must be 0 for a simulation that must find a violation");
    }
}
