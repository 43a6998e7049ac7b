package dev.onceproof.conformance.cli;

import dev.onceproof.rpc.runtime.CallHandler;
import dev.onceproof.rpc.wire.KeyFileException;
import dev.onceproof.rpc.wire.Keyring;
import dev.onceproof.rpc.runtime.Handlers;
import dev.onceproof.rpc.runtime.RpcUdpServer;
import dev.onceproof.rpc.runtime.ServerOptions;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.storage.FileStableStorage;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code onceproof serve}: the at-most-once RPC server on UDP (paper 3.1) with a resilient SCMP
 * filter whose latest lives in a stable-storage file (Fig. 2-2). Started on a file that already
 * holds latest, it recovers: calls accepted before the crash are rejected as duplicates.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Run the at-most-once RPC server on UDP (paper 3.1, Fig. 3-1) until SIGINT/SIGTERM.",
                "Prints \"listening on HOST:PORT\" once it is ready."})
public final class ServeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--port", defaultValue = "7000",
            description = "UDP port; 0 picks a free one (default ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--bind", defaultValue = "127.0.0.1",
            description = "Address to listen on (default ${DEFAULT-VALUE}).")
    String bind;

    @Option(names = "--storage", required = true,
            description = "Stable-storage file for latest; created if absent, recovered from if present.")
    Path storage;

    @Option(names = "--handler", defaultValue = "null",
            description = "What a call does: null (nothing), echo (returns its arguments), counter"
                    + " (appends the call to --journal with fsync; not idempotent) (default ${DEFAULT-VALUE}).")
    String handler;

    @Option(names = "--journal", description = "Journal file of the counter handler.")
    Path journal;

    @Option(names = "--rho", defaultValue = "300000",
            description = "ms a connection entry is kept (2.4; paper: 5 minutes) (default ${DEFAULT-VALUE}).")
    long rho;

    @Option(names = "--kappa", defaultValue = "300000",
            description = "ms a reply is kept for its client (3.1; paper: 5 minutes) (default ${DEFAULT-VALUE}).")
    long kappa;

    @Option(names = "--beta", defaultValue = "5000",
            description = "ms latest runs ahead of the clock (Fig. 2-2) (default ${DEFAULT-VALUE}).")
    long beta;

    @Option(names = "--latest-period", defaultValue = "1000",
            description = "ms between writes of latest to stable storage; below beta (default ${DEFAULT-VALUE}).")
    long latestPeriod;

    @Option(names = "--gc-period", defaultValue = "1000",
            description = "ms between garbage collections of the connection table (default ${DEFAULT-VALUE}).")
    long gcPeriod;

    @Option(names = "--threads", defaultValue = "2",
            description = "Server threads sharing the concurrent SCMP filter; each receives, judges, runs the"
                    + " calls it accepts and replies, so this many calls run at once (default ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--key-file",
            description = "Per-connection keys (lines \"<conn> <keyId> <hex key of 32+ bytes>\"): serve only wire"
                    + " format version 2 datagrams authenticated under them; others are counted and dropped.")
    Path keyFile;

    @Option(names = "--step-log", paramLabel = "FILE",
            description = "Log every RPC.tla step to FILE (trace validation: ./onceproof validate).")
    java.nio.file.Path stepLog;

    @Option(names = "--incarnation", defaultValue = "0",
            description = "Which start of this server the step log is (0 first, then one per restart).")
    int incarnation;

    @Option(names = "--status-every", defaultValue = "0",
            description = "Seconds between status lines with the server's counters; 0: none (default ${DEFAULT-VALUE}).")
    int statusEvery;

    @Override
    public Integer call() throws Exception {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        CallHandler h;
        try {
            h = Handlers.byName(handler, journal);
        } catch (java.io.IOException | RuntimeException e) {
            err.println("error: cannot open journal " + journal + ": " + e.getMessage());
            return 1;
        }
        ScmpConfig config = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, beta, 0, rho);
        Keyring keys = null;
        if (keyFile != null) {
            try {
                keys = Keyring.load(keyFile);
            } catch (KeyFileException e) {
                err.println("error: " + e.getMessage());
                return 1;
            }
        }
        ServerOptions options = new ServerOptions(new InetSocketAddress(bind, port), threads,
                latestPeriod, gcPeriod, keys);
        FileStableStorage stable = new FileStableStorage(storage);
        RpcUdpServer server;
        try {
            server = RpcUdpServer.start(options, config, kappa, stable, InstantSource.system(), h,
                    stepLog == null ? dev.onceproof.steplog.StepLog.OFF
                            : dev.onceproof.steplog.StepLog.open(stepLog, RpcStepLogs.serverHeader(config, kappa, incarnation)));
        } catch (java.io.IOException | RuntimeException e) {
            // A port in use, or a corrupt or unreadable storage file: stop with its own message,
            // never guess (DESIGN.md).
            err.println("error: " + e.getMessage());
            if (h instanceof AutoCloseable c) {
                c.close();
            }
            return 1;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            try {
                server.close();
                if (h instanceof AutoCloseable c) {
                    c.close();
                }
            } catch (Exception e) {
                err.println("error while stopping: " + e);
            }
            out.println("stopped; " + server.counters());
            out.flush();
            stopped.countDown();
        }, "serve-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        out.println("listening on " + server.address().getHostString() + ":" + server.address().getPort()
                + (server.recovered() ? " (recovered from " + storage + ": upper " : " (fresh: upper ")
                + server.state().scmp().upper().get(ScmpConfig.DEFAULT_CLASS) + ", latest "
                + server.state().scmp().latest() + ")"
                + ", handler " + handler + (keys == null ? ", unauthenticated (wire v1)"
                        : ", authenticated (wire v2, keys of " + keys.connections().size() + " connections)")
                + ", " + threads + " threads, rho " + rho + " ms, beta " + beta + " ms");
        out.flush();
        while (!stopped.await(statusEvery > 0 ? statusEvery : 3600, java.util.concurrent.TimeUnit.SECONDS)) {
            if (statusEvery > 0) {
                out.println(server.counters());
                out.flush();
            }
        }
        return 0;
    }

    private void validate() {
        CommandLine cl = spec.commandLine();
        if (port < 0 || port > 65_535) {
            throw new ParameterException(cl, "--port " + port + " is outside 0..65535");
        }
        if (rho < 0 || kappa < 0 || beta < 0) {
            throw new ParameterException(cl, "--rho, --kappa and --beta must be >= 0 ms; got rho " + rho
                    + ", kappa " + kappa + ", beta " + beta);
        }
        if (latestPeriod <= 0 || latestPeriod >= beta) {
            throw new ParameterException(cl, "--latest-period " + latestPeriod + " ms must be above 0 and"
                    + " below --beta " + beta + " ms, or latest falls behind the clock and timely calls"
                    + " are refused as too early (Fig. 2-2)");
        }
        if (gcPeriod <= 0) {
            throw new ParameterException(cl, "--gc-period " + gcPeriod + " ms must be above 0");
        }
        if (threads < 1) {
            throw new ParameterException(cl, "--threads " + threads + " must be at least 1");
        }
        if (!handler.equals("null") && !handler.equals("echo") && !handler.equals("counter")) {
            throw new ParameterException(cl, "--handler \"" + handler + "\" is not one of null, echo, counter");
        }
        if (handler.equals("counter") != (journal != null)) {
            throw new ParameterException(cl, handler.equals("counter")
                    ? "--handler counter needs --journal FILE to record its executions"
                    : "--journal is only for --handler counter");
        }
        requireDirectory(cl, "--storage", storage);
        if (Files.isDirectory(storage)) {
            throw new ParameterException(cl, "--storage " + storage + " is a directory; give a file path");
        }
        if (journal != null) {
            requireDirectory(cl, "--journal", journal);
        }
    }

    private static void requireDirectory(CommandLine cl, String option, Path file) {
        Path dir = file.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) {
            throw new ParameterException(cl, option + " " + file + ": directory " + dir + " does not exist");
        }
    }

    /** Runs without the main CLI, e.g. as the server process of the crash test. */
    public static void main(String[] args) {
        System.exit(new CommandLine(new ServeCommand()).execute(args));
    }
}
