package dev.onceproof.conformance.auth;

import dev.onceproof.conformance.crash.ServerProcess;
import dev.onceproof.rpc.core.CallOutcome;
import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.rpc.runtime.CallResult;
import dev.onceproof.rpc.runtime.ClientOptions;
import dev.onceproof.rpc.runtime.ExecutionJournal;
import dev.onceproof.rpc.wire.Keyring;
import dev.onceproof.scmp.ConnId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.onceproof.rpc.runtime.RpcUdpClient;

/**
 * Issue 13 item 3, shown with real processes on loopback: a server process ({@code serve}, counter
 * handler with its fsync'd journal), an attacker process ({@link Forger}) forging CALLs for the
 * victim's connection, and the victim (this JVM) calling meanwhile. Counted: the victim's calls
 * wrongly rejected as duplicates, and the forged calls the server executed (read back from its
 * journal), once without keys and once with a key file shared by the server and the victim only.
 */
public final class AuthAttack {

    static final String VICTIM = "victim";
    static final long BETA = 5_000;
    private static final Pattern UNAUTHENTICATED = Pattern.compile("unauthenticated=([0-9]+)");

    /** What one run counted. */
    public record Result(boolean keys, int victimCalls, long replied, long wronglyRejected, long unknown,
                         long forgedExecuted, long victimExecuted, long unauthenticatedDropped) {
    }

    private AuthAttack() {
    }

    /** Writes a key file with a fresh random 32-byte key for the victim's connection. */
    public static Path writeKeyFile(Path dir) throws IOException {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        Path file = dir.resolve("keys");
        Files.writeString(file, "# written by onceproof attack\n" + VICTIM + " 1 " + HexFormat.of().formatHex(key) + "\n");
        return file;
    }

    public static Result run(Path dir, boolean withKeys, int victimCalls) throws Exception {
        String mode = withKeys ? "keys" : "nokeys";
        Path log = dir.resolve("server-" + mode + ".log");
        Path journal = dir.resolve("journal-" + mode);
        Path keyFile = withKeys ? writeKeyFile(dir) : null;
        List<String> args = new ArrayList<>(List.of("--port", "0", "--storage", dir.resolve("latest-" + mode).toString(),
                "--handler", "counter", "--journal", journal.toString(), "--beta", Long.toString(BETA),
                "--threads", "2"));
        if (withKeys) {
            args.addAll(List.of("--key-file", keyFile.toString()));
        }
        ServerProcess server = ServerProcess.start(args, log, 60_000);
        Process forger = null;
        long replied = 0;
        long rejected = 0;
        long unknown = 0;
        try {
            forger = startForger(server.port(), dir.resolve("forger-" + mode + ".log"), victimCalls * 60L + 3_000);
            Thread.sleep(1_000); // the first forged calls land before the victim's first call
            ClientOptions options = ClientOptions.of(new RetryPolicy(100, 10));
            if (withKeys) {
                options = options.withKeys(Keyring.load(keyFile));
            }
            try (RpcUdpClient victim = new RpcUdpClient(new java.net.InetSocketAddress("127.0.0.1", server.port()),
                    ConnId.of(VICTIM), options, InstantSource.system(), 0)) {
                for (int i = 0; i < victimCalls; i++) {
                    CallResult r = victim.call(("victim-" + i).getBytes(StandardCharsets.UTF_8));
                    if (r.outcome() == CallOutcome.REPLIED) {
                        replied++;
                    } else if (r.outcome() == CallOutcome.REJECTED_AS_DUPLICATE) {
                        rejected++;
                    } else {
                        unknown++;
                    }
                    Thread.sleep(20);
                }
            }
        } finally {
            if (forger != null && !forger.waitFor(60, TimeUnit.SECONDS)) {
                forger.destroyForcibly().waitFor();
            }
            server.stop();
        }
        long forged = 0;
        long victimRuns = 0;
        for (ExecutionJournal.Entry e : ExecutionJournal.read(journal).entries()) {
            if (Arrays.equals(e.args(), Forger.FORGED_ARGS.getBytes(StandardCharsets.UTF_8))) {
                forged++;
            } else {
                victimRuns++;
            }
        }
        long dropped = -1;
        Matcher m = UNAUTHENTICATED.matcher(Files.readString(log));
        while (m.find()) {
            dropped = Long.parseLong(m.group(1));
        }
        return new Result(withKeys, victimCalls, replied, rejected, unknown, forged, victimRuns, dropped);
    }

    private static Process startForger(int port, Path log, long durationMillis) throws IOException {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
                "-cp", System.getProperty("java.class.path"), Forger.class.getName(),
                "127.0.0.1", Integer.toString(port), VICTIM, Long.toString(durationMillis), Long.toString(BETA));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }
}
