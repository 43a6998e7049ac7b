package dev.onceproof.conformance.crash.gather;

import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.GatherServer;
import dev.onceproof.exactlyonce.InvalidMessageException;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.Replication;
import dev.onceproof.exactlyonce.S4Server;
import dev.onceproof.exactlyonce.S5Server;
import dev.onceproof.exactlyonce.S6Server;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.StrategyConfig;
import dev.onceproof.exactlyonce.store.GatherServerStore;
import dev.onceproof.storage.Journal;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One Strategy 4-6 server as its own JVM, for the crash test: the core ({@link S4Server},
 * {@link S5Server} or {@link S6Server}) inside the runtime class {@link ConcurrentGatherServer},
 * over a {@link GatherServerStore} on a {@link Journal} (group commit, checkpoints), with the
 * aDeliver primitive's application and permanent log in a {@link ProcessedJournal} beside it. One
 * thread drives it: an event loop over the lines the parent writes, a gather timeout, the periodic
 * sync (Strategy 5's PeriodicSync every T_u; Strategies 4 and 6 the purge sync of L213 every
 * {@code --purge-sync-every} ticks, Strategy 6 also when there is news, L246), and one aDeliver call
 * per turn while the session delivers (so a peer's D request is answered between two calls, never
 * during one). A peer's sync is handled as the core's step interface handles it
 * ({@link GatherServer#recvPeerSync}: merged and purged), so K and D stay bounded (issue 19 item 1;
 * measured under Strategy 6 with push syncs alone: K = 120 of 180 notes after a run).
 *
 * <p><b>Restart.</b> The store is loaded; every attempt the core's aDeliver log holds unresolved
 * (the server was killed between logging the attempt and logging its outcome) is resolved from the
 * journal: processed there means success ({@code aDeliverOk}), else error ({@code aDeliverErr},
 * rho = 0, so the note may be tried again, L191). Only then does the server print {@code ready}.
 *
 * <p><b>Lines in</b> (from the parent, which plays the network and relays the client's requests):
 * {@code NOTE <id>} (create a note here; replicas go out), {@code RECV <b64>} (a message from a peer:
 * Replica, DRequest, DReply, DSync), {@code CONNECT <b64 HistoryUpload | ->} (the client asks for its
 * notes: StartSession), {@code DISCONNECT} (the client left; Strategy 6 then pushes a sync).
 * <b>Lines out:</b> {@code ready}, {@code RESOLVED <id> ok|err}, {@code SEND <server> <b64>},
 * {@code STORED <id>}, {@code SESSION <sid> <pulls>}, {@code DELIVERING <sid>}, {@code CALL <id> <sid>}
 * (before the primitive is called), {@code DELIVERED <id> <sid>} (after the success is durable: the
 * acknowledgement), {@code ABORT gather|adeliver <sid>}, {@code IDLE <sid>}, {@code ENDED}.
 *
 * <p><b>Step log</b> ({@code --step-log FILE --incarnation N}, Strategy 4): the incarnation's steps as
 * ExactlyOnceS4Msg's actions ({@link GatherStepLog}: a line under the server's lock before the step's
 * record, ServerRecover first), for trace validation of the run (TraceExactlyOnceS4.tla). Strategies 5
 * and 6 ({@code --unit MS --epoch MS --offsets A:0,B:1,C:2}, times in units): the core runs on a
 * {@link Wire.UnitClock} read once per step, its lines are ExactlyOnceS5Msg's or S6Msg's and carry
 * the reading (TraceExactlyOnceS5.tla, S6), and a round of syncs is one step to every peer (the
 * core's periodicSync; Strategy 6's pushSync only on the parent's {@code PUSH}, answered
 * {@code PUSHED}, and at a restart before {@code ready}: the spec pushes only while the client is
 * away; no periodic purge sync).
 *
 * <p>Controls (each removes one safeguard, so the test can show its check fails without it):
 * {@code --control after-call} is {@link ConcurrentGatherServer.AttemptLog#AFTER_CALL} (the call
 * before the attempt is logged: mutant M4-d, the outcome and the D update split);
 * {@code --control resolve-as-error} restarts without reading the journal (every unresolved attempt
 * is taken for an error, as if the primitive had no permanent log).
 */
public final class GatherNodeMain {

    static final List<String> FLAGS = List.of("--strategy", "--self", "--servers", "--dir", "--seed", "--tr", "--tu",
            "--skew", "--te", "--gather-timeout", "--error-percent", "--ack-delay", "--control",
            "--purge-sync-every", "--step-log", "--incarnation", "--unit", "--epoch", "--offsets");

    private final GatherServer core;
    private final ConcurrentGatherServer server;
    private final ProcessedJournal journal;
    private final Wire.Clock clock;
    private final PrintStream out;
    private final SplittableRandom random;
    private final int errorPercent;
    private final long gatherTimeout;
    /** T_u in ms, for the node's timer (the core's T_u is in its clock's units). */
    private final long tu;
    private final long ackDelay;
    private final long purgeSyncEvery;
    /** Strategies 5-6 in spec time (--unit): syncs as the spec's PeriodicSync / PushSync rounds. */
    private boolean specTime;
    /** The step log (issue 21), {@link GatherStepLog#OFF} unless {@code --step-log}. */
    private GatherStepLog steps = GatherStepLog.OFF;

    private long gatherDeadline = Long.MAX_VALUE;
    private long nextPeriodic = 0;
    /**
     * Strategies 4 and 6 have no periodic sync of their own; their purge syncs (L213, "periodically")
     * go out this often (clock ticks) unless {@code --purge-sync-every} says otherwise (0: never; the
     * unfinished replication rounds are then resent this often on their own).
     */
    static final long PURGE_SYNC_EVERY = 200;
    private boolean idleReported;

    private GatherNodeMain(GatherServer core, ConcurrentGatherServer server, ProcessedJournal journal,
            Wire.Clock clock, PrintStream out, SplittableRandom random, int errorPercent, long gatherTimeout, long tu,
            long ackDelay, long purgeSyncEvery) {
        this.ackDelay = ackDelay;
        this.purgeSyncEvery = purgeSyncEvery;
        this.core = core;
        this.server = server;
        this.journal = journal;
        this.clock = clock;
        this.out = out;
        this.random = random;
        this.errorPercent = errorPercent;
        this.gatherTimeout = gatherTimeout;
        this.tu = tu;
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> f = Wire.flags(args, FLAGS);
        Strategy strategy = Wire.gatherStrategy(Wire.need(f, "--strategy"));
        ServerId self = ServerId.of(Wire.need(f, "--self"));
        Path dir = Files.createDirectories(Path.of(Wire.need(f, "--dir")));
        String control = f.getOrDefault("--control", "none");
        long te = Long.parseLong(f.getOrDefault("--te", "0"));
        long tu = Long.parseLong(f.getOrDefault("--tu", "1"));
        long tr = Long.parseLong(f.getOrDefault("--tr", "0"));
        long skew = Long.parseLong(f.getOrDefault("--skew", "0"));
        StrategyConfig config = strategy.config(Wire.CLIENT, Wire.servers(Wire.need(f, "--servers")), te)
                .times(tr, tu, skew);
        Wire.Clock clock = new Wire.Clock();
        // Strategies 5-6 with step logs: the core on the unit clock (times in its units), the
        // node's own timers in ms.
        GatherStepLog.Timed timed = null;
        if (f.containsKey("--unit")) {
            if (strategy == Strategy.S4) {
                throw new IllegalArgumentException("--unit: only the Strategy 5 and 6 runs keep spec time, not " + strategy);
            }
            Map<String, Long> offsets = Wire.offsets(Wire.need(f, "--offsets"));
            Long mine = offsets.get(self.name());
            if (mine == null) {
                throw new IllegalArgumentException("--offsets " + f.get("--offsets") + " names no offset for " + self.name());
            }
            timed = new GatherStepLog.Timed(new Wire.UnitClock(Long.parseLong(Wire.need(f, "--epoch")),
                    Long.parseLong(f.get("--unit")), mine), strategy, offsets, tr, skew, te);
        }
        Wire.UnitClock unitClock = timed == null ? null : timed.clock();
        // A small checkpoint floor, so a run of a few hundred notes checkpoints and compacts: the
        // kills land before, during and after checkpoints, and recovery is checkpoint plus journal.
        GatherServerStore store = GatherServerStore.open(dir.resolve("server-journal"),
                new Journal.Options(Journal.Commit.GROUP, 2.0, 4096));
        // A corrupt journal or a state the core refuses stops the server, naming the directory.
        GatherServer core = store.restore(durable -> (GatherServer) config.server(self,
                unitClock == null ? clock::now : unitClock::now, durable));
        ConcurrentGatherServer server = new ConcurrentGatherServer(core, store,
                control.equals("after-call") ? ConcurrentGatherServer.AttemptLog.AFTER_CALL
                        : ConcurrentGatherServer.AttemptLog.BEFORE_CALL);
        ProcessedJournal journal = ProcessedJournal.open(dir.resolve("processed"));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.US_ASCII);
        GatherStepLog steps = GatherStepLog.OFF;
        if (f.containsKey("--step-log")) {
            if (strategy != Strategy.S4 && timed == null) {
                throw new IllegalArgumentException("--step-log: Strategies 5 and 6 write step logs only in spec time "
                        + "(--unit, --epoch, --offsets)");
            }
            steps = GatherStepLog.server(Path.of(f.get("--step-log")), Wire.servers(Wire.need(f, "--servers")).stream()
                    .map(ServerId::name).toList(), Wire.CLIENT.name(), self.name(),
                    Integer.parseInt(Wire.need(f, "--incarnation")), core, server, timed);
        }
        // A restart: the outcome of every call in progress at the kill comes from the primitive's log.
        SortedMap<NoteId, Long> unresolved = core.unresolved();
        List<String> inJournal = new ArrayList<>();
        List<String> notInJournal = new ArrayList<>();
        for (var e : unresolved.entrySet()) {
            boolean held = journal.contains(e.getKey().text());
            (held ? inJournal : notInJournal).add(e.getKey().text());
            boolean processed = !control.equals("resolve-as-error") && held;
            if (processed) {
                server.aDeliverOk(e.getValue(), e.getKey());
            } else {
                server.aDeliverErr(e.getValue(), e.getKey());
            }
            out.println("RESOLVED " + e.getKey().text() + (processed ? " ok" : " err"));
        }
        // The journal's own answer, not the (possibly broken) core's: which open calls processed.
        steps.recover(inJournal, notInJournal);
        long seed = Long.parseLong(f.getOrDefault("--seed", "1"));
        GatherNodeMain node = new GatherNodeMain(core, server, journal, clock, out, new SplittableRandom(seed),
                Integer.parseInt(f.getOrDefault("--error-percent", "0")),
                Long.parseLong(f.getOrDefault("--gather-timeout", "500")), unitClock == null ? tu : tu * unitClock.unit(),
                Long.parseLong(f.getOrDefault("--ack-delay", "0")),
                Long.parseLong(f.getOrDefault("--purge-sync-every", String.valueOf(PURGE_SYNC_EVERY))));
        node.steps = steps;
        node.specTime = timed != null;
        if (strategy == Strategy.S6 && node.specTime) {
            // In spec time the restart's push goes out before "ready": the spec's PushSync needs the
            // client away from us, and no client can connect to us before ready (S6Msg's PushSyncM).
            node.syncAll();
        }
        out.println("ready");
        out.flush();
        if (strategy == Strategy.S6 && !node.specTime) {
            node.syncAll(); // a restart may have resolved outcomes: news for the others (S6Server.crash)
        }
        node.loop();
    }

    private void loop() throws Exception {
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                }
            } catch (Exception e) {
                // the parent went away: stop as at end of input
            }
            lines.add("EOF");
        }, "stdin");
        reader.setDaemon(true);
        reader.start();
        while (true) {
            boolean delivering = core.phase() == GatherServer.Phase.DELIVER && !idleReported;
            long wait = delivering ? 0 : Math.max(1, Math.min(gatherDeadline, nextTimer()) - clock.now());
            String line = delivering ? lines.poll() : lines.poll(Math.min(wait, 50), TimeUnit.MILLISECONDS);
            if (line != null) {
                if (line.equals("EOF")) {
                    out.flush();
                    journal.close();
                    return;
                }
                try {
                    handle(line);
                } catch (InvalidMessageException e) {
                    System.err.println("gather node: refused a message (" + e.getMessage() + "); no state changed");
                }
            }
            timers();
            if (core.phase() == GatherServer.Phase.DELIVER && !idleReported) {
                deliverOne();
            }
            out.flush();
        }
    }

    private long nextTimer() {
        return nextPeriodic;
    }

    private void handle(String line) throws InterruptedException {
        String[] f = line.split(" ");
        switch (f[0]) {
            case "NOTE" -> {
                send(steps.taking(steps.note("CreateNote", f[1]), () -> server.createNote(NoteId.global(f[1]), "")));
                out.println("STORED " + f[1]);
                idleReported = false;
            }
            case "RECV" -> receive(Wire.decode(f[1]));
            case "CONNECT" -> connect(f[1]);
            case "DISCONNECT" -> {
                steps.taking(null, server::endSession); // the spec's session stays, dead: no line
                gatherDeadline = Long.MAX_VALUE;
                out.println("ENDED");
                if (core.config().strategy() == Strategy.S6 && !specTime) {
                    syncAll(); // PushSync: a session ended, there is news (L246)
                }
            }
            case "PUSH" -> {
                // Strategy 6 in spec time: the parent says the client's side of the connection is over
                // too (its Disconnect, or its restart after a kill), so the spec's PushSync is enabled.
                syncAll();
                out.println("PUSHED");
            }
            default -> System.err.println("gather node: ignoring line \"" + line + "\"");
        }
    }

    private void receive(EoMessage m) throws InterruptedException {
        if (m instanceof EoMessage.Replica r) {
            // stored; the ack goes back to the origin (replication round)
            send(steps.taking(steps.when("stored", steps.note("StoreReplica", r.note().id().text())),
                    () -> server.receiveReplica(r)));
            out.println("STORED " + r.note().id().text());
            idleReported = false;
        } else if (Replication.isRound(m)) {
            // an ack at the origin (its commit goes out) or a commit: no step of the spec (atomic replication)
            send(steps.taking(null, () -> server.receive(m)));
            idleReported = false;
        } else if (m instanceof EoMessage.DRequest q) {
            send(steps.taking(steps.reply(), () -> server.replyD(q)));
        } else if (m instanceof EoMessage.DReply r) {
            if (steps.taking(steps.recvD(r), () -> server.recvD(r)).outcome().equals("merged")) {
                tryEndGather();
            }
        } else if (m instanceof EoMessage.DSync s) {
            // merged and purged (GatherServer.recvPeerSync); nothing to send
            steps.taking(core.config().strategy() != Strategy.S4 ? steps.recvPeerSync(s) : steps.recvPurgeSync(s),
                    () -> server.receive(s));
        } else {
            System.err.println("gather node: ignoring a " + m.getClass().getSimpleName());
        }
    }

    private void connect(String upload) throws InterruptedException {
        ServerStep started = steps.taking(steps.startSession(),
                () -> upload.equals("-") ? server.startSession()
                        : server.startSession((EoMessage.HistoryUpload) Wire.decode(upload)));
        if (!started.outcome().equals("started")) {
            return;
        }
        idleReported = false;
        ServerStep requests = steps.taking(steps.requests(), server::reqAll);
        out.println("SESSION " + core.session() + " " + requests.effects().size());
        send(requests);
        gatherDeadline = clock.now() + gatherTimeout;
        tryEndGather();
    }

    private void tryEndGather() throws InterruptedException {
        if (steps.taking(steps.when("delivering", steps.plain("EndGather", true)), server::endGather).outcome()
                .equals("delivering")) {
            gatherDeadline = Long.MAX_VALUE;
            out.println("DELIVERING " + core.session());
        }
    }

    private void timers() throws InterruptedException {
        long now = clock.now();
        if (core.phase() == GatherServer.Phase.GATHER && now >= gatherDeadline) {
            long sid = core.session();
            // a stale server did not answer in time: abort (App. A.6 {abort;})
            steps.taking(steps.when("aborted", steps.plain("GatherFail", false)), server::gatherFail);
            gatherDeadline = Long.MAX_VALUE;
            out.println("ABORT gather " + sid);
        }
        if (now >= nextPeriodic) {
            boolean s5 = core.config().strategy() == Strategy.S5;
            // S5's PeriodicSync every T_u (L229), S4 and S6's purge sync (L213); each carries on the
            // replication rounds (a replica, ack or commit lost to a dead server, resent).
            if (s5 && !specTime) {
                // the spec's PeriodicSync: one step, a DSync to every other server at one reading
                send(steps.taking(steps.roundSync("PeriodicSync"), server::periodicSync));
            } else if (s5 || purgeSyncEvery > 0) {
                syncAll();
            } else {
                send(steps.taking(null, server::carryOnRound));
            }
            nextPeriodic = now + (s5 ? tu : purgeSyncEvery > 0 ? purgeSyncEvery : PURGE_SYNC_EVERY);
        }
    }

    private void syncAll() throws InterruptedException {
        if (specTime) {
            // the spec's PeriodicSync (S5) / PushSync (S6): one step, a DSync to every peer at one reading
            boolean s5 = core.config().strategy() == Strategy.S5;
            send(steps.taking(steps.roundSync(s5 ? "PeriodicSync" : "PushSync"), s5 ? server::periodicSync
                    : server::pushSync));
            return;
        }
        for (ServerId t : core.config().servers().others()) {
            send(steps.taking(steps.purgeSyncs(), () -> server.sync(t)));
        }
    }

    /** One turn of HandleClient's delivery loop: the aDeliver call of the next note of K - D. */
    private void deliverOne() throws InterruptedException {
        String[] called = new String[1];
        long sid = core.session();
        // Two steps: the attempt (no line: the spec's aDeliver is the call's ADeliverOK/ADeliverErr,
        // which call() logs), then the outcome the core records (ReportOutcome, a stutter with K, D).
        ServerStep step = steps.taking(s -> {
            if (s.outcome().equals("delivered") || s.outcome().equals("failed")) {
                steps.report(called[0], s.outcome().equals("delivered")).accept(s);
            }
        }, () -> server.aDeliverNext((session, note) -> {
            called[0] = note.id().text();
            return call(session, note);
        }));
        switch (step.outcome()) {
            case "delivered" -> out.println("DELIVERED " + called[0] + " " + sid);
            case "failed" -> out.println("ABORT adeliver " + sid);
            case "idle" -> {
                out.println("IDLE " + sid);
                idleReported = true;
            }
            default -> {
            }
        }
    }

    /**
     * The primitive {@code aDeliver(c, note)}: success means processed exactly once (the journal line
     * is on disk), error means not processed at all; a seeded few fail (the hand-off timed out).
     * Success returns {@code --ack-delay} ms after the processing (the acknowledgement's way back):
     * a kill in that time leaves the processing on disk and the attempt unresolved in the core.
     */
    private boolean call(long session, Note note) {
        out.println("CALL " + note.id().text() + " " + session);
        out.flush();
        if (random.nextInt(100) < errorPercent) {
            steps.primitive("ADeliverErr", note.id().text());
            return false;
        }
        // The spec's ADeliverOK is the processing: its line first, so no processing goes unlogged
        // (a kill between the two leaves a line the restart shows unprocessed, which TLC may drop).
        steps.primitive("ADeliverOK", note.id().text());
        journal.append(note.id().text(), session);
        try {
            Thread.sleep(ackDelay);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // processed all the same: success
        }
        return true;
    }

    private void send(ServerStep step) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.Send s) {
                EoMessage m = s.message();
                out.println("SEND " + to(m) + " " + Wire.encode(m));
            }
        }
    }

    private static String to(EoMessage m) {
        if (Replication.isRound(m)) {
            return Replication.to(m).name();
        } else if (m instanceof EoMessage.DRequest q) {
            return q.to().name();
        } else if (m instanceof EoMessage.DReply r) {
            return r.to().name();
        } else if (m instanceof EoMessage.DSync s) {
            return s.to().name();
        }
        throw new IllegalStateException("a server sends no " + m.getClass().getSimpleName() + " to a server");
    }
}
