package dev.onceproof.conformance.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code crash-eo}'s options: a strategy without a crash client, an R without slots, or server kills
 * outside Strategy 3, is refused before anything starts.
 */
class EoCrashCommandTest {

    private static String[] run(String... args) {
        CommandLine cl = new CommandLine(new EoCrashCommand());
        StringWriter err = new StringWriter();
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new String[] {String.valueOf(exit), err.toString()};
    }

    @Test
    void aStrategyWithoutACrashClientIsRefusedNamingIt() {
        String[] r = run("--strategy", "2");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1]).contains("--strategy 2").contains("Strategies 1, 3, 4, 5 and 6");
    }

    @Test
    void gatherRunOptionsThatDoNotFitAreRefusedNamingThem() {
        assertThat(run("--strategy", "1", "--control", "after-call")).satisfies(r -> {
            assertThat(r[0]).isEqualTo("2");
            assertThat(r[1]).contains("--control after-call").contains("--ack-first");
        });
        assertThat(run("--strategy", "4", "--ack-first")[1]).contains("--ack-first").contains("--control");
        assertThat(run("--strategy", "4", "--control", "h-at-disconnect")[1]).contains("only Strategy 6");
        assertThat(run("--strategy", "5", "--control", "bogus")[1]).contains("--control bogus");
        assertThat(run("--strategy", "6", "--client-kills", "101")[1]).contains("--client-kills 101");
        assertThat(run("--strategy", "6", "--crashes", "0")[1]).contains("--crashes 0");
    }

    @Test
    void aDirectoryHoldingAnEarlierGatherRunIsRefusedBeforeAnythingStarts(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("A"));
        Files.writeString(dir.resolve("A").resolve("processed"), "n1 1\n");
        String[] r = run("--strategy", "4", "--dir", dir.toString());
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1]).contains("--dir").contains("already holds a run's files");
        assertThat(Files.readString(dir.resolve("A").resolve("processed"))).isEqualTo("n1 1\n");
    }

    @Test
    void serverKillsAreRefusedOutsideStrategy3NamingTheOption() {
        assertThat(run("--strategy", "1", "--kill", "server")).satisfies(r -> {
            assertThat(r[0]).isEqualTo("2");
            assertThat(r[1]).contains("--kill server").contains("--strategy 3");
        });
        assertThat(run("--strategy", "4", "--kill", "server")[1]).contains("--kill server");
        assertThat(run("--strategy", "3", "--kill", "both")[1]).contains("--kill both");
        assertThat(run("--strategy", "3", "--kill", "server", "--ack-first")[1]).contains("--ack-first");
        assertThat(run("--strategy", "3", "--kill", "server", "--crashes", "0")[1]).contains("--crashes 0");
    }

    @Test
    void anRWithoutSlotsIsRefusedNamingTheOption() {
        String[] r = run("--strategy", "3", "--q", "0");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1]).contains("--q 0");
    }
}
