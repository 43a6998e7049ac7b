package dev.onceproof.bench.history;

import dev.onceproof.exactlyonce.ClientCore;
import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientStep;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.EoServer;
import dev.onceproof.exactlyonce.GatherDurableState;
import dev.onceproof.exactlyonce.GatherServer;
import dev.onceproof.exactlyonce.ManualEoClock;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.S3Client;
import dev.onceproof.exactlyonce.S3Server;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.StrategyConfig;
import dev.onceproof.exactlyonce.Verdict;
import dev.onceproof.exactlyonce.store.GatherServerStore;
import dev.onceproof.exactlyonce.store.ServerStore;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Issue 19 item 5's per-note loop on the real cores of one strategy, no I/O: servers A and B, one
 * client connected to A. Each note is created at A (its replica, and Strategy 3's replication round,
 * carried to B), sent to the client, acknowledged (Strategy 3: then authorized, purged at the client
 * and confirmed), and every {@code syncEvery} notes A and B synchronize. Strategy 4's client also
 * ends the session and reconnects at every sync point, which runs the gather and A's purge at
 * EndGather (A.6); the syncs that follow carry that purge to B (L213: received through the step
 * interface, {@code GatherServer.recvPeerSync}, they purge as well as merge).
 *
 * <p>Messages go through a FIFO queue, held back until the records of the steps that sent them are
 * committed; a Record effect is counted, and handed to the loop's {@link Durability} (none here: the
 * core only; {@link DurableNotes} journals them). The time of
 * a note is from its creation until every message it caused has been handled, the sync it triggers
 * included, so the mean carries the syncs' cost and the median the common note's.
 *
 * <p>The loop checks what it measures: every note created is processed by the client exactly once
 * and no delivery is refused (a duplicate, or Strategy 3's R full), or the run fails. So Strategy 3's
 * R must hold the notes between two syncs: its purges wait for the sync that confirms them.
 */
final class NoteCostLoop {

    /** The cost of the notes of one block, notes ({@code from}, {@code upTo}]. */
    record Block(long from, long upTo, double medianMicros, double meanMicros, double p99Micros,
            long durableBytesA, int kAtA, long durableBytesB, int kAtB, long jitMillis) {
    }

    /** What one strategy's run reached; {@code stopped} says why it ended before the last block. */
    record Result(String strategy, List<Block> blocks, long notes, Optional<String> stopped, double seconds,
            long records) {
    }

    private static final ServerId A = ServerId.of("A");
    private static final ServerId B = ServerId.of("B");
    private static final ClientId C = ClientId.of("c");

    /**
     * What happens to a server's records (a {@link ServerEffect.Record} or
     * {@link ServerEffect.RecordGather}). {@link #record} hands one over as its step is taken
     * ({@code core} is the server that made it, in its state after the step); {@link #commit}
     * must return only once every record handed over is durable. The loop holds back every message
     * a step sends (and every aDeliver call) until the commit after it: that is the protocol's
     * durability point (a server's step is on disk before anything it caused leaves the server).
     * Steps taken between two commits share the commit, as a server's event loop would: none of
     * them has let anything out, so a crash before the commit loses inputs, never an effect.
     */
    interface Durability {
        Durability NONE = new Durability() {
            @Override
            public void record(ServerId at, ServerEffect record, EoServer core) {
            }

            @Override
            public void commit() {
            }
        };

        void record(ServerId at, ServerEffect record, EoServer core);

        void commit();
    }

    /** Sees every message as it is sent (held) and as it arrives; tests check the durability point with it. */
    interface Wire {
        Wire NONE = new Wire() {
        };

        default void sent(EoMessage m) {
        }

        default void arrived(EoMessage m) {
        }
    }

    private final Strategy strategy;
    private final int syncEvery;
    private final ManualEoClock clock = new ManualEoClock(0);
    private final EoServer a;
    private final EoServer b;
    /** Every server by name: A (the client's), B, and any more. */
    private final java.util.Map<ServerId, EoServer> servers = new java.util.TreeMap<>();
    private final Durability durability;
    private final ClientCore client;
    /** Messages sent by steps whose records are not committed yet: they leave at the next commit. */
    private ArrayDeque<EoMessage> held = new ArrayDeque<>();
    private Wire wire = Wire.NONE;
    /** Strategy 3: notes the client took whose purge is not authorized yet, in delivery order. */
    private final Set<NoteId> unpurged = new LinkedHashSet<>();
    private long session;
    private long accepted;
    private long refused;
    private long records;

    NoteCostLoop(Strategy strategy, int syncEvery, int q) {
        this(strategy, syncEvery, q, 2, Durability.NONE);
    }

    /** Watches the messages (tests). */
    NoteCostLoop wire(Wire w) {
        this.wire = w;
        return this;
    }

    /** With {@code n} servers (A, B, C, ...; the client is A's) and each record given to {@code durability}. */
    NoteCostLoop(Strategy strategy, int syncEvery, int q, int n, Durability durability) {
        if (n < 2 || n > 26) {
            throw new IllegalArgumentException("servers: " + n + ", between 2 and 26");
        }
        this.strategy = strategy;
        this.syncEvery = syncEvery;
        this.durability = durability;
        TreeSet<ServerId> names = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            names.add(ServerId.of(String.valueOf((char) ('A' + i))));
        }
        // Strategy 2's window: Condition 1 confirms a number at the sync after its note, so W must
        // exceed the notes between syncs (the successor of the next number was used W - 1 notes ago).
        StrategyConfig config = strategy.config(C, names, 0).q(q).w(2 * syncEvery + 2);
        for (ServerId s : names) {
            servers.put(s, config.server(s, clock, strategy.initialState()));
        }
        a = servers.get(A);
        b = servers.get(B);
        client = config.client(clock, StrategyConfig.ClientMemory.fresh());
        connect();
    }

    /**
     * Runs notes 1, 2, ... up to the last boundary, closing a block at each boundary, until the
     * wall-clock budget is spent (then the run stops after the note in progress and says so).
     */
    Result run(long[] boundaries, double budgetSeconds) {
        List<Block> blocks = new ArrayList<>();
        long start = System.nanoTime();
        long deadline = start + (long) (budgetSeconds * 1e9);
        long note = 0;
        Optional<String> stopped = Optional.empty();
        outer:
        for (long upTo : boundaries) {
            long from = note;
            jitFrom = jitMillis();
            double[] micros = new double[(int) (upTo - from)];
            for (int j = 0; j < micros.length; j++) {
                long t0 = System.nanoTime();
                try {
                    oneNote(note + 1);
                } catch (RuntimeException e) {
                    stopped = Optional.of("note " + (note + 1) + ": " + e.getClass().getSimpleName() + ": "
                            + e.getMessage());
                    partial(blocks, from, note, micros);
                    break outer;
                }
                long t1 = System.nanoTime();
                micros[j] = (t1 - t0) / 1e3;
                note++;
                if (t1 > deadline && note < boundaries[boundaries.length - 1]) {
                    stopped = Optional.of("time budget of " + budgetSeconds + " s spent after note " + note);
                    if (note < upTo) {
                        partial(blocks, from, note, micros);
                        break outer;
                    }
                }
            }
            blocks.add(block(from, upTo, micros));
            if (stopped.isPresent()) {
                break;
            }
        }
        check(stopped.isPresent() && stopped.get().startsWith("note ") ? note + 1 : note, note, stopped);
        return new Result(strategy.name(), blocks, note, stopped, (System.nanoTime() - start) / 1e9, records);
    }

    /**
     * Runs notes 1, 2, ... until {@code deadline} ({@link System#nanoTime()}), at least one, then
     * checks that the protocol ran (every note processed once); returns how many notes were delivered.
     */
    long runUntil(long deadline) {
        return runUntil(deadline, 1);
    }

    /**
     * As {@link #runUntil(long)}, with {@code inFlight} notes created together and carried through
     * the protocol together (their records share each commit); {@code inFlight} must divide the
     * sync interval, so the syncs fall where they fall with one note at a time.
     */
    long runUntil(long deadline, int inFlight) {
        return drive(inFlight, note -> System.nanoTime() < deadline);
    }

    /** Runs {@code notes} notes (a multiple of {@code inFlight}), {@code inFlight} at a time; once per loop. */
    long runNotes(long notes, int inFlight) {
        if (notes % inFlight != 0) {
            throw new IllegalArgumentException(notes + " notes do not make batches of " + inFlight);
        }
        return drive(inFlight, note -> note < notes);
    }

    private long drive(int inFlight, java.util.function.LongPredicate more) {
        if (inFlight < 1 || syncEvery % inFlight != 0) {
            throw new IllegalArgumentException("notes in flight: " + inFlight + ", must be positive and divide the"
                    + " sync interval " + syncEvery);
        }
        long note = 0;
        do {
            notes(note + 1, inFlight);
            note += inFlight;
        } while (more.test(note));
        check(note, note, Optional.empty());
        return note;
    }

    /** The notes of a block the run stopped in, as a block of their own (none if there were none). */
    private void partial(List<Block> blocks, long from, long note, double[] micros) {
        if (note > from) {
            blocks.add(block(from, note, java.util.Arrays.copyOf(micros, (int) (note - from))));
        }
    }

    /**
     * The JIT compilers' time so far (ms, the JVM's own count; -1 where it keeps none): a block
     * during which it grows was partly measuring the compiler, not the core.
     */
    static long jitMillis() {
        java.lang.management.CompilationMXBean c = java.lang.management.ManagementFactory.getCompilationMXBean();
        return c != null && c.isCompilationTimeMonitoringSupported() ? c.getTotalCompilationTime() : -1;
    }

    private long jitFrom;

    private Block block(long from, long upTo, double[] micros) {
        double[] sorted = micros.clone();
        java.util.Arrays.sort(sorted);
        double mean = java.util.Arrays.stream(micros).average().orElse(Double.NaN);
        return new Block(from, upTo, NoteCostCommand.median(micros), mean,
                sorted[Math.min(sorted.length - 1, (int) Math.ceil(sorted.length * 0.99) - 1)], durableBytes(a), kOf(a),
                durableBytes(b), kOf(b), jitMillis() - jitFrom);
    }

    /** Every note created was processed once, no note twice: what the loop measures is the protocol working. */
    private void check(long atMost, long notes, Optional<String> stopped) {
        if (refused > 0 || accepted < notes || accepted > atMost) {
            throw new IllegalStateException(strategy + ": the client processed " + accepted + " of " + notes
                    + " notes and refused " + refused + " deliveries; the loop is not running the protocol"
                    + stopped.map(w -> " (stopped: " + w + ")").orElse(""));
        }
    }

    private void oneNote(long n) {
        notes(n, 1);
    }

    /** Notes {@code first .. first + k - 1}: created, delivered, acknowledged (purged), then a sync if due. */
    private void notes(long first, int k) {
        for (long n = first; n < first + k; n++) {
            clock.advance(1);
            Optional<NoteId> id = strategy.numbersNotes() ? Optional.empty()
                    : Optional.of(NoteId.global(noteName(n)));
            effects(A, a.createNote(id, "note"));
        }
        pump();
        if (strategy.gathers()) {
            deliverGathered();
        } else {
            // One Deliver outstanding per session (the spec's SendNote): the notes go one by one.
            for (ServerStep s = a.deliverNext(); !s.outcome().equals("idle"); s = a.deliverNext()) {
                if (s.outcome().equals("busy") || s.outcome().equals("refused")) {
                    throw new IllegalStateException(strategy + " server A did not deliver: " + s.outcome());
                }
                effects(A, s);
                pump();
            }
            purge();
        }
        long n = first + k - 1;
        if (n % syncEvery == 0) {
            if (strategy.gathers()) {
                effects(A, a.endSession());
                client.disconnect();
                connect();
            }
            servers.forEach((name, s) -> effects(name, s.sync()));
            pump();
            purge();
        }
        durability.commit(); // the notes are counted once their last records are durable
    }

    /**
     * Note n's id as {@code String.format("n%09d", n)} writes it, without the formatter: under JFR the
     * formatter took a sixth of the S3 loop's samples, inside the timed region, and it is the
     * loop's cost, not the core's.
     */
    static String noteName(long n) {
        String digits = Long.toString(n);
        return digits.length() >= 9 ? "n" + digits : "n" + "000000000".substring(digits.length()) + digits;
    }

    /**
     * Strategy 3: authorize every purge the core allows, each carried to the client and confirmed.
     * The spec's {@code Authorize(s, i)} is enabled for each note on its own, so every note the
     * core allows now is authorized before the requests go out together: their acknowledgements'
     * records then share a commit, where one request at a time made a commit per note.
     */
    private void purge() {
        if (strategy != Strategy.S3) {
            return;
        }
        for (ServerStep s = a.authorize(); !s.outcome().equals("none"); s = a.authorize()) {
            effects(A, s);
            Set<NoteId> asked = new HashSet<>();
            for (ServerEffect e : s.effects()) {
                if (e instanceof ServerEffect.Send send && send.message() instanceof EoMessage.PurgeRequest p) {
                    asked.add(p.id());
                }
            }
            if (a instanceof S3Server s3) {
                for (NoteId i : unpurged) {
                    if (!asked.contains(i)) {
                        ServerStep t = s3.authorize(i);
                        if (t.outcome().equals("authorized")) {
                            effects(A, t);
                            asked.add(i);
                        }
                    }
                }
            }
            unpurged.removeAll(asked);
            pump();
        }
    }

    private void connect() {
        client.connect(A);
        effects(A, a.startSession());
        if (a instanceof GatherServer g) {
            session = g.session();
            effects(A, g.reqAll());
            pump();
            effects(A, g.endGather());
            pump();
        }
    }

    /** Strategy 4-6: the next aDeliver calls until none is left (each answered by the client's ack). */
    private void deliverGathered() {
        GatherServer g = (GatherServer) a;
        if (g.phase() != GatherServer.Phase.DELIVER) {
            throw new IllegalStateException(strategy + " server A is not delivering: " + g.phase());
        }
        for (ServerStep s = g.aDeliverNext(); !s.outcome().equals("idle"); s = g.aDeliverNext()) {
            if (s.outcome().equals("refused")) {
                throw new IllegalStateException(strategy + " server A refused the next aDeliver");
            }
            effects(A, s);
            pump();
        }
    }

    /**
     * Commits the records of the steps taken so far, then lets their messages go, in waves until
     * none is left: the messages of a wave are handled (their steps' records handed over, their
     * sends held), then one commit, then the next wave. In the order of one FIFO queue. A record
     * nothing has left after (an acknowledgement's, say) waits for the next commit: no message
     * depends on it yet, and a crash before then is a crash before that step.
     */
    private void pump() {
        while (!held.isEmpty()) {
            durability.commit();
            ArrayDeque<EoMessage> wave = held;
            held = new ArrayDeque<>();
            for (EoMessage m = wave.poll(); m != null; m = wave.poll()) {
                wire.arrived(m);
                deliver(m);
            }
        }
    }

    private void send(EoMessage m) {
        wire.sent(m);
        held.add(m);
    }

    private void deliver(EoMessage m) {
        if (m instanceof EoMessage.NoteDelivery d) {
            ClientStep s = client.receiveNote(d);
            if (s.verdict() == Verdict.ACCEPTED) {
                accepted++;
                if (strategy == Strategy.S3) {
                    unpurged.add(d.note().id());
                }
            } else {
                refused++;
            }
            clientEffects(s.effects());
        } else if (m instanceof EoMessage.PurgeRequest p) {
            clientEffects(((S3Client) client).receivePurge(p).effects());
        } else if (m instanceof EoMessage.NoteAck ack && a instanceof GatherServer g) {
            effects(A, g.aDeliverOk(session, ack.id()));
        } else {
            ServerId to = to(m);
            effects(to, servers.get(to).receive(m));
        }
    }

    private void clientEffects(List<ClientEffect> effects) {
        for (ClientEffect e : effects) {
            if (e instanceof ClientEffect.Send s) {
                send(s.message());
            } else {
                records++;
            }
        }
    }

    private void effects(ServerId from, ServerStep step) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send s) {
                send(s.message());
            } else if (e instanceof ServerEffect.ADeliver call) {
                send(new EoMessage.NoteDelivery(from, C, call.note()));
            } else {
                records++;
                durability.record(from, e, servers.get(from));
            }
        }
    }

    private static ServerId to(EoMessage m) {
        if (m instanceof EoMessage.NoteAck x) {
            return x.to();
        } else if (m instanceof EoMessage.PurgeAck x) {
            return x.to();
        } else if (m instanceof EoMessage.Replica x) {
            return x.to();
        } else if (m instanceof EoMessage.ReplicaAck x) {
            return x.to();
        } else if (m instanceof EoMessage.ReplicaCommit x) {
            return x.to();
        } else if (m instanceof EoMessage.SyncRequest x) {
            return x.to();
        } else if (m instanceof EoMessage.SyncReply x) {
            return x.to();
        } else if (m instanceof EoMessage.DRequest x) {
            return x.to();
        } else if (m instanceof EoMessage.DReply x) {
            return x.to();
        } else if (m instanceof EoMessage.DSync x) {
            return x.to();
        }
        throw new IllegalStateException("no route for " + m.getClass().getSimpleName());
    }

    /** Bytes of a server's durable state as its store writes it (the checkpoint's payload). */
    private static long durableBytes(EoServer server) {
        if (server.durable() instanceof GatherDurableState g) {
            return GatherServerStore.CODEC.encodeCheckpoint(g).length;
        }
        return ServerStore.codec().encodeCheckpoint((ServerDurableState) server.durable()).length;
    }

    private static int kOf(EoServer server) {
        if (server.durable() instanceof GatherDurableState g) {
            return g.k().size();
        }
        return ((ServerDurableState) server.durable()).k().size();
    }
}
