package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The logs of the Strategy 4 SIGKILL run (GatherCrashExperiment: three server JVMs and a client JVM,
 * one log per incarnation, header constant {@code incarnation}) as one sequence of lines for
 * TraceExactlyOnceS4.tla.
 *
 * <p><b>Incarnations.</b> A process's incarnations are joined in order with the crash each kill was
 * (ServerCrash of the server, ClientCrash), placed just before the restart's first line. A server
 * incarnation begins with ServerRecover, which TLC checks against the spec's K and D after the crash.
 * The killed incarnation's last line is marked {@code cut}: TLC may take it or drop it (SkipCut).
 * Why only that line, and why dropping it is sound: the node is one thread and commits each step's
 * record before it starts the next, and it writes a step's line under the lock before the record is
 * appended and before anything the step sends leaves; so only the last step can be one that never
 * took effect, and then no other process saw anything of it. If it did take effect, the branch that
 * drops it fails at ServerRecover (its K or D) or at the line of the process that needed its message.
 * One exception: the ADeliverOK line, written before the processing is appended to the primitive's
 * journal, whose effect (the client's processing) is not in the server's store. It is droppable only
 * when the restart's ServerRecover names its note among the open calls the journal does not hold
 * ({@code unprocessed}, the journal's own answer, not the core's); otherwise a processing would
 * vanish from the log and a second one pass.
 *
 * <p><b>One order.</b> Every line carries {@code at}, the machine's wall clock in microseconds when
 * it was written. A line is written before its step's effects leave its process, and a step that
 * depends on another process's step reads those effects first (through the parent's pipes), so
 * ordering all lines by {@code at} gives an order consistent with happens-before, and each process's
 * lines stay in their own order (the clock does not go back within a run; a run during which the
 * system clock is stepped back can be rejected, never wrongly accepted: TLC still checks every line
 * of the one order). Checking that one order instead of letting TLC interleave four processes keeps
 * the search to about one state per line: with one cursor per process TLC would explore every
 * interleaving of the servers' independent syncs.
 *
 * <p><b>Why no other order could pass where this one fails</b> (issue 21 item 3). Happens-before
 * here is: each process's lines in order (a kill after the killed incarnation's lines, before the
 * restart's); a receipt after its send (RecvPurgeSync after the SendPurgeSync of that DSync, ReplyD
 * after its ReqD, RecvD after its ReplyD, StoreReplica after the origin's CreateNote); and the
 * parent's relaying (GatherCrashExperiment): StartSession after the client's Connect to that
 * server (CONNECT is relayed from the client's UPLOAD), the client's Disconnect after every line its
 * server wrote while it was connected (DISCONNECT goes to the server and END to the client only
 * after the server's ENDED, or after the server was killed), and a batch's CreateNote after every
 * StoreReplica of the batches before (the parent waits for every STORED). Any two orders that keep
 * it are joined by swaps of adjacent lines of two processes that it leaves unordered, and TLC's
 * acceptance is "the set of spec states that take each prefix is never empty" (each line is one
 * TraceStep, no step without a line), so it suffices that such a swap leaves that set alike, up to
 * differences no later line can tell apart. The spec's variables, by who writes and reads them:
 * <ul>
 *   <li>a server's own (its K, D, sess, seen, entered, known, knownK, knownSeen), and the trace's
 *       sidOf (a session's id, read by a ReplyD, which comes after the session's ReqD): written and
 *       read by that server's lines only, with the exception of CreateNote, below;</li>
 *   <li>the networks snet and pnet: a send adds a message and a receipt needs it there, and with
 *       AllowDup (the validator's constant) a receipt leaves it; loss is not a step of the trace.
 *       So they only grow, two sends commute, and a receipt is enabled alike before or after another
 *       process's send of a different message (the one it needs comes before it);</li>
 *   <li>the client's conn and connId (and the ghost delivered, appended by ADeliverOK): written by
 *       the client's Connect, Disconnect and ClientCrash, read by a server's StartSession and
 *       aDeliver (Live). Every such server line is between the Connect that opened its connection
 *       and the Disconnect that ended it, so no order puts another connection around it, and two
 *       ADeliverOK lines (of two connections) are ordered;</li>
 *   <li>created and the notes' numbers: the validator takes NoteIds from this order's CreateNote
 *       lines, and every CreateNote is ordered (one origin per batch, batches in order), so NoteIds
 *       and every server's numbering are the same in every order. A CreateNote also puts the note
 *       into the other servers' K, seen and entered at once, where their lines see it only after
 *       their StoreReplica: a line of such a server t before or after the CreateNote is checked
 *       alike (the trace variable unstored makes up the difference), and what differs in the
 *       states is a DSync t sends meanwhile (with the note and seen + 1, or without), the reports
 *       taken from it, and a session's common started meanwhile; the note is the newest, numbered
 *       above the DSync's seen, and in no D, so RecvPurgeSync accepts either form and no purge rule
 *       reads either differently (TraceExactlyOnceS4's header). aDeliver's bound MayReceive reads
 *       created too, and holds alike at an ADeliverOK of a note not processed before;</li>
 *   <li>lastAction and faults: outside the VIEW, lastAction read only as the step's own, faults
 *       below MaxFaults (set above the run's count) in every order;</li>
 *   <li>the inserted ServerCrash (ServerCrashM or IdleCrashM) and a dropped cut line (SkipCut)
 *       touch the killed server's variables alone.</li>
 * </ul>
 * One case is not covered: a killed client. The parent sends DISCONNECT to the server right after
 * the kill, and the server may still take an aDeliver before it reads that; the client's ClientCrash
 * is placed at its restart's first line (50-250 ms later and a JVM start), which nothing forces after
 * those lines, and an order with ClientCrash before such an ADeliverOK is rejected (Live). Strategy
 * 4's runs kill only servers (GatherCrashConfig.standard: clientKillPercent 0); with {@code
 * --client-kills} the risk is a rejection of a correct run, never an acceptance of a wrong one
 * (restarting the client only after its server's ENDED would close it). The argument is Strategy
 * 4's; for the timed Strategies 5 and 6, see below. The control is KillRunReorderTest: random orders of a stored run that keep
 * happens-before, all accepted, and a receipt moved before its send, rejected there.
 *
 * <p><b>Strategies 5 and 6</b> (GatherTimedKillRun): lines also carry {@code now}, the spec time the
 * step read once at its start; the order is by (now, at), consistent with happens-before (a line
 * read its clock no later than it was written, and a receipt's step reads it after the message
 * came). The timed specs' {@code now} only grows, so an order that puts a larger {@code now} before
 * a smaller one is a behaviour of no timed spec: the orders to compare with the merge's are the
 * happens-before orders in which {@code now} never goes back, and those differ from it by swaps of
 * adjacent lines of two processes with the same {@code now}, between the same two Tick lines. For
 * such swaps the case analysis above applies as it stands to the variables the timed specs share
 * with Strategy 4; the variables they add (the client's lastEnd, Strategy 6's history H) are written
 * by the client's lines and read by a server only at its StartSession, which happens-before orders
 * after the Connect as it orders conn. KillRunReorderTest draws its orders from Strategy 4's stored
 * run only; the timed runs have no reorder control of their own.
 */
final class GatherKillRun {

    private GatherKillRun() {
    }

    /** Whether these are the kill run's logs (a header names its incarnation). */
    static boolean isKillRun(List<StepLogFile> logs) {
        return logs.stream().anyMatch(l -> l.constants().has("incarnation"));
    }

    /** {@code now}: Strategy 5's spec time of the line (GatherTimedKillRun), 0 for Strategy 4's. */
    private record Timed(long now, long at, int process, int index, TraceFamily.Process.Line line) {
    }

    static List<TraceFamily.Process> processes(List<StepLogFile> logs) {
        Map<String, List<StepLogFile>> byProcess = new LinkedHashMap<>();
        for (StepLogFile log : logs) {
            if (!log.constants().has("incarnation")) {
                throw new StepLogException(log.file() + ":1: a log of the kill run names its incarnation in the header;"
                        + " give the world's logs one at a time");
            }
            byProcess.computeIfAbsent(log.process(), k -> new ArrayList<>()).add(log);
        }
        List<Timed> all = new ArrayList<>();
        int p = 0;
        for (var e : byProcess.entrySet()) {
            List<StepLogFile> incarnations = e.getValue();
            incarnations.sort(Comparator.comparingLong(f -> f.constants().path("incarnation").asLong()));
            boolean server = !e.getKey().equals("client");
            List<Timed> lines = new ArrayList<>();
            for (int k = 0; k < incarnations.size(); k++) {
                StepLogFile log = incarnations.get(k);
                List<ObjectNode> steps = log.steps();
                if (server && (steps.isEmpty() || !steps.get(0).path("action").asText().equals("ServerRecover"))) {
                    throw new StepLogException(log.file() + ":2: a server incarnation's log begins with its ServerRecover"
                            + " line (K and D as the restart read them)");
                }
                if (k > 0 && !steps.isEmpty()) {
                    markCut(lines, steps.get(0), log);
                    ObjectNode crash = JsonNodeFactory.instance.objectNode();
                    if (server) {
                        crash.put("action", "ServerCrash").put("server", e.getKey());
                    } else {
                        crash.put("action", "ClientCrash");
                    }
                    if (steps.get(0).has("now")) {
                        crash.set("now", steps.get(0).get("now")); // the restart's reading: no later than the kill's
                    }
                    lines.add(new Timed(now(steps.get(0)), at(steps.get(0), log, 2), p, lines.size(),
                            new TraceFamily.Process.Line(crash, "the kill before " + log.file())));
                }
                for (int i = 0; i < steps.size(); i++) {
                    ObjectNode step = steps.get(i).deepCopy();
                    long at = at(step, log, i + 2);
                    step.remove("at");
                    lines.add(new Timed(now(step), at, p, lines.size(),
                            new TraceFamily.Process.Line(step, log.file() + ":" + (i + 2))));
                }
            }
            check(lines, e.getKey());
            all.addAll(lines);
            p++;
        }
        all.sort(Comparator.comparingLong(Timed::now).thenComparingLong(Timed::at).thenComparingInt(Timed::process)
                .thenComparingInt(Timed::index));
        List<TraceFamily.Process.Line> merged = new ArrayList<>();
        all.forEach(t -> merged.add(t.line()));
        return List.of(new TraceFamily.Process("run", merged));
    }

    /** Within a process, lines are in the order of their clock (else the merge would reorder them). */
    private static void check(List<Timed> lines, String process) {
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).now() < lines.get(i - 1).now()) {
                throw new StepLogException(lines.get(i).line().origin() + ": now " + lines.get(i).now()
                        + " is before the previous line of " + process + " (" + lines.get(i - 1).line().origin() + ", now "
                        + lines.get(i - 1).now() + "): a process's clock went back, the one order cannot be built");
            }
            if (lines.get(i).now() == lines.get(i - 1).now() && lines.get(i).at() < lines.get(i - 1).at()) {
                throw new StepLogException(lines.get(i).line().origin() + ": at " + lines.get(i).at()
                        + " is before the previous line of " + process + " (" + lines.get(i - 1).line().origin() + ", at "
                        + lines.get(i - 1).at() + "): the clock went back, the one order cannot be built");
            }
        }
    }

    private static long now(ObjectNode step) {
        return step.path("now").asLong(0);
    }

    private static long at(ObjectNode step, StepLogFile log, int line) {
        JsonNode at = step.get("at");
        if (at == null || !at.canConvertToLong()) {
            throw new StepLogException(log.file() + ":" + line + ": no \"at\" (the wall clock in microseconds) on a "
                    + "line of the kill run");
        }
        return at.asLong();
    }

    /** The killed incarnation's last line may be dropped (see the class doc), with the ADeliverOK exception. */
    private static void markCut(List<Timed> lines, ObjectNode recover, StepLogFile restart) {
        if (lines.isEmpty()) {
            return;
        }
        Timed last = lines.get(lines.size() - 1);
        ObjectNode step = last.line().step();
        String action = step.path("action").asText();
        if (action.equals("ServerRecover") || action.endsWith("Crash")) {
            return; // killed before its first step: nothing to drop
        }
        if (action.equals("ADeliverOK")) {
            Set<String> unprocessed = new HashSet<>();
            recover.path("unprocessed").forEach(v -> unprocessed.add(v.asText()));
            if (!unprocessed.contains(step.path("note").asText())) {
                return; // processed (or the restart does not say otherwise): never droppable
            }
        }
        lines.set(lines.size() - 1, new Timed(last.now(), last.at(), last.process(), last.index(), new TraceFamily.Process.Line(
                step.deepCopy().put("cut", true), last.line().origin() + " (the last line before the kill before "
                        + restart.file() + ": TLC may drop it as not taken effect)")));
    }

    /** The constants: Servers and Client from the headers (alike in every log), the notes in creation order. */
    static Map<String, String> constants(List<StepLogFile> logs, List<TraceFamily.Process> processes) {
        String where = logs.get(0).file() + ":1";
        JsonNode servers = null;
        JsonNode client = null;
        for (StepLogFile log : logs) {
            if (!log.mode().equals("msg")) {
                throw new StepLogException(log.file() + ":1: mode " + log.mode()
                        + ": the logs refine " + log.spec() + ", syncs as messages (mode \"msg\")");
            }
            servers = same(servers, log, "Servers");
            client = same(client, log, "Client");
        }
        if (servers == null || client == null) {
            throw new StepLogException(where + ": no header of the run names constant " + (servers == null ? "Servers"
                    : "Client"));
        }
        List<String> notes = new ArrayList<>();
        for (TraceFamily.Process.Line line : processes.get(0).lines()) {
            if (line.step().path("action").asText().equals("CreateNote")) {
                notes.add(line.step().path("note").asText());
            }
        }
        if (notes.isEmpty()) {
            throw new StepLogException(where + ": no CreateNote line: nothing to validate");
        }
        Map<String, String> defs = new LinkedHashMap<>();
        defs.put("Servers", TlaText.setOf(servers, where));
        defs.put("Client", TlaText.of(client, where));
        defs.put("NoteIds", "<<" + String.join(", ", notes.stream().map(TlaText::quote).toList()) + ">>");
        defs.put("MaxNotes", Integer.toString(notes.size()));
        // A line spends at most one fault: above any run's count, it enables every step (outside the VIEW).
        defs.put("MaxFaults", Integer.toString(processes.get(0).lines().size() + 10));
        // The relay duplicates nothing but the runtime resends; the spec keeps a received message when AllowDup.
        defs.put("AllowDup", "TRUE");
        defs.put("Cut", "{}");
        return defs;
    }

    private static JsonNode same(JsonNode before, StepLogFile log, String name) {
        JsonNode v = log.constants().get(name);
        if (v == null) {
            return before;
        }
        if (before != null && !before.equals(v)) {
            throw new StepLogException(log.file() + ":1: constant " + name + " is " + v + " here but " + before
                    + " in another log of the run");
        }
        return v;
    }
}
