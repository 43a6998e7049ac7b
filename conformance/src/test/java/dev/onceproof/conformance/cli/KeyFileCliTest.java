package dev.onceproof.conformance.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A bad key file stops serve and call before anything starts, with an error naming the file and the
 * line (issue 13, "Bad input"), and no stable-storage file is created.
 */
class KeyFileCliTest {

    @TempDir
    Path dir;

    private String[] run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute(args);
        return new String[] {Integer.toString(exit), err.toString()};
    }

    @Test
    void serveRefusesAShortKeyNamingFileAndLine() throws Exception {
        Path keys = dir.resolve("keys");
        Files.writeString(keys, "# keys\nc1 1 00112233\n");
        String[] r = run("serve", "--port", "0", "--storage", dir.resolve("latest").toString(),
                "--key-file", keys.toString());
        assertThat(r[0]).isEqualTo("1");
        assertThat(r[1]).contains(keys + ":2: c1: key 1 has 4 bytes; at least 32 are required");
        assertThat(dir.resolve("latest")).doesNotExist();
    }

    @Test
    void callRefusesAMissingKeyFile() {
        Path keys = dir.resolve("missing");
        String[] r = run("call", "127.0.0.1:1", "--key-file", keys.toString());
        assertThat(r[0]).isEqualTo("1");
        assertThat(r[1]).contains(keys + ": cannot read the key file");
    }
}
