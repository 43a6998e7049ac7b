package dev.onceproof.conformance.validate;

import dev.onceproof.rpc.hybrid.ConcurrentHybridClient;
import dev.onceproof.rpc.hybrid.ConcurrentHybridServer;
import dev.onceproof.rpc.hybrid.HybridMessage;
import dev.onceproof.rpc.hybrid.HybridServerCore;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.steplog.StepLog;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The hybrid with real threads on the system clock: two server workers and a collector share one
 * {@link ConcurrentHybridServer}, two client threads each drive a {@link ConcurrentHybridClient},
 * and in-memory queues stand for the network (every CALL is sent twice, and a copy of each finished
 * call arrives again after its entry may have been collected). Every process logs; the logs are
 * what the wrappers' locks make of real interleavings, for TraceHybrid.tla to check.
 */
final class HybridThreadsRun {

    static final long RHO = 20;
    static final String[] CONNS = {"c1", "c2"};

    private HybridThreadsRun() {
    }

    static List<Path> run(Path dir, int callsPerClient) throws Exception {
        List<Path> files = new ArrayList<>(List.of(dir.resolve("server.jsonl")));
        InstantSource clock = InstantSource.system();
        BlockingQueue<HybridMessage> toServer = new LinkedBlockingQueue<>();
        List<BlockingQueue<HybridMessage>> toClients = new ArrayList<>();
        AtomicBoolean stop = new AtomicBoolean();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (StepLog serverLog = StepLog.open(files.get(0), new StepLog.Header("Hybrid", "hybrid", "server")
                .constant("Rho", RHO).map("Skew", Map.of("c1", 0L, "c2", 0L)))) {
            ConcurrentHybridServer server = new ConcurrentHybridServer(clock, c -> new HybridServerCore(c, RHO, 1),
                    serverLog);
            List<Thread> workers = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                workers.add(thread(failures, () -> {
                    while (!stop.get() || !toServer.isEmpty()) {
                        HybridMessage m = toServer.poll(2, TimeUnit.MILLISECONDS);
                        if (m instanceof HybridMessage.Call call) {
                            server.receiveCall(call).send().ifPresent(r -> toClients.get(index(r.conn())).add(r));
                        } else if (m instanceof HybridMessage.Ack ack) {
                            server.receiveAck(ack);
                        }
                    }
                }));
            }
            workers.add(thread(failures, () -> {
                while (!stop.get()) {
                    server.collectGarbage();
                    Thread.sleep(3);
                }
            }));
            List<Thread> clients = new ArrayList<>();
            List<StepLog> clientLogs = new ArrayList<>();
            for (int i = 0; i < CONNS.length; i++) {
                Path f = dir.resolve("client-" + CONNS[i] + ".jsonl");
                files.add(f);
                StepLog log = StepLog.open(f, new StepLog.Header("Hybrid", "hybrid", "client-" + CONNS[i]));
                clientLogs.add(log);
                BlockingQueue<HybridMessage> inbox = new LinkedBlockingQueue<>();
                toClients.add(inbox);
                ConcurrentHybridClient client = new ConcurrentHybridClient(ConnId.of(CONNS[i]), clock,
                        server.startedAt() - 1, log);
                clients.add(thread(failures, () -> {
                    client.bind(server.incarnation());
                    for (int k = 0; k < callsPerClient; k++) {
                        HybridMessage.Call call = client.call();
                        toServer.add(call);
                        toServer.add(call); // the network duplicates
                        int tries = 0;
                        while (client.state().waiting()) {
                            HybridMessage m = inbox.poll(4, TimeUnit.MILLISECONDS);
                            if (m instanceof HybridMessage.Reply reply) {
                                client.receiveReply(reply).ifPresent(toServer::add);
                            } else if (m == null && ++tries < 6) {
                                client.retransmit().ifPresent(toServer::add);
                            } else if (m == null) {
                                client.timeout();
                            }
                        }
                        Thread.sleep(RHO + 10); // long enough for the acked entry to go
                        toServer.add(call); // a late copy: a duplicate, or below upper
                    }
                }));
            }
            for (Thread t : clients) {
                t.join();
            }
            stop.set(true);
            for (Thread t : workers) {
                t.join();
            }
            clientLogs.forEach(StepLog::close);
        }
        if (!failures.isEmpty()) {
            throw new IllegalStateException("a thread of the run failed", failures.get(0));
        }
        return files;
    }

    private static int index(ConnId c) {
        return List.of(CONNS).indexOf(c.value());
    }

    interface Body {
        void run() throws Exception;
    }

    private static Thread thread(List<Throwable> failures, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failures.add(e);
            }
        });
        t.start();
        return t;
    }
}
