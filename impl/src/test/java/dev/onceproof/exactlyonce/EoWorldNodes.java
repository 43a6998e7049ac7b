package dev.onceproof.exactlyonce;

import dev.onceproof.exactlyonce.store.ClientStore;
import dev.onceproof.exactlyonce.store.ServerStore;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.storage.InMemoryOperationLog;
import dev.onceproof.storage.Journal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@link EoWorld}'s servers and clients: every server the real server core for every client over an
 * in-memory store, every client the real client core over a {@link ClientStore}, each rebuilt from
 * its store when it crashes or when a control swaps in broken cores through a seam.
 */
final class EoWorldNodes {

    private final ManualEoClock clock;
    private final int w;
    private final List<ServerId> servers;
    private final List<ClientId> clients;
    /** Per client: the strategy's parameters, with the watermark seam for the control. */
    private final Map<ClientId, StrategyConfig> configs = new HashMap<>();
    private final Map<ServerId, Map<ClientId, EoServer>> cores = new HashMap<>();
    private final Map<ServerId, Map<ClientId, ServerStore>> serverStores = new HashMap<>();
    /**
     * What survives a server's crash: its journal (in memory, through the real codec). A crash
     * loses what was not committed and recovery reopens the store on the disk (checkpoint plus
     * operations); checkpoints are due every few hundred bytes, so schedules cross them too.
     */
    private final Map<ServerId, Map<ClientId, InMemoryOperationLog.Disk>> serverDisks = new HashMap<>();
    private static final Journal.Options STORE_OPTIONS = new Journal.Options(Journal.Commit.GROUP, 2.0, 256);
    private final Map<ClientId, ClientCore> clientCores = new HashMap<>();
    private final Map<ClientId, ClientStore> clientStores = new HashMap<>();
    private final Map<ClientId, InMemoryOperationLog.Disk> clientDisks = new HashMap<>();
    /** Strategy 2's replicas travel as messages ({@link EoWorld#s2WithReplicasAsMessages}). */
    private final boolean asyncReplicas;
    /** Strategy 3's cores write their own lines to the world's step log; OFF until it logs. */
    private StepLog log = StepLog.OFF;

    EoWorldNodes(Strategy strategy, List<ServerId> servers, List<ClientId> clients, int w, int q, long te,
            boolean watermark, boolean replicationRound, boolean asyncReplicas, ManualEoClock clock) {
        this.clock = clock;
        this.w = w;
        this.servers = servers;
        this.clients = clients;
        this.asyncReplicas = asyncReplicas;
        for (ClientId c : clients) {
            // Strategies 0-2: replicas reach every K within createNote (see EoWorld's doc), unless async.
            StrategyConfig config = strategy.config(c, new TreeSet<>(servers), te).w(w).q(q);
            config = asyncReplicas ? config : config.replicasStoredAtOnce();
            config = watermark ? config : config.withoutWatermark();
            configs.put(c, replicationRound ? config : config.withoutReplicationRound());
        }
        for (ServerId s : servers) {
            for (ClientId c : clients) {
                InMemoryOperationLog.Disk disk = new InMemoryOperationLog.Disk("server " + s + " for " + c);
                serverDisks.computeIfAbsent(s, x -> new HashMap<>()).put(c, disk);
                serverStores.computeIfAbsent(s, x -> new HashMap<>()).put(c, ServerStore.inMemory(disk, STORE_OPTIONS));
                cores.computeIfAbsent(s, x -> new HashMap<>()).put(c, newServer(s, c));
            }
        }
        for (ClientId c : clients) {
            clientDisks.put(c, new InMemoryOperationLog.Disk("client " + c));
            clientStores.put(c, ClientStore.inMemory(clientDisks.get(c), ClientStore.journal()));
            clientCores.put(c, newClient(c));
        }
    }

    EoServer server(ServerId s, ClientId c) {
        return cores.get(s).get(c);
    }

    ClientCore client(ClientId c) {
        return clientCores.get(c);
    }

    /** Server s's durable state for the one client of a logged world, as a line shows it. */
    ServerDurableState durable(ServerId s) {
        return (ServerDurableState) cores.get(s).get(clients.get(0)).durable();
    }

    /** Makes a server step's record durable (before its sends leave: the caller sends after). */
    void save(ServerId s, ClientId c, ServerEffect.Record r) {
        EoServer core = cores.get(s).get(c);
        serverStores.get(s).get(c).save(r, () -> (ServerDurableState) core.durable());
    }

    void commit(ClientId c, ClientEffect.Record r) {
        clientStores.get(c).commit(r);
    }

    private EoServer newServer(ServerId s, ClientId c) {
        ServerDurableState durable = serverStores.get(s).get(c).load();
        EoServer core = s0Guards != null
                ? new S0Server(configs.get(c).serverConfig(s), clock, durable, s0Guards[0], s0Guards[1])
                : s2NoTeWait ? new S2Server(configs.get(c).serverConfig(s), clock, w, durable, true, false, true,
                        !asyncReplicas)
                : s2NoSettleWait ? new S2Server(configs.get(c).serverConfig(s), clock, w, durable, true, true, false,
                        false)
                : configs.get(c).server(s, clock, durable);
        if (core instanceof S3Server s3) {
            s3.logSteps(log);
        }
        if (s2TagIgnored && core instanceof S2Server s2) {
            s2.staleRemovalTakesNewerIncarnation();
        }
        if (notJournaled != null && core instanceof S3Server s3) {
            s3.withoutJournaling(notJournaled);
        } else if (notJournaled != null) {
            ((StreamServer) core).withoutJournaling(notJournaled);
        }
        return core;
    }

    private ClientCore newClient(ClientId c) {
        return configs.get(c).client(clock, StrategyConfig.ClientMemory.fresh()
                .withStable(clientStores.get(c).load().map(ClientStore.Contents::stable)));
    }

    /** Hands the step log to Strategy 3's cores, those running now and those rebuilt later. */
    void logSteps(StepLog log, Strategy strategy) {
        this.log = log;
        if (strategy == Strategy.S3) {
            cores.values().forEach(m -> m.values().forEach(core -> ((S3Server) core).logSteps(log)));
        }
    }

    void crashClient(ClientId client) {
        clientDisks.get(client).crash();
        clientStores.put(client, ClientStore.inMemory(clientDisks.get(client), ClientStore.journal())); // recovery
        clientCores.put(client, newClient(client)); // stable state from its store; conn lost
    }

    void crashServer(ServerId server) {
        for (ClientId c : clients) {
            InMemoryOperationLog.Disk disk = serverDisks.get(server).get(c);
            disk.crash(); // loses nothing committed: every step's record was committed before its sends
            ServerStore recovered = ServerStore.inMemory(disk, STORE_OPTIONS); // checkpoint plus operations
            if (!recovered.load().equals(cores.get(server).get(c).durable())) {
                throw new IllegalStateException("server " + server + " recovers " + recovered.load()
                        + " from its journal, but its core held " + cores.get(server).get(c).durable());
            }
            serverStores.get(server).put(c, recovered);
            cores.get(server).put(c, newServer(server, c)); // durable state from its store; sessions lost
        }
    }

    // ---- the controls' seams: each rebuilds every server core from its store ------------------

    /** The control's seam: S0Server's forget guards {confirmed, T_e wait}, or null for the real ones. */
    private boolean[] s0Guards;

    /** The control's seam: Strategy 2 servers whose Condition 1 does not wait T_e (EoSeams.s2WithoutTeWait). */
    private boolean s2NoTeWait;

    /** The control's seam: Strategy 2 servers without the settle rule (S2Server's settleWait). */
    private boolean s2NoSettleWait;

    /** The control's seam: Strategy 2 servers without rule "tag" (S2Server.staleRemovalTakesNewerIncarnation). */
    private boolean s2TagIgnored;

    /** The control's seam: an operation kind the servers' cores leave out of their records, or null. */
    private Class<? extends ServerOp> notJournaled;

    void withS0ForgetGuards(boolean confirmed, boolean te) {
        this.s0Guards = new boolean[] {confirmed, te};
        rebuildServers();
    }

    void withoutS2TeWait() {
        this.s2NoTeWait = true;
        rebuildServers();
    }

    void withoutS2SettleWait() {
        this.s2NoSettleWait = true;
        rebuildServers();
    }

    void withoutS2Tag() {
        this.s2TagIgnored = true;
        rebuildServers();
    }

    void withoutJournaling(Class<? extends ServerOp> kind) {
        this.notJournaled = kind;
        rebuildServers();
    }

    void withPrefixOverwrite() {
        for (ClientId c : clients) {
            configs.put(c, configs.get(c).withPrefixOverwrite());
        }
        rebuildServers();
    }

    private void rebuildServers() {
        for (ServerId s : servers) {
            for (ClientId c : clients) {
                cores.get(s).put(c, newServer(s, c));
            }
        }
    }
}
