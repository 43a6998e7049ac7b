package dev.onceproof.conformance.crash.gather;

import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.store.GatherServerStore;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The exactly-once crash test for the server-centric Strategies 4-6 (issue 10, real components):
 * three server JVMs ({@link GatherNodeMain}, each with its store and aDeliver journal in its own
 * directory) and a client JVM ({@link GatherClientMain}), killed with SIGKILL at seeded random
 * moments and restarted on their files while the run goes on.
 *
 * <p>This parent is the network: it relays the servers' messages (EoWire frames, one per line)
 * between their pipes, in order per sender, and loses what is addressed to a dead server. Syncs
 * (Strategy 5's periodic, 6's pushed) are the unreliable part: the relay drops a seeded share and
 * delays the rest by up to T_e; D requests and replies go straight through (a gather whose peer is
 * down times out and aborts). It also carries the client's connection: it asks the client to
 * connect to a live server, hands the upload to that server ({@code CONNECT}), ends the connection
 * after a while or when the server is idle or aborts ({@code DISCONNECT} to the server first, then
 * {@code END} to the client, so the client's end time follows the connection's last delivery),
 * and tells each side when the other died. Notes are created in batches at one server while every
 * server is up, and the parent waits until every server stored the batch (atomic replication, notes
 * Z1, as the cores assume).
 *
 * <p>Kills fall mostly on the server that is delivering (where the window between an aDeliver
 * attempt and its outcome is), the rest on a random server, and for Strategy 6 often on the client
 * while it is connected (its H must then show OPEN). After the kills the run settles without kills
 * for a while, then every process is stopped and the journals are compared with what the parent
 * saw ({@link GatherCrashReport}).
 */
public final class GatherCrashExperiment {

    static final List<String> SERVERS = List.of("A", "B", "C");
    private static final String CLIENT = "client";
    private static final int BATCH = 20;
    private static final long GATHER_TIMEOUT = 500;

    private enum ClientState { DEAD, STARTING, IDLE, CONNECTING, CONNECTED, ENDING_SERVER, ENDING_CLIENT }

    private static final class Node {
        ChildJvm jvm;
        boolean alive;
        int incarnations;
        long restartAt = Long.MAX_VALUE;
        boolean killed;
    }

    private record Delayed(long at, long seq, String to, String line) {
    }

    private final GatherCrashConfig config;
    private final Path dir;
    private final PrintStream log;
    private final SplittableRandom random;
    private final BlockingQueue<ChildJvm.Event> events = new LinkedBlockingQueue<>();
    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final PriorityQueue<Delayed> delayed = new PriorityQueue<>((a, b) -> a.at != b.at
            ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    private long delayedSeq;

    // The client's connection.
    private ClientState clientState = ClientState.DEAD;
    private String connectedTo;
    private String lastServer;
    private long connectionEndAt;
    private long nextConnectAt;
    private boolean delivering;
    private long deliveringSince;
    private java.io.Writer eventLog;
    /** Where each process writes its step logs (one file per incarnation), or null: none. */
    private Path stepLogs;
    private boolean stopAtDuplicate;

    // Notes and what the servers said.
    private int created;
    private final Set<String> batchPending = new HashSet<>();
    private final Map<String, String> ackedBy = new TreeMap<>();
    private final TreeSet<String> reattempts = new TreeSet<>();
    /** Server incarnation ("A#3") -> the note of the aDeliver call it printed no outcome for yet. */
    private final Map<String, String> openCalls = new HashMap<>();
    private final List<String> failures = new ArrayList<>();
    private int serverKills;
    private int clientKills;
    private int killsMidCall;
    private int resolvedOk;
    private int resolvedErr;
    private int sessions;
    private int pulls;
    private int gatherAborts;
    private int aDeliverAborts;
    private int tooSoon;
    private int syncsSent;
    private int syncsDropped;
    private int messagesLost;

    public GatherCrashExperiment(GatherCrashConfig config, Path dir, PrintStream log) {
        this.config = config;
        this.dir = dir;
        this.log = log;
        this.random = new SplittableRandom(config.seed());
        for (String s : SERVERS) {
            nodes.put(s, new Node());
        }
    }

    /**
     * For a control run: stop as soon as the journals hold a note twice (checked before each kill),
     * so the run shows the failure in as few kills as it takes; {@code kills} is then the most.
     */
    public GatherCrashExperiment stopAtFirstDuplicate() {
        stopAtDuplicate = true;
        return this;
    }

    /**
     * Each process writes a step log per incarnation into {@code logs} ({@code server-A-1.jsonl},
     * {@code client-1.jsonl}, ...), for trace validation against ExactlyOnceS4Msg (Strategy 4 only).
     */
    public GatherCrashExperiment logSteps(Path logs) {
        this.stepLogs = logs;
        return this;
    }

    /** Strategy 5 with step logs: spec time starts here (the processes' unit clocks read 0). */
    private long epoch;

    /** Strategies 5-6 with step logs keep spec time (units, offsets: {@link GatherCrashConfig#unitTimes}). */
    private boolean specTime() {
        return stepLogs != null && config.strategy() >= 5;
    }

    /**
     * Strategy 6 in spec time: the server whose push sync waits for the client's side of the
     * connection to be over too (the spec's PushSync needs the client away from it): sent PUSH when
     * the client reports ENDED, or after a kill when the client is up again, and not connected to
     * again before it answers PUSHED.
     */
    private String pushTo;
    /**
     * Spec time: the server whose ENDED a killed client's restart waits for, and the downtime drawn.
     * The timed specs end the server's session at the client's crash (EndConnSession), which the
     * validator puts at the restarted client's first line; so the server must have left that session
     * (DISCONNECT handled, ENDED printed) before the client is restarted, or its last session steps
     * would follow the crash in the one order. Found by a run at load 35 in which B took an
     * ADeliverErr after the restarted client's ClientRecover.
     */
    private String restartAfterEnded;
    private long restartDowntime;
    private Node clientNode;
    private final Set<String> pushing = new HashSet<>();

    private List<String> specTimeFlags() {
        return List.of("--unit", String.valueOf(GatherCrashConfig.UNIT_MILLIS), "--epoch", String.valueOf(epoch),
                "--offsets", GatherCrashConfig.OFFSETS);
    }

    public GatherCrashReport run() throws IOException, InterruptedException {
        long t0 = System.currentTimeMillis();
        epoch = t0;
        eventLog = Files.newBufferedWriter(dir.resolve("events.log"));
        for (String s : SERVERS) {
            startServer(s);
        }
        Node client = new Node();
        clientNode = client;
        startClient(client);
        long armedAt = Long.MAX_VALUE;
        long jitter = 0;
        long settleUntil = Long.MAX_VALUE;
        int kills = 0;
        while (System.currentTimeMillis() < settleUntil) {
            ChildJvm.Event ev = events.poll(5, TimeUnit.MILLISECONDS);
            if (ev != null) {
                events(ev);
                handle(ev, client);
            }
            long now = System.currentTimeMillis();
            relayDue(now);
            for (var e : nodes.entrySet()) {
                if (e.getValue().jvm == null && now >= e.getValue().restartAt) {
                    startServer(e.getKey());
                }
            }
            if (client.jvm == null && now >= client.restartAt) {
                startClient(client);
            }
            createNotes();
            driveClient(client, now);
            // The next kill is armed once every process is up again, so each one hits a running
            // system; it waits for the client's server to be delivering (the window between an
            // aDeliver attempt and its outcome) for up to 1.5 s, then kills whatever is up.
            boolean allUp = nodes.values().stream().allMatch(n -> n.alive) && client.jvm != null
                    && clientState != ClientState.STARTING;
            if (!allUp || kills >= config.kills()) {
                armedAt = Long.MAX_VALUE;
            } else if (armedAt == Long.MAX_VALUE) {
                armedAt = now + up();
                jitter = random.nextInt(150);
            }
            if (now >= armedAt && stopAtDuplicate && duplicatesOnDisk() > 0) {
                log.printf("a note is processed twice after %d kills: the control has failed, stopping%n", kills);
                break;
            }
            boolean due = now >= armedAt && batchPending.isEmpty()
                    && ((delivering && now >= deliveringSince + jitter) || now >= armedAt + 1_500);
            if (due && kill(client, now - t0, kills + 1)) {
                kills++;
                armedAt = Long.MAX_VALUE;
                if (kills == config.kills()) {
                    settleUntil = now + config.settleMillis();
                }
            }
        }
        stopAll(client);
        eventLog.close();
        return analyze(System.currentTimeMillis() - t0);
    }

    private long up() {
        return config.minUpMillis() + (long) (random.nextDouble() * (config.maxUpMillis() - config.minUpMillis()));
    }

    // ---- processes ---------------------------------------------------------------------------

    private void startServer(String s) throws IOException {
        Node n = nodes.get(s);
        n.incarnations++;
        pushing.remove(s); // a restart pushes before it is ready (GatherNodeMain)
        long[] t = specTime() ? config.unitTimes() : config.times();
        List<String> args = new ArrayList<>(List.of("--strategy", String.valueOf(config.strategy()), "--self", s,
                "--servers", String.join(",", SERVERS), "--dir", dir.resolve(s).toString(),
                "--seed", String.valueOf(config.seed() * 1_000 + n.incarnations * 10L + SERVERS.indexOf(s)),
                "--tr", String.valueOf(t[0]), "--tu", String.valueOf(t[1]), "--skew", String.valueOf(t[2]),
                "--te", String.valueOf(t[3]), "--gather-timeout", String.valueOf(GATHER_TIMEOUT),
                "--error-percent", String.valueOf(config.errorPercent()),
                "--ack-delay", String.valueOf(config.ackDelayMillis())));
        if (config.control() == GatherCrashConfig.Control.AFTER_CALL
                || config.control() == GatherCrashConfig.Control.RESOLVE_AS_ERROR) {
            args.addAll(List.of("--control", config.control().flag));
        }
        if (config.control() == GatherCrashConfig.Control.H_AT_DISCONNECT || (specTime() && config.strategy() == 6)) {
            // Spec time: no periodic purge sync either (ExactlyOnceS6Msg has only the push).
            // No periodic purge sync (space only): a D flowing every 200 ms closes the window this
            // control needs, a client killed mid-delivery and its server's push sync lost (measured:
            // no duplicate in 40 kills with them, 5-15 kills without).
            args.addAll(List.of("--purge-sync-every", "0"));
        }
        if (specTime()) {
            args.addAll(specTimeFlags());
        }
        if (stepLogs != null) {
            args.addAll(List.of("--step-log", stepLogs.resolve("server-" + s + "-" + n.incarnations + ".jsonl").toString(),
                    "--incarnation", String.valueOf(n.incarnations)));
        }
        n.jvm = ChildJvm.start(s, n.incarnations, GatherNodeMain.class, args, dir.resolve(s + ".log"), events);
        n.alive = false;
        n.killed = false;
        n.restartAt = Long.MAX_VALUE;
    }

    private void startClient(Node client) throws IOException {
        client.incarnations++;
        long[] t = specTime() ? config.unitTimes() : config.times();
        List<String> args = new ArrayList<>(List.of("--strategy", String.valueOf(config.strategy()), "--dir",
                dir.resolve(CLIENT).toString(), "--tr", String.valueOf(t[0])));
        if (specTime()) {
            args.addAll(specTimeFlags());
            args.addAll(List.of("--skew", String.valueOf(t[2]), "--te", String.valueOf(t[3])));
        }
        if (config.control() == GatherCrashConfig.Control.H_AT_DISCONNECT
                || config.control() == GatherCrashConfig.Control.REBOOT_FORGETS_END) {
            args.addAll(List.of("--control", config.control().flag));
        }
        if (stepLogs != null) {
            args.addAll(List.of("--step-log", stepLogs.resolve("client-" + client.incarnations + ".jsonl").toString(),
                    "--incarnation", String.valueOf(client.incarnations)));
        }
        client.jvm = ChildJvm.start(CLIENT, client.incarnations, GatherClientMain.class, args,
                dir.resolve(CLIENT + ".log"), events);
        client.killed = false;
        client.restartAt = Long.MAX_VALUE;
        clientState = ClientState.STARTING;
    }

    /** One SIGKILL; false if there was no one to kill right now (all servers restarting). */
    private boolean kill(Node client, long at, int number) throws InterruptedException, IOException {
        boolean clientConnected = clientState == ClientState.CONNECTED && client.jvm != null;
        if (clientConnected && random.nextInt(100) < config.clientKillPercent()) {
            client.killed = true;
            eventLog.write(System.currentTimeMillis() % 100_000 + " parent SIGKILL client#" + client.incarnations + "\n");
            client.jvm.kill();
            client.jvm = null;
            client.restartAt = System.currentTimeMillis() + 50 + random.nextInt(200);
            clientKills++;
            String s = connectedTo;
            clientState = ClientState.DEAD;
            connectedTo = null;
            sendTo(s, "DISCONNECT"); // the server notices the connection drop
            if (specTime() && s != null && nodes.get(s).alive) {
                restartAfterEnded = s;
                restartDowntime = client.restartAt - System.currentTimeMillis();
                client.restartAt = Long.MAX_VALUE;
            }
            if (specTime() && config.strategy() == 6) {
                pushTo = s; // once the client is up again
            }
            log.printf("kill %2d at +%d ms: client (connected to %s)%s%n", number, at, s, tally());
            return true;
        }
        List<String> alive = SERVERS.stream().filter(s -> nodes.get(s).alive).toList();
        if (alive.isEmpty()) {
            return false;
        }
        String victim = delivering && connectedTo != null && nodes.get(connectedTo).alive && random.nextInt(4) != 0
                ? connectedTo : alive.get(random.nextInt(alive.size()));
        Node n = nodes.get(victim);
        n.killed = true;
        eventLog.write(System.currentTimeMillis() % 100_000 + " parent SIGKILL " + victim + "#" + n.incarnations + "\n");
        n.jvm.kill();
        n.jvm = null;
        n.alive = false;
        n.restartAt = System.currentTimeMillis() + 50 + random.nextInt(200);
        serverKills++;
        if (victim.equals(restartAfterEnded)) {
            releaseClientRestart(); // its session died with it, before the client's restart
        }
        boolean wasConnected = victim.equals(connectedTo);
        log.printf("kill %2d at +%d ms: server %s%s%s%n", number, at, victim,
                wasConnected ? (delivering ? " (delivering to the client)" : " (client connected)") : "", tally());
        if (wasConnected) {
            serverGone(client);
        }
        return true;
    }

    private int duplicatesOnDisk() {
        return ProcessedJournal.where(dir, SERVERS).values().stream().mapToInt(at -> at.size() - 1).sum();
    }

    /** The processings on disk now, across the servers (the parent's count after every kill). */
    private String tally() {
        Map<String, List<String>> where = ProcessedJournal.where(dir, SERVERS);
        return "; processed so far " + where.values().stream().mapToInt(List::size).sum() + " (" + where.size()
                + " notes)";
    }

    private void stopAll(Node client) throws InterruptedException {
        if (client.jvm != null) {
            client.jvm.stop();
        }
        for (Node n : nodes.values()) {
            if (n.jvm != null) {
                n.jvm.stop();
            }
        }
        List<ChildJvm.Event> rest = new ArrayList<>();
        events.drainTo(rest);
        for (ChildJvm.Event ev : rest) {
            if (ev.line() != null && !ev.name().equals(CLIENT)) {
                serverLine(ev.name() + "#" + ev.incarnation(), ev.line(), null);
            }
        }
    }

    // ---- what the processes print -------------------------------------------------------------

    /** Every line every process printed, timed, in the order the parent read them (events.log). */
    private void events(ChildJvm.Event ev) throws IOException {
        eventLog.write(System.currentTimeMillis() % 100_000 + " " + ev.name() + "#" + ev.incarnation() + " "
                + (ev.line() == null ? "<exit>" : ev.line().length() > 80 ? ev.line().substring(0, 80) + "..." : ev.line())
                + "\n");
    }

    private void handle(ChildJvm.Event ev, Node client) throws IOException {
        if (ev.name().equals(CLIENT)) {
            if (client.jvm == null || ev.incarnation() != client.jvm.incarnation()) {
                return; // a line from a killed incarnation, printed before it died: nothing to do
            }
            if (ev.line() == null) {
                failures.add("the client exited unexpectedly (see " + dir.resolve(CLIENT + ".log") + ")");
                client.jvm = null;
                client.restartAt = System.currentTimeMillis();
                clientState = ClientState.DEAD;
                return;
            }
            clientLine(ev.line(), client);
            return;
        }
        Node n = nodes.get(ev.name());
        boolean current = n.jvm != null && ev.incarnation() == n.jvm.incarnation();
        if (ev.line() == null) {
            if (current) {
                failures.add("server " + ev.name() + " exited unexpectedly (see " + dir.resolve(ev.name() + ".log") + ")");
                if (ev.name().equals(restartAfterEnded)) {
                    releaseClientRestart();
                }
                n.jvm = null;
                n.alive = false;
                n.restartAt = System.currentTimeMillis();
                if (ev.name().equals(connectedTo)) {
                    serverGone(client);
                }
            } else if (openCalls.remove(ev.name() + "#" + ev.incarnation()) != null) {
                killsMidCall++; // the killed incarnation had called aDeliver and printed no outcome
            }
            return;
        }
        serverLine(ev.name() + "#" + ev.incarnation(), ev.line(), current ? client : null);
    }

    /** A server's line; {@code client} is null for lines of a dead incarnation (they still count). */
    private void serverLine(String incarnation, String line, Node client) {
        String s = incarnation.substring(0, incarnation.indexOf('#'));
        Node n = nodes.get(s);
        String[] f = line.split(" ");
        switch (f[0]) {
            case "ready" -> n.alive = client != null;
            case "RESOLVED" -> {
                if (f[2].equals("ok")) {
                    resolvedOk++;
                } else {
                    resolvedErr++;
                }
            }
            case "SEND" -> {
                if (client != null) {
                    relay(f[1], f[2]);
                }
            }
            case "STORED" -> batchPending.remove(s + " " + f[1]);
            case "SESSION" -> {
                sessions++;
                pulls += Integer.parseInt(f[2]);
            }
            case "DELIVERING" -> {
                if (client != null && s.equals(connectedTo)) {
                    delivering = true;
                    deliveringSince = System.currentTimeMillis();
                }
            }
            case "CALL" -> {
                openCalls.put(incarnation, f[1]);
                if (ackedBy.containsKey(f[1])) {
                    reattempts.add(f[1] + " at " + s + " after its success at " + ackedBy.get(f[1]));
                }
            }
            case "DELIVERED" -> {
                openCalls.remove(incarnation);
                ackedBy.putIfAbsent(f[1], s);
            }
            case "ABORT" -> {
                if (f[1].equals("gather")) {
                    gatherAborts++;
                } else {
                    aDeliverAborts++;
                    openCalls.remove(incarnation);
                }
                if (client != null && s.equals(connectedTo) && clientState == ClientState.CONNECTED) {
                    connectionEndAt = 0; // the session is over: end the connection
                }
            }
            case "IDLE" -> {
                if (client != null && s.equals(connectedTo) && clientState == ClientState.CONNECTED) {
                    connectionEndAt = 0;
                }
            }
            case "PUSHED" -> pushing.remove(s);
            case "ENDED" -> {
                if (s.equals(restartAfterEnded)) {
                    releaseClientRestart();
                }
                if (client != null && s.equals(connectedTo) && clientState == ClientState.ENDING_SERVER) {
                    client.jvm.send("END");
                    clientState = ClientState.ENDING_CLIENT;
                }
            }
            default -> {
            }
        }
    }

    private void clientLine(String line, Node client) {
        String[] f = line.split(" ");
        switch (f[0]) {
            case "ready" -> {
                clientState = ClientState.IDLE;
                nextConnectAt = System.currentTimeMillis();
                push(pushTo);
                pushTo = null;
            }
            case "UPLOAD" -> {
                if (clientState != ClientState.CONNECTING) {
                    return;
                }
                if (nodes.get(f[1]).alive && sendTo(f[1], "CONNECT " + f[2])) {
                    clientState = ClientState.CONNECTED;
                    connectionEndAt = System.currentTimeMillis() + 150 + random.nextInt(450);
                    delivering = false;
                } else {
                    client.jvm.send("END"); // the server went away before the connection got going
                    clientState = ClientState.ENDING_CLIENT;
                }
            }
            case "REFUSED" -> {
                tooSoon++;
                clientState = ClientState.IDLE;
                connectedTo = null;
                nextConnectAt = System.currentTimeMillis() + Long.parseLong(f[2]);
            }
            case "ENDED" -> {
                clientState = ClientState.IDLE;
                if (specTime() && config.strategy() == 6) {
                    push(f.length > 1 ? f[1] : connectedTo);
                }
                connectedTo = null;
                delivering = false;
                // A pause of 30-130 ms, longer than Strategy 6's margin 2 skew + T_e = 24 ms, so that a
                // server's D reply can be fresh for the previous connection's end time.
                nextConnectAt = System.currentTimeMillis() + 30 + random.nextInt(100);
            }
            default -> {
            }
        }
    }

    /** The killed client may be restarted now: its server left the session, or died. */
    private void releaseClientRestart() {
        restartAfterEnded = null;
        clientNode.restartAt = System.currentTimeMillis() + restartDowntime;
    }

    /** Strategy 6 in spec time: the push sync of {@code s}, now that the client is away from it. */
    private void push(String s) {
        if (s != null && sendTo(s, "PUSH")) {
            pushing.add(s);
        }
    }

    /** The server the client is connected to died: the client notices and ends its side. */
    private void serverGone(Node client) {
        delivering = false;
        if (client.jvm != null && (clientState == ClientState.CONNECTED || clientState == ClientState.ENDING_SERVER
                || clientState == ClientState.CONNECTING)) {
            client.jvm.send("END");
            clientState = ClientState.ENDING_CLIENT;
        }
    }

    private void driveClient(Node client, long now) {
        if (client.jvm == null) {
            return;
        }
        if (clientState == ClientState.IDLE && now >= nextConnectAt) {
            // A roaming client: the next connection is to another live server than the last one,
            // if there is one (uniformly among them).
            List<String> alive = SERVERS.stream().filter(s -> nodes.get(s).alive && !pushing.contains(s)).toList();
            List<String> moved = alive.stream().filter(s -> !s.equals(lastServer)).toList();
            if (!alive.isEmpty()) {
                List<String> choice = moved.isEmpty() ? alive : moved;
                connectedTo = choice.get(random.nextInt(choice.size()));
                lastServer = connectedTo;
                client.jvm.send("CONNECT " + connectedTo);
                clientState = ClientState.CONNECTING;
            }
        } else if (clientState == ClientState.CONNECTED && now >= connectionEndAt) {
            sendTo(connectedTo, "DISCONNECT");
            clientState = ClientState.ENDING_SERVER;
        }
    }

    // ---- notes and the network ---------------------------------------------------------------

    /** A batch at one server when few notes are left and every server is up to store the replicas. */
    private void createNotes() {
        if (!batchPending.isEmpty() || created - ackedBy.size() >= BATCH / 2
                || !nodes.values().stream().allMatch(n -> n.alive)) {
            return;
        }
        String origin = SERVERS.get(random.nextInt(SERVERS.size()));
        for (int i = 0; i < BATCH; i++) {
            String id = "n" + (++created);
            for (String s : SERVERS) {
                batchPending.add(s + " " + id);
            }
            sendTo(origin, "NOTE " + id);
        }
    }

    private void relay(String to, String b64) {
        EoMessage m = Wire.decode(b64);
        if (m instanceof EoMessage.DSync) {
            syncsSent++;
            if (random.nextInt(100) < config.syncLossPercent()) {
                syncsDropped++;
                return;
            }
            long te = config.times()[3];
            delayed.add(new Delayed(System.currentTimeMillis() + (te == 0 ? 0 : random.nextLong(te + 1)), delayedSeq++,
                    to, "RECV " + b64));
            return;
        }
        if (!sendTo(to, "RECV " + b64)) {
            // A lost replica, ack or commit only delays its note: the replication round resends it
            // with the next sync, and no server delivers a note before every server stored it.
            messagesLost++;
        }
    }

    private void relayDue(long now) {
        while (!delayed.isEmpty() && delayed.peek().at() <= now) {
            Delayed d = delayed.poll();
            if (!sendTo(d.to(), d.line())) {
                messagesLost++;
            }
        }
    }

    /** A line to a live server; false (lost) if it is dead or restarting. */
    private boolean sendTo(String s, String line) {
        Node n = nodes.get(s);
        return n.alive && n.jvm != null && n.jvm.send(line);
    }

    // ---- the verdict -------------------------------------------------------------------------

    private GatherCrashReport analyze(long millis) {
        Map<String, List<String>> where = ProcessedJournal.where(dir, SERVERS);
        int lines = where.values().stream().mapToInt(List::size).sum();
        TreeSet<String> twice = new TreeSet<>();
        where.forEach((id, at) -> {
            if (at.size() > 1) {
                twice.add(id + " x" + at.size() + " at " + String.join(",", at));
            }
        });
        TreeSet<String> lost = new TreeSet<>();
        ackedBy.forEach((id, s) -> {
            if (!where.getOrDefault(id, List.of()).contains(s)) {
                lost.add(id + " (acknowledged by " + s + ")");
            }
        });
        return new GatherCrashReport(config.strategy(), config.control().flag, serverKills, clientKills, killsMidCall,
                resolvedOk, resolvedErr, millis, created, lines, ackedBy.size(), sessions, pulls, gatherAborts,
                aDeliverAborts, tooSoon, syncsSent, syncsDropped, messagesLost, created - where.size(), largestK(), twice,
                lost, reattempts, failures);
    }

    /** The most notes a server's K holds, as its store recovers it after the run (all stopped). */
    private int largestK() {
        int most = 0;
        for (String s : SERVERS) {
            try (GatherServerStore store = GatherServerStore.open(dir.resolve(s).resolve("server-journal"))) {
                most = Math.max(most, store.load().k().size());
            }
        }
        return most;
    }

    /**
     * A directory per server and for the client under {@code dir}, which must not hold an earlier
     * run's files (their journals would count as this run's processings).
     */
    public static Path prepare(Path dir) throws IOException {
        Files.createDirectories(dir);
        for (String s : SERVERS) {
            Path journal = dir.resolve(s).resolve("processed");
            if (Files.exists(journal)) {
                throw new IllegalArgumentException(dir + " already holds a run's files (" + journal
                        + "); give an empty or new directory");
            }
            Files.createDirectories(dir.resolve(s));
        }
        Files.createDirectories(dir.resolve(CLIENT));
        return dir;
    }
}
