package dev.onceproof.conformance.validate;

import dev.onceproof.exactlyonce.ClientStep;
import dev.onceproof.exactlyonce.ConcurrentS3Server;
import dev.onceproof.exactlyonce.EoClock;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.S3Client;
import dev.onceproof.exactlyonce.S3Server;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.StrategyConfig;
import dev.onceproof.exactlyonce.store.ClientStore;
import dev.onceproof.exactlyonce.store.ServerStore;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.storage.InMemoryOperationLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;

/**
 * Strategy 3 with real threads on the real clock, in one process: two {@link ConcurrentS3Server}s
 * (A and B), each with its own step log written by its core inside each step, so under the
 * server's lock, at the step's linearization point. Around them: two producer threads creating
 * notes on either server, one periodic sync thread starting a round on both every few
 * milliseconds, per server a handler thread taking its peer and client messages from a network
 * that delays (1-4 ms) and sometimes duplicates, and per server a session thread (HandleClient:
 * while the client is connected, SendNote, Authorize, and Timeout of a Deliver left unanswered);
 * the client thread owns the real {@link S3Client}, writes its line after the durable write and
 * before the ack leaves, and moves between the servers. The session channel to the client is one
 * FIFO queue, as a connection is: a copy a server sent before it knew the note delivered is ahead
 * of any purge of it.
 *
 * <p>Three logs (A, B, client), one cursor each for TLC (TraceExactlyOnceS3.tla), which chooses the
 * interleaving; the spec's networks enforce happens-before. The seed fixes the producers' and the
 * client's choices; the interleaving is the machine's.
 */
final class EoS3ThreadsRun {

    static final List<ServerId> SERVERS = List.of(ServerId.of("A"), ServerId.of("B"));
    static final int Q = 2;
    /** T_e in ms: a copy older than this is gone (the network here delays at most 4 ms). */
    static final long TE = 15;

    private final StrategyConfig config;
    private final EoClock clock = () -> System.nanoTime() / 1_000_000L;
    private final Map<ServerId, ConcurrentS3Server> servers = new LinkedHashMap<>();
    private final Map<ServerId, DelayQueue<InFlight>> inbound = new LinkedHashMap<>();
    /** The session channel: what servers hand the client, in the order they decided it. */
    private final BlockingQueue<EoMessage> toClient = new LinkedBlockingQueue<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Throwable> failures = new CopyOnWriteArrayList<>();
    private volatile ServerId connected;
    /** Notes that reached the client (the client thread's own count). */
    private int notesReceived;
    /** How long past {@code millis} the client stays for its first note on a slow machine. */
    private static final long FIRST_NOTE_CAP_MILLIS = 10_000;
    private int created;

    private record InFlight(EoMessage message, long due) implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(due - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed o) {
            return Long.compare(due, ((InFlight) o).due);
        }
    }

    private EoS3ThreadsRun(UnaryOperator<StrategyConfig> seam) {
        this.config = seam.apply(Strategy.S3.config(EoS3Run.CLIENT, new TreeSet<>(SERVERS), TE).q(Q));
    }

    static StepLog.Header header(String process) {
        return new StepLog.Header("ExactlyOnceS3MsgRound", "round", process)
                .strings("Servers", SERVERS.stream().map(ServerId::name).toList())
                .constant("Client", EoS3Run.CLIENT.name()).constant("Q", Q).constant("Te", TE);
    }

    /**
     * Runs for about {@code millis} ms with {@code notesPerProducer} notes from each of two
     * producers; returns the logs (server-A, server-B, client).
     */
    static List<Path> run(Path dir, long seed, int notesPerProducer, long millis, UnaryOperator<StrategyConfig> seam)
            throws InterruptedException {
        List<Path> files = new ArrayList<>();
        List<StepLog> logs = new ArrayList<>();
        EoS3ThreadsRun run = new EoS3ThreadsRun(seam);
        try {
            for (ServerId s : SERVERS) {
                Path f = dir.resolve("server-" + s.name() + ".jsonl");
                files.add(f);
                StepLog log = StepLog.open(f, header(s.name()));
                logs.add(log);
                ServerStore store = ServerStore.inMemory(new InMemoryOperationLog.Disk("server " + s));
                S3Server core = (S3Server) run.config.server(s, run.clock, store.load());
                core.logSteps(log);
                run.inbound.put(s, new DelayQueue<>());
                run.servers.put(s, new ConcurrentS3Server(core, store, ConcurrentS3Server.Handoff.UNDER_LOCK,
                        run.toClient::add));
            }
            Path clientFile = dir.resolve("client.jsonl");
            files.add(clientFile);
            StepLog clientLog = StepLog.open(clientFile, header("client"));
            logs.add(clientLog);
            run.go(seed, notesPerProducer, millis, clientLog);
        } finally {
            logs.forEach(StepLog::close);
        }
        if (!run.failures.isEmpty()) {
            throw new IllegalStateException("a thread of the run failed", run.failures.get(0));
        }
        return files;
    }

    private void go(long seed, int notesPerProducer, long millis, StepLog clientLog) throws InterruptedException {
        List<Thread> producers = new ArrayList<>();
        for (int p = 0; p < 2; p++) {
            SplittableRandom random = new SplittableRandom(seed * 31 + p);
            producers.add(thread("producer-" + p, () -> {
                for (int k = 0; k < notesPerProducer && !stop.get(); k++) {
                    Thread.sleep(5 + random.nextInt((int) (millis / (2 * notesPerProducer)) + 1));
                    create(SERVERS.get(random.nextInt(SERVERS.size())));
                }
            }));
        }
        List<Thread> workers = new ArrayList<>();
        workers.add(thread("sync", () -> {
            while (!stop.get()) {
                for (ServerId s : SERVERS) {
                    send(servers.get(s).startSync(), new SplittableRandom());
                }
                Thread.sleep(8);
            }
        }));
        for (ServerId s : SERVERS) {
            workers.add(thread("handler-" + s, () -> handle(s)));
            workers.add(thread("session-" + s, () -> session(s)));
        }
        Thread client = thread("client", () -> client(new SplittableRandom(seed), millis, clientLog));
        for (Thread t : producers) {
            t.join();
        }
        client.join();
        stop.set(true);
        for (Thread t : workers) {
            t.join();
        }
    }

    /** Creations are numbered n1, n2, ... in the order they take effect (one at a time). */
    private synchronized void create(ServerId s) {
        created++;
        send(servers.get(s).createNote(Optional.of(NoteId.global("n" + created)), "body" + created),
                new SplittableRandom(created));
    }

    private void handle(ServerId s) throws InterruptedException {
        SplittableRandom random = new SplittableRandom(s.name().hashCode());
        while (!stop.get()) {
            InFlight f = inbound.get(s).poll(2, TimeUnit.MILLISECONDS);
            if (f != null) {
                send(servers.get(s).receive(f.message()), random);
            }
        }
    }

    /** HandleClient while the client is connected here: offer notes and purges, time out a lost Deliver. */
    private void session(ServerId s) throws InterruptedException {
        ConcurrentS3Server server = servers.get(s);
        long pendingSince = -1;
        while (!stop.get()) {
            if (s.equals(connected)) {
                if (server.pending().isPresent()) {
                    long now = clock.now();
                    if (pendingSince < 0) {
                        pendingSince = now;
                    } else if (now - pendingSince > 3 * TE) {
                        server.timeout();
                        pendingSince = -1;
                    }
                } else {
                    pendingSince = -1;
                    server.deliverNext();
                }
                server.authorize();
            }
            Thread.sleep(1);
        }
    }

    /** The client: connects to a server, takes what arrives while connected, moves on now and then. */
    private void client(SplittableRandom random, long millis, StepLog log) throws InterruptedException {
        InMemoryOperationLog.Disk disk = new InMemoryOperationLog.Disk("client");
        ClientStore store = ClientStore.inMemory(disk, ClientStore.journal());
        S3Client client = S3Client.fresh(EoS3Run.CLIENT, Q);
        line(log, "Init", null, client);
        long end = System.nanoTime() + millis * 1_000_000L;
        long cap = end + FIRST_NOTE_CAP_MILLIS * 1_000_000L;
        // The window is wall time; a run that saw no note yet (a slow or loaded machine) goes on
        // until its first one, within the cap, so the logs always hold an offer and its receipt.
        while (System.nanoTime() < end || notesReceived == 0 && System.nanoTime() < cap) {
            ServerId s = SERVERS.get(random.nextInt(SERVERS.size()));
            client.connect(s);
            line(log, "Connect", s, client);
            connected = s;
            send(servers.get(s).startSession(), random);
            long stay = System.nanoTime() + (20 + random.nextInt(40)) * 1_000_000L;
            while (System.nanoTime() < stay) {
                EoMessage m = toClient.poll(2, TimeUnit.MILLISECONDS);
                if (m != null) {
                    receive(client, store, m, log, random);
                }
            }
            connected = null;
            send(servers.get(s).endSession(), random);
            client.disconnect();
            line(log, "Disconnect", null, client);
            Thread.sleep(random.nextInt(4));
        }
    }

    /** Durable write, line, then the ack (to the server the message came from). */
    private void receive(S3Client client, ClientStore store, EoMessage m, StepLog log, SplittableRandom random) {
        ClientStep step;
        String action;
        ServerId from;
        NoteId id;
        if (m instanceof EoMessage.NoteDelivery d) {
            notesReceived++;
            step = client.receiveNote(d);
            action = "ReceiveNote";
            from = d.from();
            id = d.note().id();
        } else if (m instanceof EoMessage.PurgeRequest p) {
            step = client.receivePurge(p);
            action = "ReceivePurge";
            from = p.from();
            id = p.id();
        } else {
            throw new IllegalStateException("the client got " + m);
        }
        EoS3Run.clientSide(step, store, log, action, from, id, client.stable(), ack -> post(ack, random));
    }

    private static void line(StepLog log, String action, ServerId server, S3Client client) {
        synchronized (log) {
            StepLog l = log.step(action);
            if (server != null) {
                l.field("server", server.name());
            }
            if (action.equals("Init")) {
                l.strings("R", EoS3Run.ids(client.stable()));
            }
            l.end();
        }
    }

    /** A step's messages for peers go on the network; the client's went through the session channel. */
    private void send(ServerStep step, SplittableRandom random) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send s && !(s.message() instanceof EoMessage.NoteDelivery)
                    && !(s.message() instanceof EoMessage.PurgeRequest)) {
                post(s.message(), random);
            }
        }
    }

    /** Onto the network: 1-4 ms late, one in ten twice. */
    private void post(EoMessage m, SplittableRandom random) {
        DelayQueue<InFlight> to = inbound.get(EoS3Run.serverOf(m));
        long now = System.nanoTime();
        to.add(new InFlight(m, now + (1 + random.nextInt(4)) * 1_000_000L));
        if (random.nextInt(10) == 0) {
            to.add(new InFlight(m, now + (2 + random.nextInt(4)) * 1_000_000L));
        }
    }

    interface Body {
        void run() throws Exception;
    }

    private Thread thread(String name, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failures.add(e);
                stop.set(true);
            }
        }, "eo-threads-" + name);
        t.start();
        return t;
    }
}
