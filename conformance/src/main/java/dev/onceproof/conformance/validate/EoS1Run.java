package dev.onceproof.conformance.validate;

import dev.onceproof.exactlyonce.ClientCore;
import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.ClientStep;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.EoServer;
import dev.onceproof.exactlyonce.ManualEoClock;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.ServerDurableState;
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
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A seeded world of Strategy 1 with its step log on, for {@code verify}'s fresh run (the tests use
 * impl's EoWorld, which lives in impl's test sources): two S1Server cores over in-memory stores,
 * the S1Client over a {@link ClientStore}, replication atomic (a created note's replicas enter the
 * other K within the step, as ExactlyOnceS1Msg's CreateNote), and a network that loses, duplicates
 * (a delivered message may stay), reorders and delays within T_e the notes, acks and sync messages.
 * Client and server crashes rebuild a core from its store. Random steps, then fair rounds.
 *
 * <p>One log, in the world's order (it is single-threaded): each line is written right after the
 * core's step returns, before its messages leave, with the variables of TraceExactlyOnceS1.tla
 * (the client's R after its durable write, a server's pre after an ack or a merge).
 */
public final class EoS1Run {

    static final List<ServerId> SERVERS = List.of(ServerId.of("A"), ServerId.of("B"));
    static final ClientId CLIENT = ClientId.of("c1");
    static final long TE = 3;
    static final int MAX_NOTES = 4;

    private record InFlight(EoMessage message, long born) {
    }

    private final ManualEoClock clock = new ManualEoClock(0);
    private final StrategyConfig config = Strategy.S1.config(CLIENT, new TreeSet<>(SERVERS), TE);
    private final StepLog log;
    private final Map<ServerId, InMemoryOperationLog.Disk> disks = new LinkedHashMap<>();
    private final Map<ServerId, ServerStore> stores = new LinkedHashMap<>();
    private final Map<ServerId, EoServer> servers = new LinkedHashMap<>();
    private final InMemoryOperationLog.Disk clientDisk = new InMemoryOperationLog.Disk("client");
    private ClientStore clientStore = ClientStore.inMemory(clientDisk, ClientStore.journal());
    private ClientCore client;
    private final List<InFlight> net = new ArrayList<>();
    private int notes;

    private EoS1Run(StepLog log) {
        this.log = log;
        for (ServerId s : SERVERS) {
            disks.put(s, new InMemoryOperationLog.Disk("server " + s));
            stores.put(s, ServerStore.inMemory(disks.get(s)));
            servers.put(s, config.server(s, clock, stores.get(s).load()));
        }
        client = newClient();
    }

    public static StepLog.Header header() {
        List<String> names = SERVERS.stream().map(ServerId::name).toList();
        return new StepLog.Header("ExactlyOnceS1Msg", "msg", "world").strings("Servers", names)
                .strings("Origins", names).constant("Client", CLIENT.name());
    }

    /** Runs {@code steps} random steps and then fair rounds; returns the log ({@code dir/s1-world.jsonl}). */
    public static Path run(Path dir, long seed, int steps) {
        Path file = dir.resolve("s1-world.jsonl");
        try (StepLog log = StepLog.open(file, header())) {
            EoS1Run run = new EoS1Run(log);
            run.withR(log.step("Init")).end();
            SplittableRandom random = new SplittableRandom(seed);
            for (int i = 0; i < steps; i++) {
                run.randomStep(random);
            }
            run.fairRounds(3);
        }
        return file;
    }

    private ClientCore newClient() {
        return config.client(clock, StrategyConfig.ClientMemory.fresh()
                .withStable(clientStore.load().map(ClientStore.Contents::stable)));
    }

    private void randomStep(SplittableRandom random) {
        ServerId s = SERVERS.get(random.nextInt(SERVERS.size()));
        int roll = random.nextInt(100);
        if (roll < 8) {
            create(s);
        } else if (roll < 14) {
            connect(random.nextInt(4) == 0 ? null : s);
        } else if (roll < 30) {
            sendNote();
        } else if (roll < 35) {
            timeout(s);
        } else if (roll < 45) {
            sync(s);
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

    /** The fairness EventualDelivery asks for: syncs, visits to every server, time. */
    private void fairRounds(int rounds) {
        for (int round = 0; round < rounds; round++) {
            for (ServerId s : SERVERS) {
                tick(TE);
                for (ServerId t : SERVERS) {
                    sync(t);
                    drain();
                }
                connect(s);
                for (int k = 0; k < 2 * (MAX_NOTES + 2); k++) {
                    sendNote();
                    drain();
                }
            }
        }
    }

    private void create(ServerId s) {
        if (notes == MAX_NOTES) {
            return;
        }
        notes++;
        EoServer core = servers.get(s);
        ServerStep step = core.createNote(Optional.empty(), "body" + notes);
        NoteId id = step.effects().stream().filter(e -> e instanceof ServerEffect.Send send
                        && send.message() instanceof EoMessage.Replica).map(e ->
                        ((EoMessage.Replica) ((ServerEffect.Send) e).message()).note().id()).findFirst().orElseThrow();
        log.step("CreateNote").field("server", s.name()).field("note", id.text()).end();
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.Replica rep) {
                carryOut(rep.to(), servers.get(rep.to()).receive(rep)); // atomic replication
            } else if (e instanceof ServerEffect.Record r) {
                stores.get(s).save(r, () -> (ServerDurableState) core.durable());
            }
        }
    }

    /** The client connects to {@code s} (null: disconnects); the old server's session ends. */
    private void connect(ServerId s) {
        Optional<ServerId> old = client.conn();
        if (old.isPresent()) {
            carryOut(old.get(), servers.get(old.get()).endSession());
            log.step("EndSession").field("server", old.get().name()).end();
            client.disconnect();
            log.step("Disconnect").end();
        }
        if (s != null) {
            client.connect(s);
            log.step("Connect").field("server", s.name()).end();
            ServerStep step = servers.get(s).startSession();
            log.step("StartSession").field("server", s.name()).end();
            carryOut(s, step);
        }
    }

    private void sendNote() {
        client.conn().ifPresent(s -> {
            ServerStep step = servers.get(s).deliverNext();
            if (step.outcome().equals("sent")) {
                log.step("SendNote").field("server", s.name())
                        .field("note", servers.get(s).pending().orElseThrow().text()).end();
            }
            carryOut(s, step);
        });
    }

    private void timeout(ServerId s) {
        Optional<NoteId> pending = servers.get(s).pending();
        ServerStep step = servers.get(s).timeout();
        if (step.outcome().equals("aborted")) {
            log.step("Timeout").field("server", s.name()).field("note", pending.orElseThrow().text()).end();
        }
        carryOut(s, step);
    }

    private void sync(ServerId s) {
        ServerStep step = servers.get(s).sync();
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.SyncRequest r) {
                log.step("StartSync").field("server", s.name()).field("peer", r.to().name())
                        .longs("msg", pre(r.removed())).end();
            }
        }
        carryOut(s, step);
    }

    private void crashClient() {
        clientDisk.crash();
        clientStore = ClientStore.inMemory(clientDisk, ClientStore.journal());
        client = newClient(); // R from its store; the connection is lost
        log.step("ClientCrash").end();
        withR(log.step("Recover")).end();
    }

    private void crashServer(ServerId s) {
        log.step("ServerCrash").field("server", s.name()).end();
        disks.get(s).crash(); // loses nothing: every step's record was committed before its sends
        stores.put(s, ServerStore.inMemory(disks.get(s)));
        servers.put(s, config.server(s, clock, stores.get(s).load())); // sessions lost
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
        EoMessage m = (keepCopy ? net.get(index) : net.remove(index)).message();
        if (m instanceof EoMessage.NoteDelivery d) {
            toClient(d);
        } else if (m instanceof EoMessage.NoteAck a) {
            ServerStep step = servers.get(a.to()).receive(a);
            if (step.outcome().equals("delivered")) {
                log.step("ReceiveAck").field("server", a.to().name()).field("note", a.id().text())
                        .longs("pre", pre(a.to())).end();
            }
            carryOut(a.to(), step);
        } else if (m instanceof EoMessage.SyncRequest r) {
            ServerStep step = servers.get(r.to()).receive(r);
            syncLine("HandleSync", r.to(), r.from(), r.removed());
            carryOut(r.to(), step);
        } else if (m instanceof EoMessage.SyncReply r) {
            ServerStep step = servers.get(r.to()).receive(r);
            syncLine("ReceiveSyncReply", r.to(), r.from(), r.removed());
            carryOut(r.to(), step);
        } else {
            throw new IllegalStateException("no Strategy 1 step receives " + m);
        }
    }

    private void syncLine(String action, ServerId s, ServerId peer, Set<NoteId> removed) {
        log.step(action).field("server", s.name()).field("peer", peer.name()).longs("msg", pre(removed))
                .longs("pre", pre(s)).end();
    }

    /** A note reaches the client only while it is connected; durable write, line, then the ack. */
    private void toClient(EoMessage.NoteDelivery d) {
        if (client.conn().isEmpty()) {
            return;
        }
        ClientStep step = client.receiveNote(d);
        for (ClientEffect e : step.effects()) {
            if (e instanceof ClientEffect.Record r) {
                clientStore.commit(r);
            }
        }
        withR(log.step("ReceiveNote").field("server", d.from().name()).field("note", d.note().id().text())
                .field("verdict", step.verdict().specName())).end();
        for (ClientEffect e : step.effects()) {
            if (e instanceof ClientEffect.Send s) {
                net.add(new InFlight(s.message(), clock.now()));
            }
        }
    }

    /** The step's record to the store, then its messages to the network. */
    private void carryOut(ServerId s, ServerStep step) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Record r) {
                EoServer core = servers.get(s);
                stores.get(s).save(r, () -> (ServerDurableState) core.durable());
            } else if (e instanceof ServerEffect.Send send) {
                net.add(new InFlight(send.message(), clock.now()));
            }
        }
    }

    /** The client's R: the last number accepted of every stream (0 if none). */
    private StepLog withR(StepLog l) {
        Map<String, Long> r = new TreeMap<>();
        SERVERS.forEach(x -> r.put(x.name(), ((ClientStableState.Streams) client.stable()).r().getOrDefault(x, 0L)));
        return l.longs("R", r);
    }

    /** Server s's pre: its removal ids are the highest of each stream. */
    private Map<String, Long> pre(ServerId s) {
        return pre(((ServerDurableState) servers.get(s).durable()).removed());
    }

    /** A sync message's or a server's prefixes: the highest id of each stream (0 for one it omits). */
    static Map<String, Long> pre(Set<NoteId> removed) {
        Map<String, Long> out = new TreeMap<>();
        SERVERS.forEach(x -> out.put(x.name(), 0L));
        for (NoteId id : removed) {
            NoteId.Sequenced i = (NoteId.Sequenced) id;
            out.merge(i.server().name(), i.seq(), Math::max);
        }
        return out;
    }
}
