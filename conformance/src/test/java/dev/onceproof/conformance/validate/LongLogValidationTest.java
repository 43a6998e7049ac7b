package dev.onceproof.conformance.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.onceproof.conformance.TestDepth;
import dev.onceproof.conformance.tlc.TlcJvm;
import dev.onceproof.conformance.tlc.TlcRequest;
import dev.onceproof.conformance.tlc.TlcRunner;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The long-log regression (deep only: {@code mvn -B -ntp verify -Pdeep}). TLC's evaluation
 * recurses deeper as a trace-validation run gets longer, and long logs overflowed the default 1 MiB
 * thread stack (an Id List SIGKILL run of 1,965 lines in the build's in-JVM, C1-only validator, and
 * a 10,382-line {@code crash-eo --strategy 3 --step-logs} run), which {@code -Xss64m} fixed (TlcJvm,
 * InProcessTlc, the build's and the script's JVMs). The stored run
 * ({@code validate/long/sigkill-seed5-3kills}: {@code ./onceproof crash-eo --strategy 3 --crashes 3
 * --seed 5 --step-logs}, 4,057 lines, gzipped) is validated by TLC started as the quick validators
 * start it (a JVM of its own, C1 only, which overflows soonest), with the stack TlcJvm gives it:
 * accepted; and the same command with {@code -Xss64m} removed must end in a StackOverflowError
 * (measured: after 1,825 of the 4,057 lines), so this test guards the option.
 */
class LongLogValidationTest {

    static final Path STORED = TestValidators.REPO.root()
            .resolve("conformance/src/test/resources/validate/long/sigkill-seed5-3kills");

    @TempDir
    Path dir;

    @Test
    void aLongLogIsAcceptedWithTheStackAndOverflowsWithout() throws Exception {
        assumeTrue(TestDepth.deep(), "deep only (-Pdeep)");
        List<Path> logs = unpack(Files.createDirectories(dir.resolve("logs")));
        Path tlcDir = Files.createDirectories(dir.resolve("tlc"));
        TraceValidator forked = new TraceValidator(TestValidators.REPO.specs(), new TlcRunner(TlcJvm.standard(),
                TlcRunner.Mode.FORK), Duration.ofMinutes(10)).quick();
        Validation v = forked.validate(logs);
        System.out.printf("long log: %s (%.1f lines/s)%n", v.summary(), v.lines() * 1000.0 / v.wallTime().toMillis());
        assertThat(v.accepted()).as(v.report()).isTrue();
        assertThat(v.lines()).isGreaterThan(4000);

        TraceValidator.Generated g = forked.generate(logs, tlcDir);
        TlcRunner runner = new TlcRunner(TlcJvm.standard().withSmallModels(List.of(g.cfg())), TlcRunner.Mode.FORK);
        TlcRequest request = new TlcRequest(g.module(), g.cfg(), List.of(g.library()), false, List.of(),
                Duration.ofMinutes(10));
        List<String> command = new ArrayList<>(runner.command(request, Files.createDirectories(dir.resolve("scratch"))));
        assertThat(command).as("the quick validators' TLC: C1 only, with TlcJvm's stack")
                .contains("-XX:TieredStopAtLevel=1", "-Xss64m");
        command.remove("-Xss64m");
        String out = run(command, tlcDir);
        System.out.println("the same TLC run without -Xss64m ends:\n" + tail(out));
        assertThat(out).as("TLC with the default stack").contains("java.lang.StackOverflowError");
    }

    private static List<Path> unpack(Path to) throws IOException {
        List<Path> out = new ArrayList<>();
        try (var list = Files.list(STORED)) {
            for (Path gz : list.sorted().toList()) {
                String name = gz.getFileName().toString();
                Path log = to.resolve(name.substring(0, name.length() - ".gz".length()));
                try (InputStream in = new GZIPInputStream(Files.newInputStream(gz))) {
                    Files.copy(in, log);
                }
                out.add(log);
            }
        }
        return out;
    }

    private static String run(List<String> command, Path cwd) throws IOException, InterruptedException {
        Path out = cwd.resolve("tlc-output.txt");
        Process p = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        if (!p.waitFor(10, TimeUnit.MINUTES)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("TLC without the stack option ran over 10 minutes");
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    private static String tail(String out) {
        List<String> lines = out.lines().filter(l -> l.contains("Error") || l.contains("progress")).toList();
        return String.join("\n", lines.subList(Math.max(0, lines.size() - 6), lines.size()));
    }
}
