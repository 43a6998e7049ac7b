package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.TraceValidator;
import dev.onceproof.conformance.validate.Validation;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DESIGN.md link 5 for the restarted flush over real UDP (issue 21, causal; issue 19 item 3): the
 * step logs of {@link UdpRestartRun} (impl's ViewRestartOverUdpTest with logs), the four cores' and
 * the coordinators' (n1's, and n2's once it takes over), are behaviours of
 * CausalMembershipRestart.tla through TraceCausalMembershipRestart.tla.
 */
class CausalUdpRestartValidationTest {

    static final TraceValidator VALIDATOR = TestValidators.IN_JVM;

    @TempDir
    Path dir;

    @Test
    void aTakeoverFromACrashedCoordinatorOverUdpIsABehaviourOfCausalMembershipRestart() throws Exception {
        UdpRestartRun.Result r = UdpRestartRun.run(dir, UdpRestartRun.N1, 4, 20_000, CausalNode::new);
        assertThat(r.done()).as("%s", r).isTrue();
        assertThat(r.takeovers()).isEqualTo(1);
        Validation v = VALIDATOR.validate(r.logs());
        System.out.println("UDP restart, coordinator crashed: " + v.summary());
        assertThat(v.accepted()).as("%s", v.report()).isTrue();
        assertThat(v.spec()).isEqualTo("CausalMembershipRestart");
    }

    @Test
    void aRestartAfterACrashedSurvivorOverUdpIsABehaviourOfCausalMembershipRestart() throws Exception {
        UdpRestartRun.Result r = UdpRestartRun.run(dir, UdpRestartRun.N3, 4, 20_000, CausalNode::new);
        assertThat(r.done()).as("%s", r).isTrue();
        assertThat(r.restarts()).isEqualTo(1);
        Validation v = VALIDATOR.validate(r.logs());
        System.out.println("UDP restart, survivor crashed: " + v.summary());
        assertThat(v.accepted()).as("%s", v.report()).isTrue();
    }
}
