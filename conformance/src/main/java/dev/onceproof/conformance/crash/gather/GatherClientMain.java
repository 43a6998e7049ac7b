package dev.onceproof.conformance.crash.gather;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ConnectStep;
import dev.onceproof.exactlyonce.ConnectVerdict;
import dev.onceproof.exactlyonce.GatherClient;
import dev.onceproof.exactlyonce.S4Client;
import dev.onceproof.exactlyonce.S5Client;
import dev.onceproof.exactlyonce.S6Client;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.StrategyConfig;
import dev.onceproof.exactlyonce.store.HistoryStore;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeSet;

/**
 * The Strategy 4-6 client as its own JVM, for the crash test, so that killing it mid-connection is
 * a real SIGKILL: {@link S4Client} (no state), {@link S5Client} (T_r as a timer; every start is a
 * reboot that does not know when its last connection ended, so it waits T_r first), or
 * {@link S6Client} with its connect history H in a {@link HistoryStore} (a journal: one fsync per write).
 * The client processes nothing itself here: the aDeliver primitive's application lives at the
 * servers ({@link ProcessedJournal}); what the client contributes is when it may connect and, for
 * Strategy 6, the history it uploads.
 *
 * <p>Lines in: {@code CONNECT <server>}, {@code END} (the connection is over, cleanly or because the
 * server went away). Lines out: {@code ready <history>}, {@code UPLOAD <server> <b64 HistoryUpload | ->}
 * (connected; for Strategy 6 after {@code H[s] := OPEN} is durable), {@code REFUSED <server> <ms>}
 * (Strategy 5: too soon, try again in ms), {@code ENDED <server>} (after the end is durable).
 *
 * <p>Control {@code --control h-at-disconnect}: the {@code H[s] := OPEN} record at connect is not
 * written, so H changes on disk only at a clean end (mutant M6-b): a kill mid-connection leaves
 * the previous end time for s, which tells the next server that a sync from s sent after it holds
 * every delivery of s, although s delivered more in the connection that was killed.
 * {@code --control reboot-forgets-end} (Strategy 5): a restarted client connects at once instead of
 * waiting T_r from its reboot, breaking L221's promise after a kill mid-connection.
 *
 * <p>Step log ({@code --step-log}, Strategy 4; Strategy 5 with {@code --unit --epoch --offsets},
 * T_r in units): Connect and Disconnect, each at the step's one clock reading.
 */
public final class GatherClientMain {

    static final List<String> FLAGS = List.of("--strategy", "--dir", "--tr", "--control", "--step-log",
            "--incarnation", "--unit", "--epoch", "--offsets", "--skew", "--te");

    private GatherClientMain() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> f = Wire.flags(args, FLAGS);
        Strategy strategy = Wire.gatherStrategy(Wire.need(f, "--strategy"));
        Path dir = Files.createDirectories(Path.of(Wire.need(f, "--dir")));
        boolean openNotWritten = f.getOrDefault("--control", "none").equals("h-at-disconnect");
        // Strategy 5's run with step logs keeps spec time: the client's clock is the unit clock with
        // offset 0 (the spec's now), read once per step; T_r is then in units.
        Wire.UnitClock unitClock = f.containsKey("--unit") ? new Wire.UnitClock(Long.parseLong(Wire.need(f, "--epoch")),
                Long.parseLong(f.get("--unit")), 0) : null;
        Wire.Clock ms = new Wire.Clock();
        dev.onceproof.exactlyonce.EoClock clock = unitClock == null ? ms::now : unitClock::now;
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.US_ASCII);
        HistoryStore history = HistoryStore.open(dir.resolve("history"));
        // The step log (issue 21): the client's Connect and Disconnect, each written before the
        // connection's news leaves (UPLOAD, ENDED), so before the server's steps that follow from it.
        GatherStepLog steps = GatherStepLog.OFF;
        if (f.containsKey("--step-log")) {
            if (strategy != Strategy.S4 && unitClock == null) {
                throw new IllegalArgumentException("--step-log: Strategies 5 and 6 write step logs only in spec time "
                        + "(--unit, --epoch, --offsets)");
            }
            steps = GatherStepLog.client(Path.of(f.get("--step-log")), Wire.CLIENT.name(),
                    Integer.parseInt(Wire.need(f, "--incarnation")), unitClock == null ? null
                    : new GatherStepLog.Timed(unitClock, strategy, Wire.offsets(Wire.need(f, "--offsets")),
                            Long.parseLong(Wire.need(f, "--tr")), Long.parseLong(Wire.need(f, "--skew")),
                            Long.parseLong(Wire.need(f, "--te"))));
        }
        long tr = strategy == Strategy.S5 ? Long.parseLong(Wire.need(f, "--tr")) : 0;
        HistoryStore.Loaded loaded = strategy == Strategy.S6 ? history.load() : null;
        // A restart: Strategy 5's client does not know when its last connection ended, so it waits
        // T_r from now; Strategy 6's has the history it stored.
        // Control reboot-forgets-end (Strategy 5): the rebooted client connects at once, as if it
        // knew its last connection ended long ago (mutant MutS5MsgRebootForgetsEnd's client).
        boolean forgetsEnd = f.getOrDefault("--control", "none").equals("reboot-forgets-end");
        if (unitClock != null) {
            // The reboot's reading, which the restart waits T_r from: its line (a stutter, like a
            // server's ServerRecover) is where the validator puts the kill before it (ClientCrash),
            // so the spec's lastEnd is this reading too.
            unitClock.pin();
            steps.client("ClientRecover", null);
            if (loaded != null && loaded.problem().isPresent()) {
                // Strategy 6: the history is UNKNOWN (a fresh device, or a store found absent or
                // corrupt): the spec's ClientLoseH, after which every server pulls from all others.
                steps.client("ClientLoseH", null);
            }
        }
        StrategyConfig.ClientMemory memory = forgetsEnd ? StrategyConfig.ClientMemory.fresh()
                : StrategyConfig.ClientMemory.fresh().withLastEnd(OptionalLong.of(clock.now()));
        GatherClient client = (GatherClient) strategy.config(Wire.CLIENT, new TreeSet<>(), 0).times(tr, 0, 0)
                .client(clock::now, loaded == null ? memory : memory.withHistory(loaded.history()));
        if (unitClock != null) {
            unitClock.unpin();
        }
        String state = switch (strategy) {
            case S5 -> "reboot, waits T_r = " + tr + " ms";
            case S6 -> loaded.history().toString().replace(' ', '_') + loaded.problem().map(p -> " (" + p + ")")
                    .orElse("");
            default -> "none";
        };
        out.println("ready " + state);
        out.flush();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        String line;
        ServerId connected = null;
        while ((line = in.readLine()) != null) {
            String[] w = line.split(" ");
            if (unitClock != null) {
                unitClock.pin(); // the step's one reading (S5Client's T_r test and end time, the line's now)
            }
            if (w[0].equals("CONNECT") && w.length == 2) {
                ServerId s = ServerId.of(w[1]);
                ConnectStep step = client.connectTo(s);
                if (step.verdict() != ConnectVerdict.CONNECTED) {
                    long wait = Math.max(1, step.earliest().orElse(clock.now() + 1) - clock.now())
                            * (unitClock == null ? 1 : unitClock.unit()); // the parent waits in ms
                    out.println("REFUSED " + s.name() + " " + wait);
                } else {
                    connected = s;
                    steps.client("Connect", s.name());
                    String upload = "-";
                    for (ClientEffect e : step.effects()) {
                        if (e instanceof ClientEffect.RecordHistory r && !openNotWritten) {
                            history.save(r); // durable before the upload leaves (ConnectStep's order)
                        } else if (e instanceof ClientEffect.Send send) {
                            upload = Wire.encode(send.message());
                        }
                    }
                    out.println("UPLOAD " + s.name() + " " + upload);
                }
            } else if (w[0].equals("END") && connected != null) {
                steps.client("Disconnect", null);
                for (ClientEffect e : client.endConnection()) {
                    if (e instanceof ClientEffect.RecordHistory r) {
                        history.save(r);
                    }
                }
                out.println("ENDED " + connected.name());
                connected = null;
            } else {
                System.err.println("gather client: ignoring line \"" + line + "\"");
            }
            if (unitClock != null) {
                unitClock.unpin();
            }
            out.flush();
        }
    }
}
