package dev.onceproof.conformance.crash;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientOrdering;
import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.ClientStep;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.S1Client;
import dev.onceproof.exactlyonce.S3Client;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.store.ClientStore;
import dev.onceproof.steplog.StepLog;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The exactly-once client as its own JVM, for the crash test: a Strategy 1 or Strategy 3 client
 * core over a {@link ClientStore} on a {@link dev.onceproof.storage.Journal} in a directory, whose
 * application state is the journal of processings (one id per line; each accepted note and its R
 * are one journal record, so accept and record are one write; a restart recovers checkpoint plus
 * records).
 *
 * <p>Protocol on stdin/stdout, one line each. Strategy 1: the driver writes
 * {@code NOTE <server> <seq>}. Strategy 3: {@code NOTE <id>} (a global id) or {@code PURGE <id>}
 * ("Please purge i"). The client answers {@code ACK <id>} when the step acknowledges a note (after
 * the record is durable, unless {@code --ack-first}, the negative control), {@code PURGED <id>}
 * once i has left R durably, and {@code NOACK <id> <verdict>} otherwise (R full: {@code refused}).
 * It prints {@code ready} once it has loaded its store.
 *
 * <p>Strategy 1 with {@code --step-log FILE --incarnation N}: the same for ExactlyOnceS1Msg
 * (TraceExactlyOnceS1.tla): Init or Recover with R per stream, Connect to the driver's server A, a
 * ReceiveNote line (verdict, R) after each durable write and before the ACK.
 *
 * <p>Strategy 3 with {@code --step-log FILE --incarnation N}: a step log for trace validation
 * (specs/exactlyonce/TraceExactlyOnceS3.tla), this incarnation's: its first line is Init (N = 0) or
 * Recover (R as read from the store), then Connect; each ReceiveNote and ReceivePurge line is
 * written after the step's durable write and before its acknowledgement is printed, so a SIGKILL
 * cannot lose a line whose acknowledgement the driver saw (the line of a write it cut is put back by
 * the validator from the next Recover).
 *
 * <p>Usage: {@code EoClientMain <store directory> [--ack-first] [--strategy 1|3] [--q <slots>]
 * [--step-log FILE --incarnation N]}.
 */
public final class EoClientMain {

    static final ClientId CLIENT = ClientId.of("c");
    /** Strategy 3's notes and purges come from one server: the driver plays the servers' agreement. */
    static final ServerId SERVER = ServerId.of("A");

    private EoClientMain() {
    }

    private static final long SLOW_DISK_MILLIS = 20;

    public static void main(String[] args) throws Exception {
        Path file = Path.of(args[0]);
        List<String> flags = List.of(args).subList(1, args.length);
        ClientOrdering ordering = flags.contains("--ack-first")
                ? ClientOrdering.ACK_THEN_RECORD : ClientOrdering.RECORD_THEN_ACK;
        int strategy = Integer.parseInt(flag(flags, "--strategy", "1"));
        ClientStore store = ClientStore.open(file, ClientStore.journal());
        if (strategy == 3) {
            int q = Integer.parseInt(flag(flags, "--q", "3"));
            // restore: a store the client cannot trust stops it with an error naming the file
            S3Client client = store.restore(new ClientStableState.IdList(new TreeSet<>()),
                    stored -> new S3Client(CLIENT, q, (ClientStableState.IdList) stored, ordering));
            String logFile = flag(flags, "--step-log", null);
            StepLog log = logFile == null ? StepLog.OFF : StepLog.open(Path.of(logFile), header(q, "client")
                    .constant("incarnation", Long.parseLong(flag(flags, "--incarnation", "0"))));
            if (log.on()) {
                log.step(flag(flags, "--incarnation", "0").equals("0") ? "Init" : "Recover")
                        .strings("R", r(client)).end();
                log.step("Connect").field("server", SERVER.name()).end();
            }
            idList(client, store, ordering, log);
            return;
        }
        S1Client client = store.restore(new ClientStableState.Streams(new TreeMap<>()),
                stored -> new S1Client(CLIENT, (ClientStableState.Streams) stored, ordering));
        String logFile = flag(flags, "--step-log", null);
        StepLog log = logFile == null ? StepLog.OFF : StepLog.open(Path.of(logFile), s1Header("client")
                .constant("incarnation", Long.parseLong(flag(flags, "--incarnation", "0"))));
        if (log.on()) {
            withR(log.step(flag(flags, "--incarnation", "0").equals("0") ? "Init" : "Recover"), client).end();
            log.step("Connect").field("server", SERVER.name()).end();
        }
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.US_ASCII);
        out.println("ready");
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split(" ");
            if (f.length != 3 || !f[0].equals("NOTE")) {
                System.err.println("eo client: ignoring malformed line \"" + line + "\"");
                continue;
            }
            ServerId server = ServerId.of(f[1]);
            NoteId id = NoteId.sequenced(server, Long.parseLong(f[2]));
            ClientStep step = client.receiveNote(new EoMessage.NoteDelivery(server, CLIENT, new Note(id, CLIENT, "")));
            // The driver plays the lone sending server A (every stream's notes are in every K).
            carryOut(step, id, store, ordering, out, "ACK ", () -> {
                if (log.on()) {
                    withR(log.step("ReceiveNote").field("server", SERVER.name()).field("note", id.text())
                            .field("verdict", step.verdict().specName()), client).end();
                }
            });
        }
    }

    /** Strategy 1's streams (the driver's two origins). */
    static final List<String> S1_STREAMS = List.of("A", "B");

    /**
     * The step log's header of the Strategy 1 run (ExactlyOnceS1Msg): the driver is server A, which
     * sends the notes of both streams; B is an origin whose server takes no step of its own.
     */
    static StepLog.Header s1Header(String process) {
        return new StepLog.Header("ExactlyOnceS1Msg", "msg", process).strings("Servers", S1_STREAMS)
                .strings("Origins", S1_STREAMS).constant("Client", CLIENT.name());
    }

    /** The line with the client's R: the last number accepted of every stream (0 if none). */
    private static StepLog withR(StepLog l, S1Client client) {
        java.util.Map<String, Long> r = new TreeMap<>();
        S1_STREAMS.forEach(x -> r.put(x, client.stable().r().getOrDefault(ServerId.of(x), 0L)));
        return l.longs("R", r);
    }

    /** The step log's header of a Strategy 3 client: the run's one server is the driver's A. */
    static StepLog.Header header(int q, String process) {
        return new StepLog.Header("ExactlyOnceS3MsgRound", "round", process)
                .strings("Servers", List.of(SERVER.name())).constant("Client", CLIENT.name()).constant("Q", q);
    }

    private static List<String> r(S3Client client) {
        return client.stable().r().stream().map(NoteId::text).toList();
    }

    /**
     * The effects in the step's order; an acknowledgement prints {@code <ack><id>}. {@code logLine}
     * runs once, after the step's last durable write and before anything printed after it.
     */
    private static void carryOut(ClientStep step, NoteId id, ClientStore store, ClientOrdering ordering,
            PrintStream out, String ack, Runnable logLine) throws InterruptedException {
        int lastRecord = -1;
        for (int e = 0; e < step.effects().size(); e++) {
            if (step.effects().get(e) instanceof ClientEffect.Record) {
                lastRecord = e;
            }
        }
        boolean logged = false;
        for (int e = 0; e < step.effects().size(); e++) {
            ClientEffect effect = step.effects().get(e);
            if (!logged && e > lastRecord) {
                logLine.run();
                logged = true;
            }
            if (effect instanceof ClientEffect.Record r) {
                if (ordering == ClientOrdering.ACK_THEN_RECORD && r.processed().isPresent()) {
                    // The negative control's window between the ack and the durable record is as
                    // long as the write: on a fast disk or tmpfs microseconds, so a kill would
                    // rarely land in it and the control would pass by luck (seen on an idle CI
                    // machine). A slow disk's 20 ms makes the kill land in it as it would there;
                    // the right order needs no such help, since it has no window at all.
                    Thread.sleep(SLOW_DISK_MILLIS);
                }
                store.commit(r);
            } else {
                out.println(ack + id.text());
                out.flush();
            }
        }
        if (!logged) {
            logLine.run();
        }
        if (!step.acknowledges()) {
            out.println("NOACK " + id.text() + " " + step.verdict().specName());
            out.flush();
        }
    }

    /** Strategy 3: notes by global id, and purge requests that free R's slots. */
    private static void idList(S3Client client, ClientStore store, ClientOrdering ordering, StepLog log)
            throws Exception {
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.US_ASCII);
        out.println("ready");
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split(" ");
            if (f.length != 2 || !(f[0].equals("NOTE") || f[0].equals("PURGE"))) {
                System.err.println("eo client: ignoring malformed line \"" + line + "\"");
                continue;
            }
            NoteId id = NoteId.global(f[1]);
            if (f[0].equals("NOTE")) {
                ClientStep step = client.receiveNote(new EoMessage.NoteDelivery(SERVER, CLIENT, new Note(id, CLIENT, "")));
                carryOut(step, id, store, ordering, out, "ACK ", () -> {
                    if (log.on()) {
                        log.step("ReceiveNote").field("server", SERVER.name()).field("note", id.text())
                                .field("verdict", step.verdict().specName()).strings("R", r(client)).end();
                    }
                });
            } else {
                carryOut(client.receivePurge(new EoMessage.PurgeRequest(SERVER, CLIENT, id)), id, store, ordering, out,
                        "PURGED ", () -> {
                            if (log.on()) {
                                log.step("ReceivePurge").field("server", SERVER.name()).field("note", id.text())
                                        .strings("R", r(client)).end();
                            }
                        });
            }
        }
    }

    /** The value after {@code name} in {@code flags}, or {@code otherwise} (also S3ServerMain's). */
    static String flag(List<String> flags, String name, String otherwise) {
        int at = flags.indexOf(name);
        if (at < 0) {
            return otherwise;
        }
        if (at + 1 >= flags.size()) {
            throw new IllegalArgumentException(name + " needs a value");
        }
        return flags.get(at + 1);
    }
}
