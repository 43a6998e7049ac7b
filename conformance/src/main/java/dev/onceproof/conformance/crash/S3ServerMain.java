package dev.onceproof.conformance.crash;

import dev.onceproof.exactlyonce.ConcurrentS3Server;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.S3Server;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.StrategyConfig;
import dev.onceproof.exactlyonce.store.ServerStore;
import dev.onceproof.steplog.StepLog;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * Strategy 3's server A as a JVM of its own, for the server SIGKILL run ({@link S3ServerCrashExperiment}):
 * the real {@link ConcurrentS3Server} over a {@link ServerStore} on a journal directory (CRC per
 * record, group commit, fsync), restarted from that store after every kill.
 *
 * <p>The driver is the network: one request per stdin line, one answer per stdout line, the
 * requests handled one at a time. So a step's record is committed before its answer is printed and
 * before the next request is read, and only the last step of an incarnation can have been logged and
 * not committed when a SIGKILL lands (S3Server writes its line inside the step, before the commit;
 * TraceExactlyOnceS3.tla says why the validator may drop that one line). Requests: {@code CREATE id}
 * (answer {@code created id}), {@code SESSION} ("Request my notes"), {@code SEND} (the next
 * Deliver: {@code NOTE id}, handed over under the lock after the commit, or the core's outcome),
 * {@code ACK id}, {@code TIMEOUT}, {@code AUTHORIZE} ({@code PURGE id} or the outcome),
 * {@code PURGEACK id}. It prints {@code ready K=<ids>} once it has recovered its store.
 *
 * <p>With {@code --step-log FILE --incarnation N} it writes this incarnation's step log: first a
 * {@code ServerRecover} line with K, D, seen and the notes of K whose replication round is complete
 * ({@code ready}), as read back from the store (the restart's state,
 * which the validator checks against the spec's after the kill's ServerCrash), then the core's own
 * lines, written under the server's lock inside each step.
 *
 * <p>Usage: {@code S3ServerMain <store directory> --q <slots> [--te <ms>] [--step-log FILE
 * --incarnation N]}.
 */
public final class S3ServerMain {

    /** The requests that name a note. */
    private static final java.util.Set<String> NAMED = java.util.Set.of("CREATE", "ACK", "PURGEACK");

    private S3ServerMain() {
    }

    public static void main(String[] args) throws Exception {
        run(args, core -> core);
    }

    /**
     * The server with {@code seam} applied to its core before it serves (the identity, or a broken
     * core through one of the cores' test seams: a control's main on the test classpath).
     */
    public static void run(String[] args, UnaryOperator<S3Server> seam) throws Exception {
        Path dir = Path.of(args[0]);
        List<String> flags = List.of(args).subList(1, args.length);
        int q = Integer.parseInt(EoClientMain.flag(flags, "--q", "3"));
        // T_e, the longest a message lives: on this network (the driver answers each request before
        // the next, and hands on what a killed server printed before the restart) no copy of a note
        // outlives its answer, so none can linger after the ack that puts it in D.
        long te = Long.parseLong(EoClientMain.flag(flags, "--te", "0"));
        StrategyConfig config = Strategy.S3.config(EoClientMain.CLIENT, new TreeSet<>(List.of(EoClientMain.SERVER)), te)
                .q(q);
        ServerStore store = ServerStore.open(dir);
        long[] last = new long[1];
        // One process, so System.currentTimeMillis made monotonic is a clock no core sees go back.
        S3Server core = seam.apply(store.restore(durable -> (S3Server) config.server(EoClientMain.SERVER, () -> {
            synchronized (last) {
                last[0] = Math.max(last[0], System.currentTimeMillis());
                return last[0];
            }
        }, durable)));
        String logFile = EoClientMain.flag(flags, "--step-log", null);
        StepLog log = logFile == null ? StepLog.OFF : StepLog.open(Path.of(logFile),
                EoClientMain.header(q, EoClientMain.SERVER.name())
                        .constant("incarnation", Long.parseLong(EoClientMain.flag(flags, "--incarnation", "0"))));
        ServerDurableState recovered = core.durable();
        if (log.on()) {
            core.logSteps(log);
            synchronized (log) {
                log.step("ServerRecover").field("server", EoClientMain.SERVER.name())
                        .strings("K", texts(recovered.k().keySet())).strings("D", texts(recovered.d()))
                        .field("seen", recovered.seen()).strings("ready", texts(ready(recovered))).end();
            }
        }
        List<EoMessage> toClient = new ArrayList<>();
        ConcurrentS3Server server = new ConcurrentS3Server(core, store, ConcurrentS3Server.Handoff.UNDER_LOCK,
                toClient::add);
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.US_ASCII);
        out.println("ready K=" + String.join(",", texts(recovered.k().keySet())) + " D="
                + String.join(",", texts(recovered.d())));
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.split(" ");
            boolean named = NAMED.contains(f[0]);
            Optional<NoteId> id;
            try {
                id = named && f.length == 2 ? Optional.of(NoteId.global(f[1])) : Optional.empty();
            } catch (IllegalArgumentException e) {
                id = Optional.empty();
            }
            if (f.length != (named ? 2 : 1) || named && id.isEmpty()) {
                // A request the driver cannot have meant: said on stderr and answered, nothing changed.
                System.err.println("s3 server: ignoring malformed request \"" + line + "\"");
                out.println("malformed");
                out.flush();
                continue;
            }
            ServerStep step;
            try {
                step = step(server, f[0], id);
            } catch (IllegalArgumentException e) { // a note created twice, a message the core refuses
                System.err.println("s3 server: refused \"" + line + "\": " + e.getMessage());
                out.println("error");
                out.flush();
                continue;
            }
            if (step == null) {
                System.err.println("s3 server: ignoring unknown request \"" + line + "\"");
                out.println("malformed");
            } else if (!toClient.isEmpty()) {
                // Handed over under the lock, after the commit (ConcurrentS3Server.locked).
                for (EoMessage m : toClient) {
                    out.println(m instanceof EoMessage.NoteDelivery d ? "NOTE " + d.note().id().text()
                            : "PURGE " + ((EoMessage.PurgeRequest) m).id().text());
                }
                toClient.clear();
            } else {
                out.println(step.outcome() + (f[0].equals("CREATE") ? " " + f[1] : ""));
            }
            out.flush();
        }
        store.close();
        log.close();
    }

    /** One request's step; null for an unknown request. */
    private static ServerStep step(ConcurrentS3Server server, String request, Optional<NoteId> id) {
        return switch (request) {
            case "CREATE" -> server.createNote(id, "");
            case "SESSION" -> server.startSession();
            case "SEND" -> server.deliverNext();
            case "ACK" -> server.receiveAck(new EoMessage.NoteAck(EoClientMain.CLIENT, EoClientMain.SERVER,
                    id.orElseThrow()));
            case "TIMEOUT" -> server.timeout();
            case "AUTHORIZE" -> server.authorize();
            case "PURGEACK" -> server.receivePurgeAck(new EoMessage.PurgeAck(EoClientMain.CLIENT,
                    EoClientMain.SERVER, id.orElseThrow()));
            default -> null;
        };
    }

    /** The notes of K whose replication round is complete (the others are in origins). */
    private static List<NoteId> ready(ServerDurableState s) {
        return s.k().keySet().stream().filter(i -> !s.origins().containsKey(i)).toList();
    }

    private static List<String> texts(java.util.Collection<NoteId> ids) {
        return ids.stream().map(NoteId::text).toList();
    }
}
