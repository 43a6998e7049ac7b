package dev.onceproof.conformance.manifest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.tlc.CfgFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which properties go the slow way (forked, both compilers) because TLC's liveness tableau checks
 * them: read from the family's modules, following definitions, erring towards temporal.
 */
class TemporalPropertiesTest {

    @Test
    void stepAndStatePropertiesAreNotTemporalButAnythingReachingFairnessOrEventuallyIs(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("M.tla"), String.join("\n",
                "---- MODULE M ----",
                "EXTENDS Naturals",
                "VARIABLE x",
                "vars == <<x>>",
                "Init == x = 0",
                "Next == x' = x + 1 /\\ x' # <<>>",
                "Spec == Init /\\ [][Next]_vars",
                "Monotone == [][x' >= x]_vars",
                "Always == []Init",
                "Refines == Spec",
                "\\* WF_vars(Next) in a comment counts for nothing",
                "Fair == WF_vars(Next)",
                "FairSpec == Spec /\\ Fair",
                "Grows == <>(x > 3)",
                "Leads(n) == (x = n) ~> (x = n + 1)",
                "AllLead == \\A n \\in 0..2 : Leads(n)",
                "Enabled == [](ENABLED Next)",
                "===="));
        Files.createDirectories(dir.resolve("mutants"));
        Files.writeString(dir.resolve("mutants/Mut.tla"), "---- MODULE Mut ----\nShadow == <>TRUE\n====\n");
        Files.writeString(dir.resolve("N.tla"), "---- MODULE N ----\nUsesShadow == Shadow\n====\n");
        TemporalProperties t = TemporalProperties.of(dir);
        assertThat(t.temporal("Monotone")).isFalse();
        assertThat(t.temporal("Always")).isFalse();
        assertThat(t.temporal("Refines")).as("an empty tuple is not an eventually").isFalse();
        assertThat(t.temporal("FairSpec")).isTrue();
        assertThat(t.temporal("Grows")).isTrue();
        assertThat(t.temporal("AllLead")).as("through a parameterized definition").isTrue();
        assertThat(t.temporal("Enabled")).isTrue();
        assertThat(t.temporal("UsesShadow")).as("through a definition in another module, mutants included").isTrue();
    }

    @Test
    void theRepositoryModelsAreReadAsTheirPropertiesAre() {
        Repo repo = Repo.locate();
        TemporalProperties causal = TemporalProperties.of(repo.familyDir("causal"));
        TemporalProperties eo = TemporalProperties.of(repo.familyDir("exactlyonce"));
        // causal-live-crash's liveness (the slowest ci model) and a refinement checked step by step.
        assertThat(CfgFile.read(repo.specs().resolve("causal/MCCausalLiveCrash.cfg")).properties())
                .anyMatch(causal::temporal);
        assertThat(CfgFile.read(repo.specs().resolve("exactlyonce/MCExactlyOnceS3MsgImmediate.cfg")).properties())
                .isNotEmpty().noneMatch(eo::temporal);
    }
}
