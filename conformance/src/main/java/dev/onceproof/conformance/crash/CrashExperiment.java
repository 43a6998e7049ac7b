package dev.onceproof.conformance.crash;

import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.rpc.runtime.CallResult;
import dev.onceproof.rpc.runtime.ClientOptions;
import dev.onceproof.conformance.cli.RpcStepLogs;
import dev.onceproof.rpc.runtime.RpcUdpClient;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.storage.FileStableStorage;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The crash test of issue 4: a counter server (every execution journaled with fsync) runs as its own
 * JVM while client threads keep making calls with unique call ids; the server is killed with SIGKILL
 * at seeded random moments and restarted on the same stable-storage and journal files each time.
 * {@link CrashReport} then reads the journal and the clients' records.
 *
 * <p>Parameters are chosen for the paper's conditions: rho and kappa (entries and replies kept)
 * exceed the clients' whole retransmission span, so no call is lost to garbage collection (2.4:
 * rho >= epsilon + delta + RT(N)); beta is small and latest is written often, so the window of
 * calls a crash may cost (timestamps up to t_cr + beta) is short.
 */
public final class CrashExperiment {

    /**
     * Damage done to the server's files between kill and restart, so the test can show that its
     * checks catch a broken recovery (DESIGN.md: every link must be able to fail).
     */
    public enum Sabotage {
        /** The real thing: restart on the files as the killed process left them. */
        NONE,
        /** Stable storage lost: the server starts afresh and forgets every call before the crash. */
        DISCARD_STABLE_STORAGE,
        /** Latest pushed 2 s past the crash: the server rejects calls sent well after t_cr + beta. */
        LATEST_FAR_AHEAD
    }

    /** What to run. Times in milliseconds. */
    public record Config(int crashes, long seed, int clients, long minUpMillis, long maxUpMillis,
                         long beta, long latestPeriod, long rho, long kappa, int threads,
                         RetryPolicy clientPolicy, long calmMillis, int maxCallsPerClient,
                         Sabotage sabotage) {

        public Config {
            if (crashes < 1 || clients < 1 || minUpMillis < 0 || maxUpMillis < minUpMillis) {
                throw new IllegalArgumentException("need crashes >= 1, clients >= 1 and 0 <= minUp <= maxUp; got "
                        + this);
            }
            if (rho <= clientPolicy.retransmissionSpan()) {
                throw new IllegalArgumentException("rho " + rho + " ms must exceed the clients' retransmission"
                        + " span " + clientPolicy.retransmissionSpan() + " ms (paper 2.4), or calls are lost to GC"
                        + " and the test could not tell them from crash losses");
            }
        }

        /** The issue's test: 20 crashes, a few clients, short periods so it fits in a build. */
        public static Config standard(long seed) {
            return new Config(20, seed, 4, 200, 1_000, 150, 30, 20_000, 20_000, 2,
                    new RetryPolicy(50, 100), 1_000, 200_000, Sabotage.NONE);
        }

        public Config with(int crashes, Sabotage sabotage) {
            return new Config(crashes, seed, clients, minUpMillis, maxUpMillis, beta, latestPeriod, rho, kappa,
                    threads, clientPolicy, calmMillis, maxCallsPerClient, sabotage);
        }
    }

    /** One call as a client saw it: id, arguments, outcome, and wall-clock times. */
    public record CallRecord(String conn, long ts, String op, CallResult result, long startMillis, long endMillis) {
        public String callId() {
            return conn + "/" + ts;
        }
    }

    /** One SIGKILL: when it was sent, when the process was gone, what latest it left, when the next was up. */
    public record CrashEvent(int number, long killMillis, long deadMillis, long storedLatest, long upMillis) {
    }

    private final Config config;
    private final Path dir;
    private final PrintStream log;

    public CrashExperiment(Config config, Path dir, PrintStream log) {
        this.config = config;
        this.dir = dir;
        this.log = log;
    }

    public Path journal() {
        return dir.resolve("journal");
    }

    public Path storage() {
        return dir.resolve("latest");
    }

    /** Where step logs go (null: none) and the pause between a client's calls, for trace validation. */
    private Path stepLogs;
    private long pauseMillis;
    private int incarnation;

    /**
     * Logs every step of the run for trace validation: each server incarnation to
     * {@code server-<n>.jsonl} (its log ends where SIGKILL cut it), each client to
     * {@code client-<k>.jsonl}, in {@code dir}; clients pause between calls so that a short run
     * keeps its logs short. Returns this experiment.
     */
    public CrashExperiment logSteps(Path dir, long pauseBetweenCallsMillis) {
        this.stepLogs = dir;
        this.pauseMillis = pauseBetweenCallsMillis;
        return this;
    }

    public CrashReport run() throws IOException, InterruptedException {
        Path serverLog = dir.resolve("server.log");
        Random random = new Random(config.seed());
        long t0 = System.currentTimeMillis();
        ServerProcess server = ServerProcess.start(serverArgs(0), serverLog, 60_000);
        int port = server.port();
        InetSocketAddress address = new InetSocketAddress("127.0.0.1", port);
        log.printf("server pid %d on 127.0.0.1:%d; files in %s%n", server.pid(), port, dir);

        ConcurrentLinkedQueue<CallRecord> calls = new ConcurrentLinkedQueue<>();
        AtomicReference<Throwable> clientFailure = new AtomicReference<>();
        stopping = false;
        List<Thread> clients = new ArrayList<>();
        for (int k = 0; k < config.clients(); k++) {
            ConnId conn = ConnId.of("crash-" + config.seed() + "-" + t0 + "-" + k);
            int client = k;
            Thread t = new Thread(() -> callLoop(address, conn, calls, clientFailure, client), "crash-client-" + k);
            clients.add(t);
            t.start();
        }

        List<CrashEvent> crashes = new ArrayList<>();
        try {
            for (int i = 1; i <= config.crashes(); i++) {
                long up = config.minUpMillis()
                        + (long) (random.nextDouble() * (config.maxUpMillis() - config.minUpMillis()));
                Thread.sleep(up);
                long kill = System.currentTimeMillis();
                server.kill();
                long dead = System.currentTimeMillis();
                long stored = new FileStableStorage(storage()).read().orElseThrow();
                sabotage(dead);
                server = ServerProcess.start(serverArgs(port), serverLog, 60_000);
                long restarted = System.currentTimeMillis();
                crashes.add(new CrashEvent(i, kill, dead, stored, restarted));
                log.printf("crash %2d at +%d ms: killed in %d ms, down %d ms, stored latest = t_dead %+d ms%n",
                        i, kill - t0, dead - kill, restarted - dead, stored - dead);
            }
            // Calm period: every call in flight at the last crash ends, and new calls go through.
            Thread.sleep(config.calmMillis());
        } finally {
            stopping = true;
            for (Thread t : clients) {
                t.join(config.clientPolicy().intervalMillis() * config.clientPolicy().maxTries() + 10_000);
            }
            server.stop();
        }
        if (clientFailure.get() != null) {
            throw new IllegalStateException("a client failed: " + clientFailure.get(), clientFailure.get());
        }
        return CrashReport.analyze(config, t0, crashes, List.copyOf(calls), journal());
    }

    private volatile boolean stopping;

    private void sabotage(long dead) throws IOException {
        switch (config.sabotage()) {
            case NONE -> {
            }
            case DISCARD_STABLE_STORAGE -> java.nio.file.Files.delete(storage());
            case LATEST_FAR_AHEAD -> new FileStableStorage(storage()).write(dead + 2_000);
        }
    }

    private void callLoop(InetSocketAddress address, ConnId conn, ConcurrentLinkedQueue<CallRecord> calls,
                          AtomicReference<Throwable> failure, int k) {
        // Paced to half of beta: a fast disk must not push timestamps past latest (too early).
        ClientOptions options = ClientOptions.of(config.clientPolicy()).withMaxLead(config.beta() / 2);
        try (StepLog stepLog = stepLogs == null ? StepLog.OFF : StepLog.open(stepLogs.resolve("client-" + k + ".jsonl"),
                RpcStepLogs.clientHeader(conn.value(), config.clientPolicy()));
             RpcUdpClient client = new RpcUdpClient(address, conn, options, java.time.InstantSource.system(), 0,
                     stepLog)) {
            for (int n = 0; n < config.maxCallsPerClient() && !stopping; n++) {
                if (pauseMillis > 0 && n > 0) {
                    Thread.sleep(pauseMillis);
                }
                String op = conn + "#" + n;
                long start = System.currentTimeMillis();
                CallResult r = client.call(op.getBytes(StandardCharsets.US_ASCII));
                calls.add(new CallRecord(conn.value(), r.ts().value(), op, r, start, System.currentTimeMillis()));
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        }
    }

    private List<String> serverArgs(int port) {
        List<String> args = new ArrayList<>(serverArgsWithoutLog(port));
        if (stepLogs != null) {
            args.addAll(List.of("--step-log", stepLogs.resolve("server-" + incarnation + ".jsonl").toString(),
                    "--incarnation", Integer.toString(incarnation)));
            incarnation++;
        }
        return args;
    }

    private List<String> serverArgsWithoutLog(int port) {
        return List.of("--port", Integer.toString(port), "--bind", "127.0.0.1",
                "--storage", storage().toString(), "--handler", "counter", "--journal", journal().toString(),
                "--beta", Long.toString(config.beta()), "--latest-period", Long.toString(config.latestPeriod()),
                "--rho", Long.toString(config.rho()), "--kappa", Long.toString(config.kappa()),
                "--gc-period", "500", "--threads", Integer.toString(config.threads()));
    }
}
