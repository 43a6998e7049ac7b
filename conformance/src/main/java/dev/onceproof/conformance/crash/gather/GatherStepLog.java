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
 */
final class GatherStepLog {

    static final GatherStepLog OFF = new GatherStepLog(StepLog.OFF, null, null);

    private final StepLog log;
    private final String self;
    private final GatherServer core;
    /** The line of the step the node is about to take; written by the hook, under the server's lock. */
    private Consumer<ServerStep> next;

    private GatherStepLog(StepLog log, String self, GatherServer core) {
        this.log = log;
        this.self = self;
        this.core = core;
    }

    /** A server incarnation's log; its lines come from {@code server}'s steps from now on. */
    static GatherStepLog server(Path file, List<String> servers, String client, String self, int incarnation,
            GatherServer core, ConcurrentGatherServer server) {
        GatherStepLog g = new GatherStepLog(StepLog.open(file, header(servers, client, self, incarnation)), self, core);
        server.onStep(g::took);
        return g;
    }

    /** The client's log (Connect and Disconnect). */
    static GatherStepLog client(Path file, String client, int incarnation) {
        return new GatherStepLog(StepLog.open(file, new StepLog.Header("ExactlyOnceS4Msg", "msg", "client")
                .constant("Client", client).constant("incarnation", incarnation)), null, null);
    }

    private static StepLog.Header header(List<String> servers, String client, String self, int incarnation) {
        return new StepLog.Header("ExactlyOnceS4Msg", "msg", self).strings("Servers", servers)
                .constant("Client", client).constant("incarnation", incarnation);
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
        try {
            return call.run();
        } finally {
            next = null;
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
        return when("started", step -> line("StartSession").field("session", core.session()).end());
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
                    line("ReplyD").field("peer", r.to().name()).field("session", r.session())
                            .strings("d", texts(r.d())).end();
                }
            }
        };
    }

    Consumer<ServerStep> recvD(EoMessage.DReply r) {
        return when("merged", step -> kd(line("RecvD").field("peer", r.from().name()).strings("d", texts(r.d()))));
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
        synchronized (log) {
            kd(line("ServerRecover").strings("processed", processed).strings("unprocessed", unprocessed));
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
