package dev.onceproof.conformance.validate;

import dev.onceproof.rpc.hybrid.ConcurrentHybridClient;
import dev.onceproof.rpc.hybrid.ConcurrentHybridServer;
import dev.onceproof.rpc.hybrid.HybridMessage;
import dev.onceproof.rpc.hybrid.HybridServerCore;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.steplog.StepLog;
import java.nio.file.Path;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * A seeded world of the hybrid (SCMP inside Birrell and Nelson's RPC) with every step log on: the
 * real {@link ConcurrentHybridServer} and two {@link ConcurrentHybridClient}s, one with a clock
 * ahead of real time, on a network that duplicates, reorders, delivers late and loses (a delivered
 * message usually stays deliverable), with ticks, timeouts, rebinding, garbage collection and a
 * server crash with recovery. The server and each client write a log of their own (one cursor each
 * in specs/rpc/TraceHybrid.tla); the world itself takes no step the spec names but Tick and Lose,
 * which a log need not show. Deterministic: one seed, one run, byte-identical logs.
 */
public final class HybridRun {

    static final long RHO = 6;
    static final String[] CONNS = {"c1", "c2"};
    static final long[] SKEW = {0, 2};
    static final int MAX_CALLS = 4;
    static final int MAX_CRASHES = 1;

    private final ManualInstantSource clock = new ManualInstantSource(0);
    private final ConcurrentHybridServer server;
    private final List<ConcurrentHybridClient> clients = new ArrayList<>();
    private final int[] calls = new int[CONNS.length];
    private final List<HybridMessage> net = new ArrayList<>();
    private int crashes;

    private HybridRun(Function<InstantSource, HybridServerCore> core, StepLog serverLog, List<StepLog> clientLogs) {
        this.server = new ConcurrentHybridServer(clock, core, serverLog);
        for (int i = 0; i < CONNS.length; i++) {
            long skew = SKEW[i];
            InstantSource own = new InstantSource() { // the client's clock: real time + skew
                @Override
                public Instant instant() {
                    return Instant.ofEpochMilli(clock.millis() + skew);
                }
            };
            // Hybrid.tla's Init: as if the client had stamped a message just before its first reading.
            clients.add(new ConcurrentHybridClient(ConnId.of(CONNS[i]), own, skew - 1, clientLogs.get(i)));
        }
    }

    public static StepLog.Header serverHeader() {
        java.util.Map<String, Long> skew = new java.util.LinkedHashMap<>();
        for (int i = 0; i < CONNS.length; i++) {
            skew.put(CONNS[i], SKEW[i]);
        }
        return new StepLog.Header("Hybrid", "hybrid", "server").constant("Rho", RHO).map("Skew", skew);
    }

    /** The real core. */
    public static Function<InstantSource, HybridServerCore> realCore() {
        return c -> new HybridServerCore(c, RHO, 1);
    }

    /**
     * Runs {@code steps} seeded steps; returns the logs (server, then the clients) in {@code dir}.
     *
     * @param core builds the server's core: {@link #realCore()}, or one broken through a seam
     */
    public static List<Path> run(Path dir, long seed, int steps, Function<InstantSource, HybridServerCore> core) {
        List<Path> files = new ArrayList<>(List.of(dir.resolve("server.jsonl")));
        for (String c : CONNS) {
            files.add(dir.resolve("client-" + c + ".jsonl"));
        }
        List<StepLog> logs = new ArrayList<>();
        try {
            logs.add(StepLog.open(files.get(0), serverHeader()));
            for (int i = 0; i < CONNS.length; i++) {
                logs.add(StepLog.open(files.get(i + 1), new StepLog.Header("Hybrid", "hybrid", "client-" + CONNS[i])));
            }
            HybridRun run = new HybridRun(core, logs.get(0), logs.subList(1, logs.size()));
            SplittableRandom random = new SplittableRandom(seed);
            for (int i = 0; i < steps; i++) {
                run.step(random);
            }
        } finally {
            logs.forEach(StepLog::close);
        }
        return files;
    }

    private void step(SplittableRandom random) {
        int pick = random.nextInt(100);
        boolean up = server.state().up();
        if (pick < 15) {
            clock.advance(1 + random.nextInt(2));
        } else if (pick < 45) {
            int c = random.nextInt(CONNS.length);
            ConcurrentHybridClient client = clients.get(c);
            var s = client.state();
            if (!s.waiting() && up && s.inc() != server.incarnation()) {
                client.bind(server.incarnation());
            } else if (!s.waiting() && s.inc() != 0 && calls[c] < MAX_CALLS) {
                calls[c]++;
                net.add(client.call());
            } else if (s.waiting() && random.nextInt(100) < 85) {
                client.retransmit().ifPresent(net::add);
            } else if (s.waiting()) {
                client.timeout();
            }
        } else if (pick < 82) {
            if (net.isEmpty()) {
                return;
            }
            int i = random.nextInt(net.size());
            HybridMessage m = net.get(i);
            if (random.nextInt(100) < 30) {
                net.remove(i); // delivered once, or lost
            }
            deliver(m, up);
        } else if (pick < 92) {
            if (up) {
                server.collectGarbage();
            }
        } else if (up && crashes < MAX_CRASHES && pick < 95) {
            crashes++;
            server.crash();
        } else if (!up) {
            server.recover();
        }
    }

    private void deliver(HybridMessage m, boolean up) {
        int c = java.util.Arrays.asList(CONNS).indexOf(m.conn().value());
        if (m instanceof HybridMessage.Call call) {
            if (up) {
                server.receiveCall(call).send().ifPresent(net::add);
            }
        } else if (m instanceof HybridMessage.Ack ack) {
            if (up) {
                server.receiveAck(ack);
            }
        } else if (m instanceof HybridMessage.Reply reply) {
            clients.get(c).receiveReply(reply).ifPresent(net::add);
        }
    }
}
