package dev.onceproof.conformance.tlc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which runs TlcRunner.Mode.AUTO keeps in our JVM: exactly those TlcJvm starts with C1 only. */
class TlcRunnerModeTest {

    private final Path module = Path.of("specs/x/MCX.tla");
    private final Path small = Path.of("specs/x/Small.cfg");
    private final Path big = Path.of("specs/x/Big.cfg");
    private final TlcJvm jvm = TlcJvm.standard().withQuickStart(true).withSmallModels(List.of(small));

    private TlcRequest request(Path cfg) {
        return TlcRequest.modelCheck(module, cfg, module.getParent(), false, Duration.ofMinutes(1));
    }

    @Test
    void autoRunsQuickRunsInProcessAndTheRestForked() {
        TlcRunner auto = new TlcRunner(jvm, TlcRunner.Mode.AUTO);
        assertThat(auto.modeFor(request(small))).isEqualTo(TlcRunner.Mode.IN_PROCESS);
        assertThat(auto.modeFor(request(big))).isEqualTo(TlcRunner.Mode.FORK);
        assertThat(auto.modeFor(request(big).withArgs(List.of("-simulate")))).isEqualTo(TlcRunner.Mode.IN_PROCESS);
        // A budget is JVM-wide (tlc2.TLC.stopAfter), so it forks whatever the size.
        assertThat(auto.modeFor(request(small).withBudget(Duration.ofSeconds(5)))).isEqualTo(TlcRunner.Mode.FORK);
    }

    @Test
    void withoutQuickStartAutoForksEverything() {
        TlcRunner auto = new TlcRunner(jvm.withQuickStart(false), TlcRunner.Mode.AUTO);
        assertThat(auto.modeFor(request(small))).isEqualTo(TlcRunner.Mode.FORK);
    }
}
