package dev.onceproof.conformance.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpecNameTest {

    @Test
    void modelModulesLeadByExtendsToTheSpecTheReplayerDispatchesOn(@TempDir Path dir) {
        Repo repo = TinyRepo.copyTo(dir);
        Path family = repo.familyDir("tiny");
        assertThat(SpecName.of(family, family.resolve("MCCounter.tla"))).isEqualTo("Counter");
        assertThat(SpecName.of(family, family.resolve("Counter.tla"))).isEqualTo("Counter");
        assertThat(SpecName.chain(family, family.resolve("MCCounter.tla")))
                .containsExactly(family.resolve("MCCounter.tla"), family.resolve("Counter.tla"));
    }
}
