package dev.onceproof.conformance.tlc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CfgFileTest {

    @Test
    void constantsInvariantsAndPropertiesAreReadPastCommentsAndValues() {
        CfgFile cfg = CfgFile.parse("""
                \\* a comment naming Fake = 1
                CONSTANTS
                    Conns = {"c1", "c2"}
                    ClassOf <- MCClassOf
                    Mode = "resilient"   (* Other = 2 *)
                    Nodes = {n1, n2}
                CONSTANT Max = 4
                SPECIFICATION Spec
                INVARIANT
                    TypeOK
                    NoDuplicateAccepted
                PROPERTY PromiseStep
                VIEW StateView
                """);
        assertThat(cfg.constants()).containsExactly("Conns", "ClassOf", "Mode", "Nodes", "Max");
        assertThat(cfg.invariants()).containsExactly("TypeOK", "NoDuplicateAccepted");
        assertThat(cfg.properties()).containsExactly("PromiseStep");
    }
}
