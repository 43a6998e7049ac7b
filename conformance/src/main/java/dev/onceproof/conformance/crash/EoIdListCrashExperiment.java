package dev.onceproof.conformance.crash;

import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.store.ClientStore;
import dev.onceproof.steplog.StepLog;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * The exactly-once crash test for Strategy 3 (issue 9, item 3): an Id List client JVM
 * ({@link EoClientMain} {@code --strategy 3}) keeps R, at most q ids, in a file-backed store with
 * its journal of processings. This driver plays the servers: it creates notes n1, n2, ..., delivers
 * the oldest one not yet acknowledged, now and then resends an acknowledged one (a duplicate from
 * the network or another server, which R must recognise), and authorizes a purge ("Please purge
 * i") of the oldest acknowledged note only when the client refuses because R is full (L169): so R
 * fills up again and again. Once it has sent a purge of i it never sends note i again (the
 * server's promise, L131: i is in every D, no copy lingers), and repeats the purge after a restart
 * until the client confirms it. The client is killed with SIGKILL at seeded random moments, mostly
 * with a note in flight, and restarted on the same store.
 *
 * <p>With {@link #logSteps} the run writes step logs for trace validation
 * (specs/exactlyonce/TraceExactlyOnceS3.tla): the driver's as Strategy 3's lone server A (its
 * CreateNote, StartSession, SendNote, ReceiveAck, Timeout, Authorize and ReceivePurgeAck, each
 * written before the line it sends, or on the reply it reads; a resend of an acknowledged note is
 * the network's duplicate, no server step) and one per client incarnation ({@link EoClientMain}).
 */
public final class EoIdListCrashExperiment {

    /**
     * @param q slots of the client's R
     * @param ackFirst the negative control: the client acknowledges before it records
     * @param resendPercent how often an acknowledged, not yet purged note is resent
     */
    public record Config(int crashes, long seed, long minUpMillis, long maxUpMillis, int q, boolean ackFirst,
            int resendPercent) {
        public Config {
            if (crashes < 1 || minUpMillis < 0 || maxUpMillis < minUpMillis || q < 1 || resendPercent < 0
                    || resendPercent > 100) {
                throw new IllegalArgumentException("need crashes >= 1, 0 <= minUp <= maxUp, q >= 1, resend 0..100; got "
                        + this);
            }
        }

        public static Config standard(long seed) {
            return new Config(20, seed, 150, 450, 3, false, 15);
        }

        /** The negative control; no resends of acknowledged notes (one would hide the loss, as for S1). */
        public Config withAckFirst(int crashes) {
            return new Config(crashes, seed, minUpMillis, maxUpMillis, q, true, 0);
        }
    }

    private final Config config;
    private final Path dir;
    private final PrintStream log;

    // The servers' view.
    private final LinkedHashSet<String> undelivered = new LinkedHashSet<>();
    private final LinkedHashSet<String> delivered = new LinkedHashSet<>();
    private final LinkedHashSet<String> purgeSent = new LinkedHashSet<>();
    private final Set<String> purged = new HashSet<>();
    private final Set<String> acked = new HashSet<>();
    private int created;
    private boolean full;
    private long sent;
    private long duplicatesAcked;
    private long refusals;
    private long killedInFlight;
    /** Step logs: the directory, the driver's log (server A), and the driver's session as the spec has it. */
    private Path stepLogs;
    private StepLog serverLog = StepLog.OFF;
    private String pending;
    private boolean sessionActive;

    public EoIdListCrashExperiment(Config config, Path dir, PrintStream log) {
        this.config = config;
        this.dir = dir;
        this.log = log;
    }

    /** Writes step logs into {@code dir}: server-A.jsonl and client-N.jsonl per incarnation N. Returns this. */
    public EoIdListCrashExperiment logSteps(Path dir) {
        this.stepLogs = dir;
        return this;
    }

    public Path store() {
        return dir.resolve("client-store");
    }

    public EoIdListCrashReport run() throws IOException, InterruptedException {
        SplittableRandom random = new SplittableRandom(config.seed());
        long t0 = System.currentTimeMillis();
        List<String> flags = new ArrayList<>(List.of("--strategy", "3", "--q", String.valueOf(config.q())));
        if (config.ackFirst()) {
            flags.add("--ack-first");
        }
        if (stepLogs != null) {
            serverLog = StepLog.open(stepLogs.resolve("server-A.jsonl"), EoClientMain.header(config.q(),
                    EoClientMain.SERVER.name()));
        }
        try {
            return runLogged(random, t0, flags);
        } finally {
            serverLog.close();
        }
    }

    private EoIdListCrashReport runLogged(SplittableRandom random, long t0, List<String> flags)
            throws IOException, InterruptedException {
        for (int i = 1; i <= config.crashes() + 1; i++) {
            boolean last = i == config.crashes() + 1;
            List<String> own = new ArrayList<>(flags);
            if (stepLogs != null) {
                own.addAll(List.of("--step-log", stepLogs.resolve("client-" + (i - 1) + ".jsonl").toString(),
                        "--incarnation", String.valueOf(i - 1)));
            }
            EoCrashExperiment.Child child = EoCrashExperiment.Child.start(store(), own, dir.resolve("client.log"));
            // A logged run ends as briefly as the others live: its log is for TLC, whose cost grows with it.
            long up = last ? (stepLogs != null ? config.maxUpMillis() : 1_500) : config.minUpMillis()
                    + (long) (random.nextDouble() * (config.maxUpMillis() - config.minUpMillis()));
            boolean inFlight = drive(child, System.currentTimeMillis() + up, random);
            if (last) {
                child.stop();
            } else {
                child.kill();
                if (inFlight) {
                    killedInFlight++;
                }
            }
            for (String line : child.drain()) {
                record(line);
            }
            if (pending != null) {
                // The kill (or the end) ended the Deliver without its ack: A.4's abort.
                step("Timeout", pending);
                pending = null;
                sessionActive = false;
            }
            if (!last) {
                log.printf("crash %2d at +%d ms (up %d ms, note in flight: %s)%n", i,
                        System.currentTimeMillis() - t0, up, inFlight);
            }
        }
        return analyze(t0);
    }

    private boolean drive(EoCrashExperiment.Child child, long deadline, SplittableRandom random)
            throws IOException, InterruptedException {
        // Purges sent before the last kill and not confirmed: the server repeats them.
        for (String i : List.copyOf(purgeSent)) {
            step("Authorize", i);
            if (send(child, "PURGE " + i, deadline)) {
                return true;
            }
        }
        while (true) {
            String line;
            if (full && !delivered.isEmpty()) {
                String i = delivered.iterator().next();
                delivered.remove(i);
                purgeSent.add(i);
                full = false;
                line = "PURGE " + i;
                step("Authorize", i);
            } else if (!delivered.isEmpty() && random.nextInt(100) < config.resendPercent()) {
                line = "NOTE " + new ArrayList<>(delivered).get(random.nextInt(delivered.size()));
            } else {
                line = "NOTE " + deliver(nextNote());
            }
            if (send(child, line, deadline)) {
                return true;
            }
            if (System.currentTimeMillis() >= deadline) {
                // As the Strategy 1 test: three kills in four land while a note is being handled.
                if (random.nextInt(4) != 0) {
                    child.send("NOTE " + deliver(nextNote()));
                    sent++;
                    Thread.sleep(random.nextInt(3));
                    return true;
                }
                return false;
            }
        }
    }

    private String nextNote() {
        if (undelivered.isEmpty()) {
            undelivered.add("n" + (++created));
            step("CreateNote", "n" + created);
        }
        return undelivered.iterator().next();
    }

    /** A.4's Deliver of note i: a session if none runs (the client is connected), then SendNote. */
    private String deliver(String i) {
        if (!sessionActive) {
            step("StartSession", null);
            sessionActive = true;
        }
        step("SendNote", i);
        pending = i;
        return i;
    }

    /** One line of the driver's log, as server A. */
    private void step(String action, String note) {
        if (!serverLog.on()) {
            return;
        }
        synchronized (serverLog) {
            StepLog l = serverLog.step(action).field("server", EoClientMain.SERVER.name());
            if (note != null) {
                l.field("note", note);
            }
            if (action.equals("ReceiveAck")) {
                List<String> d = new ArrayList<>(delivered);
                d.addAll(purgeSent);
                l.strings("D", new TreeSet<>(d));
            }
            l.end();
        }
    }

    /** Sends one line and records the reply; true if the deadline passed with no reply. */
    private boolean send(EoCrashExperiment.Child child, String line, long deadline) throws IOException,
            InterruptedException {
        child.send(line);
        sent++;
        String reply = child.await(deadline);
        if (reply == null) {
            return true;
        }
        record(reply);
        return false;
    }

    private void record(String line) {
        String[] f = line.split(" ");
        switch (f[0]) {
            case "ACK" -> {
                if (!acked.add(f[1])) {
                    duplicatesAcked++;
                }
                if (undelivered.remove(f[1])) {
                    delivered.add(f[1]);
                }
                if (f[1].equals(pending)) {
                    pending = null;
                    step("ReceiveAck", f[1]);
                }
            }
            case "PURGED" -> {
                if (purgeSent.remove(f[1])) {
                    step("ReceivePurgeAck", f[1]);
                }
                purged.add(f[1]);
            }
            case "NOACK" -> {
                if (f.length == 3 && f[2].equals("refused")) {
                    refusals++;
                    full = true;
                }
                if (f[1].equals(pending)) {
                    step("Timeout", f[1]); // the Deliver failed: A.4's abort ends the session
                    pending = null;
                    sessionActive = false;
                }
            }
            default -> {
            }
        }
    }

    private EoIdListCrashReport analyze(long t0) {
        Checked c = check(store(), config.q(), acked, purged, purgeSent);
        return new EoIdListCrashReport("client", config.crashes(), config.q(), sent, acked.size(), c.processed(),
                duplicatesAcked, refusals, purged.size(), killedInFlight, c.twice(), c.lost(), c.inconsistent(), c.r(),
                System.currentTimeMillis() - t0);
    }

    /** What the client's store shows: its journal of processings and R, against acks and purges. */
    record Checked(int processed, TreeSet<String> twice, TreeSet<String> lost, List<String> inconsistent,
            TreeSet<String> r) {
    }

    /**
     * Reads the client's store as a restart would and checks it against what the servers saw:
     * {@code acked} (acknowledged ids), {@code purged} (purges the client confirmed) and
     * {@code purgeSent} (purges sent and not confirmed).
     */
    static Checked check(Path store, int q, Set<String> acked, Set<String> purged, Set<String> purgeSent) {
        ClientStore.Contents contents;
        try (ClientStore stored = ClientStore.open(store, ClientStore.journal())) { // recovery, as a restart
            contents = stored.load().orElseThrow(() -> new IllegalStateException("the client never committed to "
                    + store));
        }
        String journal = new String(contents.application(), StandardCharsets.US_ASCII);
        List<String> lines = journal.isEmpty() ? List.of() : List.of(journal.split("\n"));
        Map<String, Integer> times = new LinkedHashMap<>();
        lines.forEach(id -> times.merge(id, 1, Integer::sum));
        TreeSet<String> twice = new TreeSet<>();
        times.forEach((id, n) -> {
            if (n > 1) {
                twice.add(id + " x" + n);
            }
        });
        TreeSet<String> lost = new TreeSet<>(acked);
        lost.removeAll(times.keySet());
        TreeSet<String> r = new TreeSet<>();
        ((ClientStableState.IdList) contents.stable()).r().forEach((NoteId id) -> r.add(id.text()));
        List<String> inconsistent = new ArrayList<>();
        if (r.size() > q) {
            inconsistent.add("R holds " + r.size() + " ids, above q = " + q);
        }
        for (String id : r) {
            if (!times.containsKey(id)) {
                inconsistent.add(id + " is in R but was never processed");
            }
            if (purged.contains(id)) {
                inconsistent.add(id + " is in R after the client confirmed its purge");
            }
        }
        for (String id : times.keySet()) {
            if (!r.contains(id) && !purged.contains(id) && !purgeSent.contains(id)) {
                inconsistent.add(id + " was processed and left R without a purge");
            }
        }
        return new Checked(lines.size(), twice, lost, inconsistent, r);
    }
}
