package dev.onceproof.conformance.validate;

import dev.onceproof.exactlyonce.ClientCore;
import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.ClientStep;
import dev.onceproof.exactlyonce.ConcurrentS3Server;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.ManualEoClock;
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
import java.util.function.UnaryOperator;

/**
 * A seeded world of Strategy 3 with its step log on: two servers, each the real
 * {@link ConcurrentS3Server} over an {@link S3Server} core and an in-memory store, and the real
 * {@link S3Client} over a {@link ClientStore}, on a network that loses, duplicates (a delivered
 * message may stay), reorders and delays messages within T_e (a message lives while
 * {@code now - born < te}, the reading under which the core's gate is exact, ExactlyOnceS3Timed).
 * The replicas, their acknowledgements and commits, syncs, notes and purges all travel on it.
 * Client and server crashes rebuild a core from its store. Random steps first, then fair rounds
 * (every server syncs, the client visits each server, purges and deliveries run) so the log holds
 * purges and R filling up, not only faults.
 *
 * <p>One log for the whole world (it is single-threaded, so its order is the real order): the
 * cores write their own lines (S3Server's hooks, under the ConcurrentS3Server's lock), the world
 * writes the client's after its durable write, and the environment's (Connect, Disconnect,
 * ClientCrash with the Recover that reads R back). Deterministic: one seed, one log.
 */
public final class EoS3Run {

    static final List<ServerId> SERVERS = List.of(ServerId.of("A"), ServerId.of("B"));
    static final ClientId CLIENT = ClientId.of("c1");
    static final int Q = 2;
    static final long TE = 3;
    static final int MAX_NOTES = 4;

    private record InFlight(EoMessage message, long born) {
    }

    private final ManualEoClock clock = new ManualEoClock(0);
    private final StrategyConfig config;
    private final StepLog log;
    private final Map<ServerId, ServerStore> stores = new LinkedHashMap<>();
    private final Map<ServerId, ConcurrentS3Server> servers = new LinkedHashMap<>();
    private final Map<ServerId, InMemoryOperationLog.Disk> disks = new LinkedHashMap<>();
    private final InMemoryOperationLog.Disk clientDisk = new InMemoryOperationLog.Disk("client");
    private ClientStore clientStore = ClientStore.inMemory(clientDisk, ClientStore.journal());
    private S3Client client;
    private final List<InFlight> net = new ArrayList<>();
    private final int maxNotes;
    private int notes;

    private EoS3Run(UnaryOperator<StrategyConfig> seam, StepLog log, int maxNotes) {
        this.maxNotes = maxNotes;
        this.config = seam.apply(Strategy.S3.config(CLIENT, new TreeSet<>(SERVERS), TE).q(Q));
        this.log = log;
        for (ServerId s : SERVERS) {
            disks.put(s, new InMemoryOperationLog.Disk("server " + s));
            stores.put(s, ServerStore.inMemory(disks.get(s)));
            servers.put(s, build(s));
        }
        client = newClient();
    }

    public static StepLog.Header header() {
        return new StepLog.Header("ExactlyOnceS3MsgRound", "round", "world")
                .strings("Servers", SERVERS.stream().map(ServerId::name).toList())
                .constant("Client", CLIENT.name()).constant("Q", Q).constant("Te", TE);
    }

    /**
     * Runs {@code steps} random steps and then fair rounds; returns the log ({@code dir/world.jsonl}).
     *
     * @param seam the servers' configuration: {@code c -> c} for the real cores, or one broken
     *     through a seam (package-private in impl; tests reach it)
     */
    public static Path run(Path dir, long seed, int steps, UnaryOperator<StrategyConfig> seam) {
        return run(dir, seed, steps, MAX_NOTES, seam);
    }

    /** As {@link #run(Path, long, int, UnaryOperator)} with up to {@code maxNotes} notes (ValidationScale's longer logs). */
    public static Path run(Path dir, long seed, int steps, int maxNotes, UnaryOperator<StrategyConfig> seam) {
        Path file = dir.resolve("world.jsonl");
        try (StepLog log = StepLog.open(file, header())) {
            EoS3Run run = new EoS3Run(seam, log, maxNotes);
            synchronized (log) {
                log.step("Init").strings("R", List.of()).end();
            }
            SplittableRandom random = new SplittableRandom(seed);
            for (int i = 0; i < steps; i++) {
                run.randomStep(random);
            }
            run.fairRounds(3);
        }
        return file;
    }

    private ConcurrentS3Server build(ServerId s) {
        S3Server core = (S3Server) config.server(s, clock, stores.get(s).load());
        core.logSteps(log);
        return new ConcurrentS3Server(core, stores.get(s), ConcurrentS3Server.Handoff.UNDER_LOCK,
                m -> net.add(new InFlight(m, clock.now())));
    }

    private S3Client newClient() {
        return (S3Client) config.client(clock, StrategyConfig.ClientMemory.fresh()
                .withStable(clientStore.load().map(ClientStore.Contents::stable)));
    }

    private void randomStep(SplittableRandom random) {
        ServerId s = SERVERS.get(random.nextInt(SERVERS.size()));
        int roll = random.nextInt(100);
        if (roll < 8) {
            create(s);
        } else if (roll < 14) {
            connect(random.nextInt(4) == 0 ? null : s);
        } else if (roll < 26) {
            carryOut(servers.get(s).deliverNext());
        } else if (roll < 32) {
            carryOut(servers.get(s).authorize());
        } else if (roll < 36) {
            carryOut(servers.get(s).timeout());
        } else if (roll < 44) {
            carryOut(servers.get(s).startSync());
        } else if (roll < 74) {
            deliver(random.nextInt(Math.max(1, net.size())), random.nextInt(4) == 0);
        } else if (roll < 79) {
            if (!net.isEmpty()) {
                net.remove(random.nextInt(net.size()));
            }
        } else if (roll < 95) {
            tick(1);
        } else if (roll < 97) {
            crashClient();
        } else {
            crashServer(s);
        }
    }

    /** The fairness EventualDelivery asks for: syncs, visits to every server, purges, time. */
    private void fairRounds(int rounds) {
        for (int round = 0; round < rounds; round++) {
            for (ServerId s : SERVERS) {
                tick(TE);
                for (ServerId t : SERVERS) {
                    carryOut(servers.get(t).startSync());
                    drain();
                }
                tick(TE);
                for (ServerId t : SERVERS) {
                    carryOut(servers.get(t).startSync());
                    drain();
                }
                connect(s);
                for (int k = 0; k < 2 * (maxNotes + Q); k++) {
                    carryOut(servers.get(s).authorize());
                    drain();
                    carryOut(servers.get(s).deliverNext());
                    drain();
                }
            }
        }
    }

    private void create(ServerId s) {
        if (notes < maxNotes) {
            notes++;
            carryOut(servers.get(s).createNote(Optional.of(NoteId.global("n" + notes)), "body" + notes));
        }
    }

    /** The client connects to {@code s} (null: disconnects); the old server's session ends. */
    private void connect(ServerId s) {
        Optional<ServerId> old = client.conn();
        if (old.isPresent()) {
            carryOut(servers.get(old.get()).endSession());
            client.disconnect();
            synchronized (log) {
                log.step("Disconnect").end();
            }
        }
        if (s != null) {
            client.connect(s);
            synchronized (log) {
                log.step("Connect").field("server", s.name()).end();
            }
            carryOut(servers.get(s).startSession());
        }
    }

    private void crashClient() {
        clientDisk.crash();
        clientStore = ClientStore.inMemory(clientDisk, ClientStore.journal());
        client = newClient(); // R from its store; the connection is lost
        synchronized (log) {
            log.step("ClientCrash").end();
            log.step("Recover").strings("R", ids(client.stable())).end();
        }
    }

    private void crashServer(ServerId s) {
        servers.get(s).crash(); // its ServerCrash line; then a new core from the store, as a restart
        disks.get(s).crash(); // what was not committed is lost (nothing: every step commits before it returns)
        stores.put(s, ServerStore.inMemory(disks.get(s)));
        servers.put(s, build(s));
    }

    private void tick(long ticks) {
        clock.advance(ticks);
        net.removeIf(f -> clock.now() - f.born() >= TE);
    }

    private void drain() {
        while (!net.isEmpty()) {
            deliver(0, false);
        }
    }

    private void deliver(int index, boolean keepCopy) {
        if (net.isEmpty()) {
            return;
        }
        InFlight f = keepCopy ? net.get(index) : net.remove(index);
        EoMessage m = f.message();
        if (m instanceof EoMessage.NoteDelivery d) {
            toClient(() -> client.receiveNote(d), "ReceiveNote", d.from(), d.note().id());
        } else if (m instanceof EoMessage.PurgeRequest p) {
            toClient(() -> client.receivePurge(p), "ReceivePurge", p.from(), p.id());
        } else {
            carryOut(servers.get(serverOf(m)).receive(m));
        }
    }

    /** The server a message between servers, or from the client, is addressed to. */
    static ServerId serverOf(EoMessage m) {
        if (m instanceof EoMessage.NoteAck a) {
            return a.to();
        } else if (m instanceof EoMessage.PurgeAck a) {
            return a.to();
        } else if (m instanceof EoMessage.SyncRequest r) {
            return r.to();
        } else if (m instanceof EoMessage.SyncReply r) {
            return r.to();
        } else if (m instanceof EoMessage.Replica r) {
            return r.to();
        } else if (m instanceof EoMessage.ReplicaAck a) {
            return a.to();
        } else if (m instanceof EoMessage.ReplicaCommit c) {
            return c.to();
        }
        throw new IllegalStateException("no Strategy 3 server receives " + m);
    }

    /** A message reaches the client only while it is connected; durable write, line, then the ack. */
    private void toClient(java.util.function.Supplier<ClientStep> receive, String action, ServerId from, NoteId id) {
        if (client.conn().isEmpty()) {
            return;
        }
        ClientStep step = receive.get();
        clientSide(step, clientStore, log, action, from, id, client.stable(), m -> net.add(new InFlight(m, clock.now())));
    }

    /**
     * The client's side of a note or purge it took: the durable write, then its line (ReceiveNote
     * with the verdict, or ReceivePurge, and R), then the ack goes to {@code send}.
     */
    static void clientSide(ClientStep step, ClientStore store, StepLog log, String action, ServerId from, NoteId id,
            ClientStableState stable, java.util.function.Consumer<EoMessage> send) {
        for (ClientEffect e : step.effects()) {
            if (e instanceof ClientEffect.Record r) {
                store.commit(r);
            }
        }
        synchronized (log) {
            StepLog l = log.step(action).field("server", from.name()).field("note", id.text());
            if (action.equals("ReceiveNote")) {
                l.field("verdict", step.verdict().specName());
            }
            l.strings("R", ids(stable)).end();
        }
        for (ClientEffect e : step.effects()) {
            if (e instanceof ClientEffect.Send s) {
                send.accept(s.message());
            }
        }
    }

    /** Messages for peers go on the network; the client's went through the session channel. */
    private void carryOut(ServerStep step) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send s && !(s.message() instanceof EoMessage.NoteDelivery)
                    && !(s.message() instanceof EoMessage.PurgeRequest)) {
                net.add(new InFlight(s.message(), clock.now()));
            }
        }
    }

    static List<String> ids(ClientStableState stable) {
        return ((ClientStableState.IdList) stable).r().stream().map(NoteId::text).toList();
    }
}
