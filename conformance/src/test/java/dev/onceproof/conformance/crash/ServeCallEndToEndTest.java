package dev.onceproof.conformance.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.cli.CallCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The two CLI commands as a user runs them: {@code serve} as its own process (the same launcher the
 * crash test uses), {@code call} with its exit codes and messages. Here rather than next to the CLI
 * because it manages server processes like the crash test.
 */
@Timeout(120)
class ServeCallEndToEndTest {

    @TempDir
    Path dir;

    /** Runs {@code call} in this JVM; returns exit code, stdout and stderr. */
    private static String[] call(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new CallCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int code = cl.execute(args);
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }

    private List<String> serveArgs(int port) {
        return List.of("--port", Integer.toString(port), "--storage", dir.resolve("latest").toString(),
                "--handler", "echo", "--beta", "300", "--latest-period", "50");
    }

    @Test
    void callGetsItsReplyAndARestartedServerSaysItRecovered() throws Exception {
        Path log = dir.resolve("server.log");
        ServerProcess server = ServerProcess.start(serveArgs(0), log, 60_000);
        int port = server.port();
        try {
            String[] r = call("127.0.0.1:" + port, "--payload", "hello", "--quiet");
            assertThat(r[0]).as(r[2]).isEqualTo("0");
            assertThat(r[1].trim()).isEqualTo("hello");

            String[] many = call("127.0.0.1:" + port, "--count", "200", "--clients", "4", "--quiet");
            assertThat(many[0]).as(many[2]).isEqualTo("0");
            assertThat(many[1]).contains("200 calls", "200 replied", "0 rejected", "0 outcome unknown");
        } finally {
            server.kill();
        }
        ServerProcess again = ServerProcess.start(serveArgs(port), log, 60_000);
        try {
            String started = Files.readString(log);
            assertThat(started).contains("recovered from " + dir.resolve("latest"));
            // A new call is accepted once the clock is past the recovered upper (at most crash time +
            // beta), which the server prints; wait for that instead of guessing a delay.
            java.util.regex.Matcher upper = java.util.regex.Pattern.compile("recovered from .*: upper (\\d+)")
                    .matcher(started);
            assertThat(upper.find()).as(started).isTrue();
            long recoveredUpper = Long.parseLong(upper.group(1));
            while (System.currentTimeMillis() <= recoveredUpper) {
                Thread.sleep(10);
            }
            assertThat(call("127.0.0.1:" + port, "--payload", "again", "--quiet")[1].trim()).isEqualTo("again");
        } finally {
            // SIGTERM: the JVM exits with 128 + 15 after the shutdown hook closed the server cleanly.
            assertThat(again.stop()).isEqualTo(143);
        }
        assertThat(Files.readString(log)).contains("stopped; datagrams=");
    }

    @Test
    void noServerMeansOutcomeUnknownWithWhereAndHowLong() throws Exception {
        int port;
        try (DatagramSocket probe = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            port = probe.getLocalPort(); // free once closed: nobody listens there
        }
        String[] r = call("127.0.0.1:" + port, "--tries", "3", "--retransmit-ms", "100");
        assertThat(r[0]).isEqualTo("4");
        assertThat(r[2]).contains("no reply from 127.0.0.1:" + port + " after 3 tries over 0.3 s",
                "outcome unknown");
    }

    @Test
    void badArgumentsSayWhatAndWhy() {
        String[] port = call("127.0.0.1:notaport");
        assertThat(port[0]).isEqualTo("2");
        assertThat(port[2]).contains("port \"notaport\" is not a number");

        String[] clients = call("--count", "2", "--clients", "5");
        assertThat(clients[0]).isEqualTo("2");
        assertThat(clients[2]).contains("--clients 5 is more than --count 2");
    }
}
