package dev.onceproof.conformance.crash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The Strategy 3 crash test with the server killed (issue 21, item 3): server A is a JVM of its own
 * ({@link S3ServerMain}: the real ConcurrentS3Server over a journal directory with fsync), the client
 * is {@link EoClientMain} over its own store, and this driver is the network between them and the
 * producer of notes. It SIGKILLs the server at seeded moments, three times in four while a request is
 * being handled, and restarts it from its store. A message the server printed before it died had
 * left it, so the driver still hands it to the client (its answer then finds no server: a lost
 * message). A note whose creation a kill cut before its commit is created again under the same id
 * (the producer retries what was not confirmed).
 *
 * <p>Checked as {@link EoIdListCrashExperiment} does, from the client's store: no note processed
 * twice, none acknowledged and lost, R consistent with the purges. With {@link #logSteps} every
 * server incarnation and the client write step logs (server-A-N.jsonl, client-0.jsonl) that
 * {@code ./onceproof validate} checks against ExactlyOnceS3MsgRound, the incarnations joined by the
 * kills' ServerCrash (TraceExactlyOnceS3.tla).
 */
public final class S3ServerCrashExperiment {

    /**
     * @param serverMain the server's main class: {@link S3ServerMain}, or a control's on the test
     *     classpath that builds a broken core
     */
    public record Config(int crashes, long seed, long minUpMillis, long maxUpMillis, int q, String serverMain) {
        public Config {
            if (crashes < 1 || minUpMillis < 0 || maxUpMillis < minUpMillis || q < 1) {
                throw new IllegalArgumentException("need crashes >= 1, 0 <= minUp <= maxUp, q >= 1; got " + this);
            }
        }

        public static Config standard(long seed) {
            return new Config(10, seed, 150, 450, 3, S3ServerMain.class.getName());
        }

        public Config withServerMain(String main) {
            return new Config(crashes, seed, minUpMillis, maxUpMillis, q, main);
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /** How long a live child may take to answer one line (a loaded machine, a slow fsync). */
    private static final long ANSWER_MILLIS = 20_000;

    private final Config config;
    private final Path dir;
    private final PrintStream log;
    private Path stepLogs;

    private final Set<String> acked = new HashSet<>();
    private final Set<String> purged = new HashSet<>();
    private final LinkedHashSet<String> purgeSent = new LinkedHashSet<>();
    /** Requests the driver owes the server (the client's answers, a purge after a refusal). */
    private final Deque<String> owed = new ArrayDeque<>();
    private int named;
    /** Notes the server confirmed created and the client has not acknowledged. */
    private final Set<String> undelivered = new LinkedHashSet<>();
    private String unconfirmedCreate;
    /**
     * R is full and the server authorized no purge after a refusal: every later note would be
     * refused, so the driver stops asking (the refusals would only lengthen the logs) and waits for
     * the kill; the next incarnation tries again. The first runs stalled so after every few kills:
     * a restarted lone S3Server never authorized the notes it had in D before the kill (fixed in
     * S3Server.reconfirm, S3ServerRestartPurgeTest).
     */
    private boolean stalled;
    private boolean refusedLast;
    private String recreate;
    private boolean session;
    private boolean idle;
    private long sent;
    private long duplicatesAcked;
    private long refusals;
    private long killedInFlight;
    private int cutSteps;

    public S3ServerCrashExperiment(Config config, Path dir, PrintStream log) {
        this.config = config;
        this.dir = dir;
        this.log = log;
    }

    /** Writes step logs into {@code dir}: server-A-N.jsonl per server incarnation N and client-0.jsonl. Returns this. */
    public S3ServerCrashExperiment logSteps(Path dir) {
        this.stepLogs = dir;
        return this;
    }

    /** Whether the run's last incarnation ended with R full of notes the server would not authorize. */
    public boolean stalled() {
        return stalled;
    }

    /** Kills whose last logged durable step the restart did not find (logged runs only). */
    public int cutSteps() {
        return cutSteps;
    }

    public EoIdListCrashReport run() throws IOException, InterruptedException {
        SplittableRandom random = new SplittableRandom(config.seed());
        long t0 = System.currentTimeMillis();
        List<String> clientFlags = new ArrayList<>(List.of("--strategy", "3", "--q", String.valueOf(config.q())));
        if (stepLogs != null) {
            clientFlags.addAll(List.of("--step-log", stepLogs.resolve("client-0.jsonl").toString(), "--incarnation", "0"));
        }
        EoCrashExperiment.Child client = EoCrashExperiment.Child.start(EoClientMain.class.getName(),
                dir.resolve("client-store"), clientFlags, dir.resolve("client.log"));
        try {
            for (int i = 1; i <= config.crashes() + 1; i++) {
                boolean last = i == config.crashes() + 1;
                EoCrashExperiment.Child server = EoCrashExperiment.Child.start(config.serverMain(),
                        dir.resolve("server-store"), serverFlags(i - 1), dir.resolve("server.log"));
                boolean inFlight;
                long up = config.minUpMillis() + (long) (random.nextDouble() * (config.maxUpMillis() - config.minUpMillis()));
                try {
                    restarted(server.readyLine(), i - 1);
                    inFlight = drive(server, client, System.currentTimeMillis() + up, random, last);
                } catch (IOException | RuntimeException e) {
                    server.kill(); // no server left behind by a run that failed
                    throw e;
                }
                if (last) {
                    server.stop();
                } else {
                    server.kill();
                    if (inFlight) {
                        killedInFlight++;
                    }
                }
                // What the server printed before it died had left it: the client still gets it.
                for (String line : server.drain()) {
                    answer(line, client, random);
                }
                owed.clear(); // answers to a dead server are lost messages
                session = false;
                if (!last) {
                    log.printf("server crash %2d at +%d ms (up %d ms, request in flight: %s)%n", i,
                            System.currentTimeMillis() - t0, up, inFlight);
                }
            }
        } finally {
            client.stop();
        }
        EoIdListCrashExperiment.Checked c = EoIdListCrashExperiment.check(dir.resolve("client-store"), config.q(), acked,
                purged, purgeSent);
        return new EoIdListCrashReport("server A", config.crashes(), config.q(), sent, acked.size(), c.processed(),
                duplicatesAcked, refusals, purged.size(), killedInFlight, c.twice(), c.lost(), c.inconsistent(), c.r(),
                System.currentTimeMillis() - t0);
    }

    private List<String> serverFlags(int incarnation) {
        List<String> flags = new ArrayList<>(List.of("--q", String.valueOf(config.q())));
        if (stepLogs != null) {
            flags.addAll(List.of("--step-log", serverLog(incarnation).toString(), "--incarnation",
                    String.valueOf(incarnation)));
        }
        return flags;
    }

    private Path serverLog(int incarnation) {
        return stepLogs.resolve("server-A-" + incarnation + ".jsonl");
    }

    /**
     * A server is up with K and D as its store gave them back ({@code ready K=.. D=..}): a creation
     * the kill cut is retried, and (logged runs) the last durable step the previous incarnation
     * logged is counted as cut if the restart does not show it.
     */
    private void restarted(String ready, int incarnation) throws IOException {
        Set<String> k = ids(ready, "K=");
        Set<String> d = ids(ready, "D=");
        if (unconfirmedCreate != null && !k.contains(unconfirmedCreate)) {
            recreate = unconfirmedCreate;
        } else if (unconfirmedCreate != null) {
            undelivered.add(unconfirmedCreate);
        }
        unconfirmedCreate = null;
        stalled = false; // a new incarnation tries again
        refusedLast = false;
        undelivered.retainAll(k);
        undelivered.removeAll(d);
        if (stepLogs == null || incarnation == 0) {
            return;
        }
        String text = Files.readString(serverLog(incarnation - 1));
        List<String> lines = text.lines().toList();
        // A line the kill tore (no newline yet) is no line: the validator drops it too (StepLogFile).
        JsonNode lastLine = JSON.readTree(lines.get(lines.size() - (text.endsWith("\n") ? 1 : 2)));
        String note = lastLine.path("note").asText();
        boolean cut = switch (lastLine.path("action").asText()) {
            case "CreateNote" -> !k.contains(note);
            case "ReceiveAck" -> k.contains(note) && !d.contains(note);
            case "ReceivePurgeAck" -> k.contains(note);
            default -> false;
        };
        if (cut) {
            cutSteps++;
            log.printf("  the kill cut %s of %s before its commit (logged, not in the store)%n",
                    lastLine.path("action").asText(), note);
        }
    }

    private static Set<String> ids(String ready, String key) {
        Set<String> out = new LinkedHashSet<>();
        for (String field : ready.split(" ")) {
            if (field.startsWith(key) && field.length() > key.length()) {
                out.addAll(List.of(field.substring(key.length()).split(",")));
            }
        }
        return out;
    }

    /** Requests until the deadline; true if the kill is to land on a request being handled. */
    private boolean drive(EoCrashExperiment.Child server, EoCrashExperiment.Child client, long deadline,
            SplittableRandom random, boolean last) throws IOException, InterruptedException {
        while (true) {
            String request = next(random);
            if (System.currentTimeMillis() >= deadline) {
                if (last || random.nextInt(4) == 0) {
                    return false;
                }
                server.send(request);
                sent++;
                if (request.startsWith("CREATE ")) {
                    unconfirmedCreate = request.substring(7);
                }
                // 0-8 ms later, to the microsecond: sometimes before the step, sometimes inside it
                // (between its line and its commit's fsync), sometimes after.
                java.util.concurrent.locks.LockSupport.parkNanos(random.nextLong(8_000_000));
                return true;
            }
            if (stalled) {
                Thread.sleep(Math.max(1, deadline - System.currentTimeMillis()));
                continue;
            }
            server.send(request);
            sent++;
            String reply = server.await(System.currentTimeMillis() + ANSWER_MILLIS);
            if (reply == null) {
                throw new IOException("server A did not answer \"" + request + "\" within " + ANSWER_MILLIS + " ms");
            }
            if (request.startsWith("CREATE ") && reply.startsWith("created ")) {
                undelivered.add(request.substring(7));
                if (request.substring(7).equals(recreate)) {
                    recreate = null;
                }
            }
            answer(reply, client, random);
        }
    }

    /** The next request: one owed, else a session, a note, a purge or a Deliver, as the seed says. */
    private String next(SplittableRandom random) {
        if (!owed.isEmpty()) {
            return owed.pollFirst();
        }
        if (!session) {
            return "SESSION";
        }
        if (recreate != null) {
            return "CREATE " + recreate;
        }
        if (idle || undelivered.isEmpty() || random.nextInt(4) == 0) {
            idle = false;
            return "CREATE n" + (++named);
        }
        return random.nextInt(5) == 0 ? "AUTHORIZE" : "SEND";
    }

    /** A server's answer: what it hands the client goes there, and the client's answer is owed back. */
    private void answer(String reply, EoCrashExperiment.Child client, SplittableRandom random) throws IOException,
            InterruptedException {
        String[] f = reply.split(" ");
        switch (f[0]) {
            case "started" -> session = true;
            case "none" -> stalled = refusedLast;
            case "idle" -> idle = true;
            case "aborted" -> session = false;
            case "delivered" -> {
                if (random.nextBoolean()) {
                    owed.addLast("AUTHORIZE"); // half the time at once, else R fills up and refuses first
                }
            }
            case "NOTE" -> {
                String c = ask(client, reply);
                String[] a = c.split(" ");
                if (a[0].equals("ACK")) {
                    refusedLast = false;
                    if (!acked.add(a[1])) {
                        duplicatesAcked++;
                    }
                    undelivered.remove(a[1]);
                    owed.addLast("ACK " + a[1]);
                } else {
                    if (a.length == 3 && a[2].equals("refused")) {
                        refusals++;
                        refusedLast = true;
                        owed.addLast("AUTHORIZE"); // R is full: a purge frees a slot (L169)
                    }
                    owed.addFirst("TIMEOUT"); // the Deliver failed: A.4's abort
                }
            }
            case "PURGE" -> {
                refusedLast = false;
                purgeSent.add(f[1]);
                String c = ask(client, reply);
                if (c.startsWith("PURGED ")) {
                    purgeSent.remove(f[1]);
                    purged.add(f[1]);
                    owed.addLast("PURGEACK " + f[1]);
                }
            }
            default -> {
                // created, ignored, refused, none, purged: nothing follows
            }
        }
    }

    private String ask(EoCrashExperiment.Child client, String line) throws IOException, InterruptedException {
        client.send(line);
        sent++;
        String c = client.await(System.currentTimeMillis() + ANSWER_MILLIS);
        if (c == null) {
            throw new IOException("the client did not answer \"" + line + "\" within " + ANSWER_MILLIS + " ms");
        }
        return c;
    }
}
