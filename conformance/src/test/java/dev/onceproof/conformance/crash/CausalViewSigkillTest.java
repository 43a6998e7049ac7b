package dev.onceproof.conformance.crash;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.causal.EventId;
import dev.onceproof.causal.Mode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.runtime.DeliveryAudit;
import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.Validation;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The causal view change with a real process kill (issue 19 item 3, issue 21 items 3 and 4): three
 * node JVMs ({@link CausalViewNodeMain}) on loopback, 5% of datagrams lost and 5% handled twice on
 * receipt, n1 coordinating with a failure detector that suspects n3 after 500 ms of silence (300 ms,
 * as ViewChangeRun's, at times suspected n3 while its JVM was still starting at load 12). Each
 * broadcasts at 40/s, n1 and n2 ten events, n3 thirty; n3 is killed with SIGKILL once it has broadcast
 * six, mid-traffic.
 * n1 suspects it, n1 and n2 report, the coordinator decides, they forward and install the view
 * without n3, and each broadcasts six more events; the run ends once both delivered every
 * survivor's event and their stores are empty (garbage collection went on past n3's row).
 *
 * <p>The survivors' network delays n3's events above seq 3 until the survivor has reported, so
 * those events (in flight when n3 died) arrive frozen: neither survivor reported them, so the flush
 * did not agree on them and they must never be delivered. The four step logs (n3's counting up to
 * the kill: it has no Crash line, it just stops) are a behaviour of CausalMembership.tla.
 *
 * <p>The control: the same run with both survivors' cores without the freeze
 * ({@link NoFreezeCausalViewNodeMain}, the {@code heldBack} seam) is rejected at a survivor's Deliver
 * of one of those events of n3.
 */
class CausalViewSigkillTest {

    private static final int NODES = 3;
    private static final int VICTIM = 2;
    private static final int BEFORE = 10;
    private static final int AFTER = 6;
    /**
     * n3 is killed once it has broadcast this many of its VICTIM_BEFORE, which it would take 0.75 s
     * to send: this test reads n3's stdout late under load (n1 and n2 sent all of theirs by then at
     * times), and n3's own traffic keeps the kill mid-run.
     */
    private static final int KILL_AT = 6;
    private static final int VICTIM_BEFORE = 30;
    private static final int DELAY_ABOVE = 3;

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path dir;

    @Test
    @Timeout(120)
    void aSigkilledNodeIsRemovedAndTheLogsOfAllFourAreABehaviourOfCausalMembership() throws Exception {
        Run r = run(dir.resolve("real"), CausalViewNodeMain.class, 1, true);
        Set<NodeId> survivors = Set.of(NodeId.of(0), NodeId.of(1));
        DeliveryAudit.Result audit = DeliveryAudit.check(Mode.CAUSAL, r.delivered, survivors);
        System.out.println("audit " + audit);
        assertThat(audit.violations()).isEmpty();
        assertThat(audit.ok()).isTrue();
        // Nobody delivered a frozen event: both survivors delivered the same of n3, all at most DELAY_ABOVE.
        List<Long> ofX1 = ofVictim(r.delivered.get(NodeId.of(0)));
        assertThat(ofVictim(r.delivered.get(NodeId.of(1)))).isEqualTo(ofX1);
        assertThat(ofX1).allMatch(s -> s <= DELAY_ABOVE);
        String victim = Files.readString(r.logs.get(VICTIM));
        assertThat(victim).doesNotContain("\"action\":\"Crash\"");
        assertThat(Files.readString(r.logs.get(NODES))).contains("\"Suspect\"", "\"DecideView\"");
        for (int k = 0; k < VICTIM; k++) {
            assertThat(Files.readString(r.logs.get(k))).contains("\"InstallView\"", "\"CollectGarbage\"");
        }
        long t0 = System.nanoTime();
        Validation v = TestValidators.IN_JVM.validate(r.logs);
        System.out.printf("SIGKILL view change: %s; lines per log %s; validated in %.1f s%n", v.summary(),
                lines(r.logs), (System.nanoTime() - t0) / 1e9);
        assertThat(v.accepted()).as("%s", v.report()).isTrue();
        assertThat(v.spec()).isEqualTo("CausalMembership");
        // How the stored regression run (validate/causal/sigkill-view-seed1) was made: -Dcausal.keepLogs=DIR.
        String keep = System.getProperty("causal.keepLogs");
        if (keep != null) {
            Files.createDirectories(Path.of(keep));
            for (Path f : r.logs) {
                Files.copy(f, Path.of(keep).resolve(f.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    @Test
    @Timeout(120)
    void survivorsWithoutTheFreezeAreRejectedAtTheirDeliveryOfAFrozenEvent() throws Exception {
        Run r = run(dir.resolve("broken"), NoFreezeCausalViewNodeMain.class, 1, false);
        // The defect happened: a survivor's log delivers an event of n3 after its report (the delayed
        // ones; or, if n3 was slow to start and suspected before the kill, a later one it sent alive).
        assertThat(deliversAfterReport(r.logs.get(0)) || deliversAfterReport(r.logs.get(1)))
                .as("a broken survivor delivered an event of n3 after its FlushReport").isTrue();
        Validation v = TestValidators.IN_JVM.validate(r.logs);
        System.out.println("Control, no freeze after a SIGKILL:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection()).as("%s", v.report()).isNotNull();
        assertThat(v.rejection().tried()).hasSize(1);
        assertThat(v.rejection().tried().get(0).text())
                .contains("\"action\":\"Deliver\"", "\"origin\":\"n3\"").containsPattern("\"node\":\"n[12]\"");
    }

    /** What a run left: each node's deliveries (n3's up to the kill) and the four step logs. */
    record Run(Map<NodeId, List<EventId>> delivered, List<Path> logs) {
    }

    /**
     * Three node JVMs of {@code main}; n3 killed at its KILL_AT-th broadcast. With {@code complete}
     * the run waits (up to 30 s) until both survivors are done, delivered all of each other's events
     * and hold an empty store; otherwise until both installed the view (up to 10 s).
     */
    static Run run(Path logs, Class<?> main, long seed, boolean complete) throws Exception {
        Files.createDirectories(logs);
        List<String> peers = freePorts();
        List<Process> procs = new ArrayList<>();
        List<Node> nodes = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        try {
            for (int k = 0; k < NODES; k++) {
                Path log = logs.resolve("n" + (k + 1) + ".jsonl");
                files.add(log);
                List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m",
                        "-cp", System.getProperty("java.class.path"), main.getName(),
                        "--self", "" + k, "--peers", String.join(",", peers), "--step-log", log.toString(),
                        "--before", "" + (k == VICTIM ? VICTIM_BEFORE : BEFORE), "--after", "" + AFTER, "--rate", "40", "--loss", "0.05", "--seed", "" + seed,
                        "--suspect", "" + VICTIM, "--suspect-after-ms", "500", "--delay-above", "" + DELAY_ABOVE));
                if (k == 0) {
                    cmd.addAll(List.of("--coordinator-log", logs.resolve("coordinator.jsonl").toString()));
                }
                Process p = new ProcessBuilder(cmd).redirectError(logs.resolve("n" + (k + 1) + ".err").toFile()).start();
                procs.add(p);
                nodes.add(new Node(p, NodeId.of(k)));
            }
            files.add(logs.resolve("coordinator.jsonl"));
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            waitFor(() -> nodes.stream().allMatch(s -> s.listening), until, "every node listening", 5);
            for (Node s : nodes) {
                s.send("go");
            }
            Node victim = nodes.get(VICTIM);
            waitFor(() -> victim.own() >= KILL_AT, until, "n3 broadcast " + KILL_AT, 1);
            // SIGKILL through the handle: Process.destroyForcibly() would also close our end of its stdout.
            long killedAt = System.nanoTime();
            procs.get(VICTIM).toHandle().destroyForcibly();
            assertThat(procs.get(VICTIM).waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(procs.get(VICTIM).exitValue()).isEqualTo(137);
            long ownAtKill = victim.own();
            System.out.println("SIGKILLed n3 after it broadcast " + ownAtKill + " of its " + VICTIM_BEFORE + " events");
            assertThat(ownAtKill).as("killed mid-run").isLessThan(VICTIM_BEFORE);
            List<Node> alive = nodes.subList(0, VICTIM);
            if (complete) {
                long all = (long) alive.size() * (BEFORE + AFTER);
                waitFor(() -> alive.stream().allMatch(s -> s.done && s.fromSurvivors() == all && s.emptyStore()),
                        until, "both survivors done, every survivor event delivered, stores empty", 20);
            } else {
                waitFor(() -> alive.stream().allMatch(s -> s.installed), System.nanoTime() + TimeUnit.SECONDS.toNanos(10),
                        "both survivors installed", 20);
                // A grace for the datagrams still in flight at the install (the last INSTALLED, late
                // copies) to be handled and logged before stdin closes and the nodes exit. It only
                // makes the logs fuller: a survivor's log cut anywhere is a prefix the validator
                // takes, and the control's rejection lies before the install.
                Thread.sleep(200);
            }
            for (Node s : alive) {
                s.process.getOutputStream().close();
            }
            // The kill set the removal off, not a slow start: no survivor's "reported" line came before
            // it (read here a little after it is printed, so a sanity check, not a proof; the detector's
            // 500 ms is what keeps a report before the kill out).
            for (Node s : alive) {
                assertThat(s.reportedAt).as("%s reported after the kill", s.id).isGreaterThan(killedAt);
                assertThat(s.installedAt).isGreaterThan(s.reportedAt);
            }
            System.out.printf("survivors reported %d and %d ms after the kill, installed %d and %d ms after%n",
                    ms(alive.get(0).reportedAt - killedAt), ms(alive.get(1).reportedAt - killedAt),
                    ms(alive.get(0).installedAt - killedAt), ms(alive.get(1).installedAt - killedAt));
            for (Node s : alive) {
                assertThat(s.process.waitFor(10, TimeUnit.SECONDS)).isTrue();
                assertThat(s.process.exitValue()).as("%s's exit", s.id).isZero();
                s.reader.join(2000);
            }
            Map<NodeId, List<EventId>> delivered = new LinkedHashMap<>();
            for (Node s : nodes) {
                delivered.put(s.id, s.snapshot());
            }
            return new Run(delivered, files);
        } finally {
            procs.forEach(Process::destroyForcibly);
        }
    }

    /** One node's process and what its stdout said. */
    private static final class Node {
        final Process process;
        final NodeId id;
        final List<EventId> log = Collections.synchronizedList(new ArrayList<>());
        final Thread reader;
        volatile boolean listening;
        volatile boolean installed;
        /** When this test read the node's "reported" and "installed" lines (System.nanoTime()). */
        volatile long reportedAt;
        volatile long installedAt;
        volatile boolean done;
        volatile int stored = -1;
        private final Writer in;

        Node(Process process, NodeId id) {
            this.process = process;
            this.id = id;
            this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            this.reader = new Thread(this::read, id + "-stdout");
            reader.setDaemon(true);
            reader.start();
        }

        private void read() {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    String[] f = line.split(" ");
                    if (f[0].equals("D")) {
                        log.add(EventId.of(Integer.parseInt(f[1]), Long.parseLong(f[2])));
                    } else if (f[0].equals("listening")) {
                        listening = true;
                    } else if (f[0].equals("reported")) {
                        reportedAt = System.nanoTime();
                    } else if (f[0].equals("installed")) {
                        installedAt = System.nanoTime();
                        installed = true;
                    } else if (f[0].equals("done")) {
                        done = true;
                    } else if (f[0].equals("status")) {
                        stored = Integer.parseInt(f[1].substring("stored=".length()));
                    }
                }
            } catch (java.io.IOException e) {
                // The process died (n3) or closed its stdout: what was read stays.
            }
        }

        long own() {
            return snapshot().stream().filter(e -> e.origin().equals(id)).count();
        }

        long fromSurvivors() {
            return snapshot().stream().filter(e -> e.origin().index() != VICTIM).count();
        }

        /** Asks for a status and reports the last one seen: a store emptied, after which the next answer comes. */
        boolean emptyStore() {
            return send("status") && stored == 0;
        }

        boolean send(String line) {
            try {
                in.write(line + "\n");
                in.flush();
                return true;
            } catch (java.io.IOException e) {
                return false;
            }
        }

        List<EventId> snapshot() {
            synchronized (log) {
                return List.copyOf(log);
            }
        }
    }

    private static void waitFor(java.util.function.BooleanSupplier cond, long until, String what, long everyMillis)
            throws InterruptedException {
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(everyMillis);
        }
    }

    /** Three loopback UDP ports free a moment ago (bound, read, closed), as HOST:PORT. */
    private static List<String> freePorts() throws java.net.SocketException {
        List<DatagramSocket> held = new ArrayList<>();
        List<String> out = new ArrayList<>();
        try {
            for (int k = 0; k < NODES; k++) {
                DatagramSocket s = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                held.add(s);
                out.add(InetAddress.getLoopbackAddress().getHostAddress() + ":" + s.getLocalPort());
            }
        } finally {
            held.forEach(DatagramSocket::close);
        }
        return out;
    }

    private static long ms(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }

    private static boolean deliversAfterReport(Path log) throws java.io.IOException {
        boolean reported = false;
        for (String line : Files.readAllLines(log)) {
            reported |= line.contains("\"action\":\"FlushReport\"");
            if (reported && line.contains("\"action\":\"Deliver\"") && line.contains("\"origin\":\"n3\"")) {
                return true;
            }
        }
        return false;
    }

    private static List<Long> ofVictim(List<EventId> log) {
        return new ArrayList<>(new TreeSet<>(log.stream().filter(e -> e.origin().index() == VICTIM).map(EventId::seq).toList()));
    }

    private static List<Long> lines(List<Path> logs) throws java.io.IOException {
        List<Long> out = new ArrayList<>();
        for (Path p : logs) {
            try (var s = Files.lines(p)) {
                out.add(s.count());
            }
        }
        return out;
    }
}
