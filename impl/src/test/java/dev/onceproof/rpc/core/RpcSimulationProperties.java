package dev.onceproof.rpc.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.rpc.wire.DecodeResult;
import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcDecoder;
import dev.onceproof.rpc.wire.RpcEncoder;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.ScmpState;
import dev.onceproof.sim.SimNetwork;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.storage.InMemoryStableStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * The cores together over a simulated network that loses, duplicates, delays and reorders every
 * datagram (encoded and decoded on the way, as on UDP), with a server that crashes and recovers:
 * the spec's safety properties checked on the Java code instead of the model, for a thousand
 * random schedules of far greater length than TLC's bounds.
 *
 * <p>With {@link World#logSteps} a world writes the step logs of RPC.tla's processes, the server's
 * and each client's, in the formats of ConcurrentRpcServer and RpcUdpClient, one line right after
 * each step (the world runs one step at a time: its linearization point) and before its effects go
 * on the network. Conformance validates them against specs/rpc/TraceRpc.tla
 * (RpcWorldValidationTest).
 */
class RpcSimulationProperties {

    static final long RHO = 30;
    static final long KAPPA = 60;
    static final ConnId[] CONNS = {ConnId.of("c1"), ConnId.of("c2"), ConnId.of("c3")};

    /** One simulated world; every choice comes from the seed. */
    static final class World {
        final SplittableRandom random;
        final ManualInstantSource serverClock = new ManualInstantSource(1_000);
        final InMemoryStableStorage storage = new InMemoryStableStorage();
        final RpcServerCore server;
        final Map<ConnId, RpcClientCore> clients = new HashMap<>();
        final Map<ConnId, ManualInstantSource> clientClocks = new HashMap<>();
        final Map<ConnId, Long> skew = new HashMap<>();
        /** The shared simulated network, one per direction (datagrams, any delay, no partitions). */
        final SimNetwork<byte[]> toServer = SimNetwork.plain();
        final SimNetwork<byte[]> toClients = SimNetwork.plain();
        final List<ServerEffect.Execute> running = new ArrayList<>();
        /** History: every call started, and the number of starts when each REJECT was taken. */
        final List<String> executed = new ArrayList<>();
        final Set<String> executedSet = new HashSet<>();
        final Map<String, Integer> rejectedAt = new HashMap<>();
        final List<String> violations = new ArrayList<>();
        int replies;
        /** RPC.tla's processes: the server and each client (StepLog.OFF unless {@link #logSteps}). */
        StepLog serverLog = StepLog.OFF;
        final Map<ConnId, StepLog> clientLogs = new HashMap<>();

        World(long seed, boolean lossy) {
            this(seed, lossy, false);
        }

        /** @param reexecuting a core without Fig. 3-1's "if state is REPLYING, retransmit stored reply" */
        World(long seed, boolean lossy, boolean reexecuting) {
            random = new SplittableRandom(seed);
            ScmpConfig config = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, 200, 5, RHO);
            server = !reexecuting ? new RpcServerCore(config, serverClock, storage, KAPPA)
                    : new RpcServerCore(config, serverClock, storage, KAPPA) {
                        @Override
                        protected ServerStep duplicateWhileReplying(ConnId conn, ServerEntry e, RpcMessage.Call full) {
                            return full == null ? super.duplicateWhileReplying(conn, e, full) : startComputing(full);
                        }
                    };
            for (ConnId c : CONNS) {
                long s = lossy ? random.nextLong(-10, 11) : 0;
                skew.put(c, s);
                ManualInstantSource k = new ManualInstantSource(1_000 + s);
                clientClocks.put(c, k);
                clients.put(c, new RpcClientCore(c, k, new RetryPolicy(7, 4)));
            }
        }

        /** Logs from now on; the server's first line is its Init at the current clock (RPC.tla's time 0). */
        World logSteps(StepLog server, Map<ConnId, StepLog> clients) {
            serverLog = server;
            clientLogs.putAll(clients);
            serverLog.step("Init").field("clock", serverClock.millis()).end();
            return this;
        }

        /** A datagram reaches the server: RPC.tla ReceiveCall or ReceiveReplyAck, then its effects. */
        void serverReceives(RpcMessage m) {
            boolean hadEntry = server.state().rpc().containsKey(m.conn().value());
            ServerStep step = server.receive(m);
            if (serverLog.on()) {
                if (m instanceof RpcMessage.Call || m instanceof RpcMessage.TruncatedCall) {
                    StepLog l = serverLog.step("ReceiveCall").field("conn", m.conn().value()).field("ts", m.ts().value())
                            .field("truncated", m instanceof RpcMessage.TruncatedCall)
                            .field("outcome", step.outcome().specName());
                    if (step.outcome() == ServerOutcome.EXECUTE) {
                        l.field("ct", m.conn().value(), m.ts().value());
                    }
                    l.field("clock", serverClock.millis()).end();
                } else if (m instanceof RpcMessage.ReplyAck && hadEntry) {
                    serverLog.step("ReceiveReplyAck").field("conn", m.conn().value()).field("ts", m.ts().value())
                            .field("outcome", step.outcome() == ServerOutcome.IDLE ? "idle" : "ignore")
                            .field("clock", serverClock.millis()).end();
                }
            }
            serverEffects(step);
        }

        /** RPC.tla WriteLatest (when latest moved), then CollectGarbage of each entry that went. */
        void writeLatestAndCollect() {
            long stable = server.state().scmp().stableLatest();
            server.writeLatest();
            ScmpState s = server.state().scmp();
            if (serverLog.on() && s.stableLatest() != stable) {
                serverLog.step("WriteLatest").field("clock", serverClock.millis()).field("latest", s.latest())
                        .field("stableLatest", s.stableLatest()).end();
            }
            for (ConnId c : CONNS) {
                if (server.state().rpc().containsKey(c.value()) && server.collectGarbage(c) && serverLog.on()) {
                    String k = ScmpConfig.DEFAULT_CLASS;
                    serverLog.step("CollectGarbage").field("conn", c.value()).field("clock", serverClock.millis())
                            .field("upper", k, server.state().scmp().upper().get(k)).end();
                }
            }
        }

        void crash() {
            server.crash();
            running.clear(); // the computations die with the process
            if (serverLog.on()) {
                serverLog.step("Crash").end();
            }
        }

        void recover() {
            server.recover();
            if (serverLog.on()) {
                ScmpState s = server.state().scmp();
                serverLog.step("Recover").field("clock", serverClock.millis()).longs("upper", s.upper())
                        .field("latest", s.latest()).field("stableLatest", s.stableLatest()).end();
            }
        }

        void tick() {
            serverClock.advance(1);
            clientClocks.forEach((c, k) -> k.set(serverClock.millis() + skew.get(c)));
        }

        void clientSends(ConnId c, ClientStep step) {
            StepLog log = clientLogs.getOrDefault(c, StepLog.OFF);
            if (log.on() && !step.ignored()) {
                RpcClientCore client = clients.get(c);
                log.step(step.action()).field("conn", c.value()).field("ts", client.lastTimestamp());
                switch (step.action()) {
                    case "Call" -> log.field("now", serverClock.millis()); // real time: the client's clock - skew
                    case "Retransmit" -> log.field("truncated", client.state().acked());
                    case "ReceiveAck", "ReceiveReply", "ReceiveReject" -> log.field("accepted", true);
                    default -> { }
                }
                log.end();
            }
            for (ClientEffect e : step.effects()) {
                if (e instanceof ClientEffect.Send s) {
                    toServer.send(RpcEncoder.encode(s.message()), serverClock.millis());
                } else if (e instanceof ClientEffect.Complete done) {
                    String id = c + "/" + done.ts();
                    switch (done.outcome()) {
                        case REPLIED -> {
                            replies++;
                            if (!done.reply().orElseThrow().equals(resultOf(c, done.ts().value()))) {
                                violations.add("client " + c + " took " + done.reply() + " for call " + id);
                            }
                            if (!executedSet.contains(id)) {
                                violations.add("reply for " + id + " which never ran");
                            }
                        }
                        case REJECTED_AS_DUPLICATE -> rejectedAt.put(id, executed.size());
                        default -> { }
                    }
                }
            }
        }

        void serverEffects(ServerStep step) {
            for (ServerEffect e : step.effects()) {
                if (e instanceof ServerEffect.Send s) {
                    toClients.send(RpcEncoder.encode(s.message()), serverClock.millis());
                } else if (e instanceof ServerEffect.Execute x) {
                    String id = x.conn() + "/" + x.ts();
                    if (!executedSet.add(id)) {
                        violations.add("call " + id + " started twice");
                    }
                    if (rejectedAt.containsKey(id)) {
                        violations.add("call " + id + " started after the client was told REJECT");
                    }
                    executed.add(id);
                    running.add(x);
                }
            }
        }

        static RpcMessage decode(byte[] b) {
            return ((DecodeResult.Decoded) RpcDecoder.decode(b)).message();
        }

        /** Takes a datagram at random; with duplication on, it may stay for a later copy. */
        byte[] take(SimNetwork<byte[]> queue, boolean dup) {
            int i = random.nextInt(queue.size());
            return queue.take(i, dup && random.nextInt(3) == 0).orElseThrow();
        }

        static Payload resultOf(ConnId c, long ts) {
            return Payload.ofUtf8("result of " + c + "/" + ts);
        }

        void complete(int i) {
            ServerEffect.Execute x = running.remove(i);
            boolean hadEntry = server.state().rpc().containsKey(x.conn().value());
            ServerStep step = server.complete(x.conn(), x.ts(), resultOf(x.conn(), x.ts().value()));
            if (serverLog.on() && hadEntry) {
                serverLog.step("Complete").field("conn", x.conn().value()).field("ts", x.ts().value())
                        .field("outcome", step.outcome() == ServerOutcome.IGNORE ? "ignore" : "reply")
                        .field("clock", serverClock.millis()).end();
            }
            serverEffects(step);
        }
    }

    @Property(tries = 300)
    void noCallRunsTwiceAndClientsTakeOnlyTheirOwnResults(@ForAll long seed) {
        World w = run(new World(seed, true));
        assertThat(w.violations).isEmpty();
    }

    @Property(tries = 1)
    void theSimulationCatchesACoreThatReExecutesInReplying() {
        // The check must be able to fail: over a few seeds the broken core runs some call twice.
        List<String> found = new ArrayList<>();
        for (long seed = 1; seed <= 20; seed++) {
            found.addAll(run(new World(seed, true, true)).violations);
        }
        assertThat(found).anyMatch(v -> v.contains("started twice"));
    }

    @Property(tries = 1)
    void theSchedulesReachRepliesRejectionsAndCrashes() {
        int replies = 0;
        int rejected = 0;
        int started = 0;
        for (long seed = 1; seed <= 20; seed++) {
            World w = run(new World(seed, true));
            replies += w.replies;
            rejected += w.rejectedAt.size();
            started += w.executed.size();
        }
        assertThat(replies).isPositive();
        assertThat(rejected).isPositive();
        assertThat(started).isGreaterThan(replies);
    }

    static World run(World w) {
        return run(w, 600);
    }

    /** {@code steps} steps of the schedule the seed gives (the properties take 600). */
    static World run(World w, int steps) {
        for (int step = 0; step < steps; step++) {
            int r = w.random.nextInt(100);
            ConnId c = CONNS[w.random.nextInt(CONNS.length)];
            RpcClientCore client = w.clients.get(c);
            if (r < 10) {
                if (client.outstanding().isEmpty()) {
                    w.clientSends(c, client.call(Payload.ofUtf8("args")));
                }
            } else if (r < 30) {
                w.tick();
            } else if (r < 40) {
                w.clientSends(c, client.timerExpired());
            } else if (r < 60 && !w.toServer.isEmpty()) {
                RpcMessage m = World.decode(w.take(w.toServer, true));
                if (w.server.isUp()) {
                    w.serverReceives(m);
                }
            } else if (r < 75 && !w.toClients.isEmpty()) {
                RpcMessage m = World.decode(w.take(w.toClients, true));
                w.clientSends(m.conn(), w.clients.get(m.conn()).receive(m));
            } else if (r < 85 && !w.running.isEmpty()) {
                w.complete(w.random.nextInt(w.running.size()));
            } else if (r < 90) {
                // the network loses a datagram
                SimNetwork<byte[]> q = w.random.nextBoolean() ? w.toServer : w.toClients;
                if (!q.isEmpty()) {
                    q.lose(w.random.nextInt(q.size()));
                }
            } else if (r < 95 && w.server.isUp()) {
                w.writeLatestAndCollect();
            } else if (r < 97 && w.server.isUp()) {
                w.crash();
            } else if (!w.server.isUp()) {
                w.recover();
            }
        }
        return w;
    }

    @Property(tries = 200)
    void withoutLossCrashOrTimeoutEveryCallGetsItsReply(@ForAll long seed) {
        // 3.1: "a client can depend on the protocol to deliver the call ... we guarantee to deliver
        // the reply". Datagrams are delivered once each, in random order; nothing times out.
        World w = new World(seed, false);
        int calls = 0;
        for (ConnId c : CONNS) {
            w.clientSends(c, w.clients.get(c).call(Payload.ofUtf8("args")));
            calls++;
        }
        while (!w.toServer.isEmpty() || !w.toClients.isEmpty() || !w.running.isEmpty()) {
            int r = w.random.nextInt(3);
            if (r == 0 && !w.toServer.isEmpty()) {
                w.serverEffects(w.server.receive(World.decode(w.take(w.toServer, false))));
            } else if (r == 1 && !w.toClients.isEmpty()) {
                RpcMessage m = World.decode(w.take(w.toClients, false));
                w.clientSends(m.conn(), w.clients.get(m.conn()).receive(m));
            } else if (r == 2 && !w.running.isEmpty()) {
                w.complete(w.random.nextInt(w.running.size()));
            }
        }
        assertThat(w.violations).isEmpty();
        assertThat(w.replies).isEqualTo(calls);
        for (RpcClientCore client : w.clients.values()) {
            assertThat(client.state().outcome()).isEqualTo(CallOutcome.REPLIED);
        }
        assertThat(w.server.state().rpc().values()).allMatch(e -> e.state() == EntryState.IDLE);
    }
}
