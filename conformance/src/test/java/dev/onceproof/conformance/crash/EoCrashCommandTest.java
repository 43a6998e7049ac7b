package dev.onceproof.conformance.crash;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code crash-eo}'s options: a strategy without a crash client, or an R without slots, is refused before anything starts. */
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
        assertThat(r[1]).contains("--strategy 2").contains("Strategies 1 and 3");
    }

    @Test
    void anRWithoutSlotsIsRefusedNamingTheOption() {
        String[] r = run("--strategy", "3", "--q", "0");
        assertThat(r[0]).isEqualTo("2");
        assertThat(r[1]).contains("--q 0");
    }
}
