package dev.onceproof.conformance.crash.gather;

import dev.onceproof.exactlyonce.ConcurrentGatherServer;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.GatherServer;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.steplog.StepLog;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;

/**
 * The step log of one process of the Strategy 4 SIGKILL run (issue 21 item 1), as
 * specs/exactlyonce/TraceExactlyOnceS4.tla reads it: lines named after ExactlyOnceS4Msg's actions,
 * one file per incarnation (header constant {@code incarnation}).
 *
 * <p><b>Where a server's line is written.</b> Inside the step, under ConcurrentGatherServer's lock,
 * before the step's record is appended ({@link ConcurrentGatherServer#onStep}): so before the step is
 * durable and before anything it sends leaves the process. The node arms the line of the step it is
 * about to take ({@link #next}); the hook writes it with the core's K and D after the step. The one
 * step outside the lock is the aDeliver primitive itself (ConcurrentGatherServer calls it outside the
 * lock by design): its ADeliverOK line is written before the processing is appended to the primitive's
 * journal (the spec's ADeliverOK is that processing), its ADeliverErr line where the call fails. The
 * node is one thread, and each step's record is committed before the next step begins, so only the
 * last line of a killed incarnation can belong to a step that never took effect; the validator lets
 * TLC drop that line and no other (GatherTraceFamily says when).
 *
 * <p><b>Time.</b> Every line carries {@code at}, the wall clock in microseconds ({@link Instant#now}:
 * the machine's real-time clock, shared by every process of the run). A line is written before its
 * step's effects leave the process and a receiving process writes its line after it read them, so
 * the order of {@code at} across the run's logs is an order consistent with happens-before; the
 * validator merges the logs in that order (GatherTraceFamily).
 *
 * <p><b>Strategy 5</b> (TraceExactlyOnceS5.tla, ExactlyOnceS5Msg): the cores run on a
 * {@link Wire.UnitClock} (10 ms units, fixed per-server offsets), read once per step ({@link #taking}
 * pins it before the step, so after its inputs arrived), and every line also carries {@code now},
 * that reading less the offset: the spec's true time. A line is written at a wall-clock µs no earlier
 * than its reading, so if line 1 happens before line 2 then now1 <= now2 and, when equal, at1 < at2:
 * the validator merges by (now, at) and advances the spec's clock by Tick steps up to each line's now.
 * The round of periodic syncs is one PeriodicSync line, a DSync's receipt one RecvPeerSync line.
 */
final class GatherStepLog {

    static final GatherStepLog OFF = new GatherStepLog(StepLog.OFF, null, null, null);

    private final StepLog log;
    private final String self;
    private final GatherServer core;
    /** Strategy 5's clock (its lines carry {@code now}, the pinned true time in units); null for Strategy 4. */
    private final Wire.UnitClock clock;
    /** The line of the step the node is about to take; written by the hook, under the server's lock. */
    private Consumer<ServerStep> next;

    private GatherStepLog(StepLog log, String self, GatherServer core, Wire.UnitClock clock) {
        this.log = log;
        this.self = self;
        this.core = core;
        this.clock = clock;
    }

    /** A server incarnation's log; its lines come from {@code server}'s steps from now on. */
    static GatherStepLog server(Path file, List<String> servers, String client, String self, int incarnation,
            GatherServer core, ConcurrentGatherServer server, Timed timed) {
        GatherStepLog g = new GatherStepLog(StepLog.open(file, header(timed, self, incarnation)
                .strings("Servers", servers).constant("Client", client)), self, core, timed == null ? null : timed.clock);
        server.onStep(g::took);
        return g;
    }

    /** The client's log (Connect and Disconnect). */
    static GatherStepLog client(Path file, String client, int incarnation, Timed timed) {
        return new GatherStepLog(StepLog.open(file, header(timed, "client", incarnation).constant("Client", client)),
                null, null, timed == null ? null : timed.clock);
    }

    private static StepLog.Header header(Timed timed, String process, int incarnation) {
        StepLog.Header h = new StepLog.Header(timed == null ? "ExactlyOnceS4Msg" : timed.spec(), "msg", process)
                .constant("incarnation", incarnation);
        return timed == null ? h : timed.constants(h);
    }

    /**
     * Strategy 5's run in spec time: the clock, and the constants every log's header repeats: the
     * servers' fixed offsets (the spec's ClockOffset, MaxSkew their largest), the margins a correct
     * core keeps for them (SkewAllowance = 2 skew, Te), T_r, all in units of {@code unit} ms. The
     * header gives a correct core's margins whatever a control made the cores keep, so a core with
     * another window shows at its StartSession's {@code stale}.
     */
    record Timed(Wire.UnitClock clock, dev.onceproof.exactlyonce.Strategy strategy, java.util.Map<String, Long> offsets,
            long tr, long skew, long te) {
        StepLog.Header constants(StepLog.Header h) {
            long maxSkew = offsets.values().stream().mapToLong(Long::longValue).max().orElse(0);
            h.map("ClockOffset", offsets).constant("MaxSkew", maxSkew).constant("SkewAllowance", 2 * skew)
                    .constant("Te", te).constant("Boundary", "corrected").constant("unitMillis", clock.unit());
            return strategy == dev.onceproof.exactlyonce.Strategy.S5 ? h.constant("Tr", tr) : h;
        }

        String spec() {
            return strategy == dev.onceproof.exactlyonce.Strategy.S5 ? "ExactlyOnceS5Msg" : "ExactlyOnceS6Msg";
        }
    }

    /** The wall clock in microseconds since the epoch. */
    static long micros() {
        return ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now());
    }

    /** A call of one of the server's steps (it may wait, as a deferred reply does). */
    interface Call {
        ServerStep run() throws InterruptedException;
    }

    /**
     * Takes the server step {@code call} with {@code line} armed: the hook writes it under the lock
     * for each step the call takes (aDeliverNext takes two, the attempt and its outcome), then the
     * line is disarmed. {@code line} null: the step writes none.
     */
    ServerStep taking(Consumer<ServerStep> line, Call call) throws InterruptedException {
        next = log.on() ? line : null;
        if (clock != null) {
            clock.pin(); // the step's one reading, taken after its input arrived
        }
        try {
            return call.run();
        } finally {
            next = null;
            if (clock != null) {
                clock.unpin();
            }
        }
    }

    private void took(ServerStep step) {
        Consumer<ServerStep> line = next;
        if (line != null) {
            synchronized (log) {
                line.accept(step);
            }
        }
    }

    // ---- the lines ----------------------------------------------------------------------------

    private StepLog line(String action) {
        StepLog l = log.step(action);
        if (self != null) {
            l.field("server", self);
        }
        if (clock != null) {
            l.field("now", clock.pinned());
        }
        return l.field("at", micros());
    }

    /** Ends a line with the server's K and D after the step. */
    private void kd(StepLog l) {
        l.strings("K", texts(core.k())).strings("D", texts(core.d())).end();
    }

    static List<String> texts(Collection<NoteId> ids) {
        return ids.stream().map(NoteId::text).sorted().toList();
    }

    /** A line with no parameters but the server (and K, D when {@code withKD}). */
    Consumer<ServerStep> plain(String action, boolean withKD) {
        return step -> {
            StepLog l = line(action);
            if (withKD) {
                kd(l);
            } else {
                l.end();
            }
        };
    }

    /** A line only if the step's outcome is {@code outcome}. */
    Consumer<ServerStep> when(String outcome, Consumer<ServerStep> line) {
        return step -> {
            if (step.outcome().equals(outcome)) {
                line.accept(step);
            }
        };
    }

    /**
     * StartSession with the core's session id, which the D requests and replies carry: the trace
     * module maps it to the spec's session, so a reply matches the one request it answers (without
     * it TLC tried every request of that peer still in the network: 26,282 states for a 3,647-line
     * run of 20 kills; bound to the latest request, the same logs took 3,765).
     */
    Consumer<ServerStep> startSession() {
        return when("started", step -> {
            StepLog l = line("StartSession").field("session", core.session());
            if (clock != null) {
                l.strings("stale", core.stale().stream().map(s -> s.name()).toList());
            }
            l.end();
        });
    }

    Consumer<ServerStep> note(String action, String note) {
        return step -> kd(line(action).field("note", note));
    }

    /** One ReqD line per request the step sends (reqAll: one step, one request per stale server). */
    Consumer<ServerStep> requests() {
        return step -> {
            for (ServerEffect e : step.effects()) {
                if (e instanceof ServerEffect.Send s && s.message() instanceof EoMessage.DRequest r) {
                    line("ReqD").field("peer", r.to().name()).end();
                }
            }
        };
    }

    Consumer<ServerStep> reply() {
        return step -> {
            for (ServerEffect e : step.effects()) {
                if (e instanceof ServerEffect.Send s && s.message() instanceof EoMessage.DReply r) {
                    StepLog l = line("ReplyD").field("peer", r.to().name()).field("session", r.session())
                            .strings("d", texts(r.d()));
                    (clock != null ? l.field("ts", r.ts()) : l).end();
                }
            }
        };
    }

    Consumer<ServerStep> recvD(EoMessage.DReply r) {
        return when("merged", step -> {
            StepLog l = line("RecvD").field("peer", r.from().name()).strings("d", texts(r.d()));
            kd(clock != null ? l.field("ts", r.ts()) : l);
        });
    }

    /** The DSync each step sends (Strategy 4's purge sync to one peer). */
    Consumer<ServerStep> purgeSyncs() {
        return step -> {
            for (ServerEffect e : step.effects()) {
                if (e instanceof ServerEffect.Send s && s.message() instanceof EoMessage.DSync m) {
                    line("SendPurgeSync").field("peer", m.to().name()).strings("k", texts(m.k()))
                            .strings("d", texts(m.d())).field("seen", m.seen()).end();
                }
            }
        };
    }

    /**
     * Strategy 5's PeriodicSync or 6's PushSync ({@code action}): one line for the round (the spec
     * sends every peer its DSync in one step), with what the DSyncs carry; none when the step sent
     * no DSync.
     */
    Consumer<ServerStep> roundSync(String action) {
        return step -> {
            for (ServerEffect e : step.effects()) {
                if (e instanceof ServerEffect.Send s && s.message() instanceof EoMessage.DSync m) {
                    line(action).strings("k", texts(m.k())).strings("d", texts(m.d())).field("seen", m.seen())
                            .field("ts", m.ts()).end();
                    return;
                }
            }
        };
    }

    /** Strategies 5-6: the receipt of a DSync (TS raised, then the purge: one step, recvPeerSync). */
    Consumer<ServerStep> recvPeerSync(EoMessage.DSync m) {
        return when("merged", step -> kd(line("RecvPeerSync").field("peer", m.from().name())
                .strings("k", texts(m.k())).strings("d", texts(m.d())).field("seen", m.seen()).field("ts", m.ts())));
    }

    Consumer<ServerStep> recvPurgeSync(EoMessage.DSync m) {
        return when("merged", step -> kd(line("RecvPurgeSync").field("peer", m.from().name())
                .strings("k", texts(m.k())).strings("d", texts(m.d())).field("seen", m.seen())));
    }

    /** The core hears an aDeliver outcome (the spec took it at the call): a stutter with K and D. */
    Consumer<ServerStep> report(String note, boolean ok) {
        return step -> kd(line("ReportOutcome").field("note", note).field("ok", ok));
    }

    /**
     * The restart's first line, after the outcomes of the calls a kill left open were read from the
     * primitive's journal: K and D as the store and those outcomes give them, and which of those calls
     * the journal holds (processed) and which it does not (the validator may drop the killed
     * incarnation's ADeliverOK line only for a note of {@code unprocessed}).
     */
    void recover(List<String> processed, List<String> unprocessed) {
        if (!log.on()) {
            return;
        }
        if (clock != null) {
            clock.pin();
        }
        synchronized (log) {
            kd(line("ServerRecover").strings("processed", processed).strings("unprocessed", unprocessed));
        }
        if (clock != null) {
            clock.unpin();
        }
    }

    /** The primitive's step (outside the server's lock): before the processing, or where the call failed. */
    void primitive(String action, String note) {
        if (!log.on()) {
            return;
        }
        synchronized (log) {
            line(action).field("note", note).end();
        }
    }

    /** A client line (Connect with its server, or Disconnect). */
    void client(String action, String server) {
        if (!log.on()) {
            return;
        }
        synchronized (log) {
            StepLog l = line(action);
            if (server != null) {
                l.field("server", server);
            }
            l.end();
        }
    }
}
