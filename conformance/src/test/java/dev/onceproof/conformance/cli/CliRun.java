package dev.onceproof.conformance.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One ./onceproof command run in-process, as the tests run it: its exit code and what it printed. */
public record CliRun(int exit, String out, String err) {

    public static CliRun of(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int exit = cl.execute(args);
        return new CliRun(exit, out.toString(), err.toString());
    }
}
