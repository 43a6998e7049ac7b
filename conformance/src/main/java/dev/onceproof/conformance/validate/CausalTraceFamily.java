package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * specs/causal/TraceCausal.tla: the logs of one run of a causal group, one per node (impl's
 * CausalNode writes them, in the schedule worlds and in CausalUdpNode's runtime), merged into one
 * order consistent with happens-before ({@link CausalMerge}, which says why no other such order can
 * pass where that one fails), one cursor. A node killed or crashed counts up to its last line (a
 * torn last line is dropped); a crash the node logged is Causal's Crash.
 *
 * <p>Constants: Nodes, Mode, Recovery and the buffer and store bounds from the headers; the model
 * bounds from the log (MaxSeq: each node's Broadcast lines; Faulty: the nodes with a Crash line);
 * the network as the richest models have it, duplicating (a received copy stays in net, so a copy
 * never received was lost: no Lose step is needed, Lossy is empty) and with garbage collection
 * (the core always learns its peers' progress and collects). Logs with steps of the view change
 * (FlushReport, DecideView, FlushForward, InstallView, or a Receive refused as excluded) are checked
 * against CausalMembership through specs/causal/TraceCausalMembership.tla ({@link #forLogs}), with
 * the view change's targets as Suspectable. The view change's coordinator (impl's ViewChange) gives
 * its own log, process {@code coordinator}, which a run with a view change needs: its Suspect, its receipt of each report
 * (FlushReport) and its DecideView, merged as the last process. A coordinator whose header names
 * CausalMembershipRestart (constant Membership; impl's ViewChange.restartStepLogHeader) runs a view
 * change that restarts its flush on a second suspicion: the logs are checked against it through
 * specs/causal/TraceCausalMembershipRestart.tla, the merge keyed by round ({@link CausalMerge}).
 * Logs with a join under a new id (the donor's Join, a member's InstallJoin) are checked against
 * CausalJoin through specs/causal/TraceCausalJoin.tla, with the joined ids as Spare; a join alone
 * needs no coordinator. No spec has both a restarting view change and a join: such logs are refused.
 */
final class CausalTraceFamily implements TraceFamily {

    /** The actions TraceCausal takes. */
    static final Set<String> ACTIONS = Set.of("Broadcast", "Receive", "Deliver", "ExpireWait", "ExpireRto",
            "ServeRequest", "SendHeartbeat", "ReceiveHeartbeat", "CollectGarbage", "Crash");
    static final Set<String> MEMBERSHIP = Set.of("FlushReport", "DecideView", "FlushForward", "InstallView");
    /** The join under a new id (CausalJoin.tla): the donor's Join and a member's InstallJoin. */
    static final Set<String> JOIN = Set.of("Join", "InstallJoin");

    /** Whether the logs hold a view change: then the spec is CausalMembership. */
    private final boolean membership;
    /**
     * Whether the coordinator's header names CausalMembershipRestart (constant Membership, impl's
     * ViewChange.restartStepLogHeader): a view change that may restart its flush on a second
     * suspicion, checked through TraceCausalMembershipRestart.
     */
    private final boolean restart;

    /** The value of the header constant Membership that names the restarting view change. */
    static final String RESTART = "CausalMembershipRestart";
    /** Whether the logs hold a join: then the spec is CausalJoin (TraceCausalJoin.tla). */
    private final boolean join;

    CausalTraceFamily() {
        this(false, false, false);
    }

    private CausalTraceFamily(boolean membership, boolean restart, boolean join) {
        this.membership = membership || restart || join;
        this.restart = restart;
        this.join = join;
    }

    @Override
    public TraceFamily forLogs(List<StepLogFile> logs) {
        boolean restart = false;
        for (StepLogFile log : logs) {
            JsonNode named = log.constants().path("Membership");
            if (!named.isMissingNode()) {
                if (!named.asText().equals(RESTART)) {
                    throw new StepLogException(log.file() + ":1: constant Membership is " + named
                            + "; the only membership spec a header may name is " + RESTART
                            + " (without it a view change is CausalMembership's)");
                }
                restart = true;
            }
        }
        boolean m = false;
        for (StepLogFile log : logs) {
            int at = 0;
            for (JsonNode s : log.steps()) {
                at++;
                if (JOIN.contains(s.path("action").asText())) {
                    if (restart) {
                        throw new StepLogException(log.file() + ":" + (at + 1) + ": a " + s.path("action").asText()
                                + " in a run whose header names " + RESTART + ": no spec has both a restarting view change and a join");
                    }
                    return new CausalTraceFamily(true, false, true);
                }
                m |= isMembership(s);
            }
        }
        if (restart) {
            // Named by the header, also for a run in which no suspicion came (an empty view change).
            return new CausalTraceFamily(true, true, false);
        }
        return m ? new CausalTraceFamily(true, false, false) : this;
    }

    private static boolean isMembership(JsonNode s) {
        return MEMBERSHIP.contains(s.path("action").asText()) || s.path("outcome").asText().equals("excluded");
    }

    @Override
    public String spec() {
        return restart ? RESTART : join ? "CausalJoin" : membership ? "CausalMembership" : "Causal";
    }

    @Override
    public String folder() {
        return "causal";
    }

    @Override
    public String traceModule() {
        return restart ? "TraceCausalMembershipRestart" : join ? "TraceCausalJoin" : membership ? "TraceCausalMembership" : "TraceCausal";
    }

    /** The process name of the view change's coordinator (impl's ViewChange), and the actions it logs. */
    static final String COORDINATOR = "coordinator";
    static final Set<String> COORDINATOR_ACTIONS = Set.of("Suspect", "FlushReport", "DecideView");

    @Override
    public List<Process> processes(List<StepLogFile> logs) {
        Set<String> seen = new TreeSet<>();
        List<Process> nodes = new ArrayList<>();
        List<StepLogFile> coordinators = new ArrayList<>();
        for (StepLogFile log : logs) {
            if (log.process().equals(COORDINATOR)) {
                coordinators.add(log);
                continue;
            }
            if (!seen.add(log.process())) {
                throw new StepLogException(log.file() + ":1: a second log of node " + log.process()
                        + " in one run (a causal node is crash-stop: it never restarts under its id)");
            }
            for (int i = 0; i < log.steps().size(); i++) {
                JsonNode s = log.steps().get(i);
                String where = log.file() + ":" + (i + 2);
                String action = s.path("action").asText();
                if (isMembership(s) && !membership) {
                    throw new StepLogException(where + ": " + action + " is a step of the view change"
                            + " (CausalMembership.tla), and this family was made for Causal's steps alone");
                }
                if (!ACTIONS.contains(action) && !MEMBERSHIP.contains(action) && !(join && JOIN.contains(action))) {
                    Set<String> known = new TreeSet<>(ACTIONS);
                    known.addAll(MEMBERSHIP);
                    if (join) {
                        known.addAll(JOIN);
                    }
                    throw new StepLogException(where + ": action " + action + " is not one of CausalMembership's "
                            + known);
                }
                if (!s.path("node").asText().equals(log.process())) {
                    throw new StepLogException(where + ": the line names node " + s.path("node")
                            + " but the header says the log is node " + log.process() + "'s");
                }
            }
        }
        Process coordinator = coordinators.isEmpty() ? null : coordinator(coordinators, nodes(logs));
        for (Process p : TraceFamily.super.processes(logs)) {
            if (!p.name().equals(COORDINATOR)) {
                nodes.add(p);
            }
        }
        if (coordinator != null) {
            nodes.add(coordinator); // last: the merge lets the nodes go as far as they can first
        } else if (membership && (!join || viewChange(logs))) {
            throw new StepLogException(logs.get(0).file() + ":1: the run has steps of a view change but no log of its"
                    + " coordinator (process \"" + COORDINATOR + "\", impl's ViewChange.logSteps): its Suspect and"
                    + " DecideView are checked at its own lines");
        }
        return List.of(new Process("merged", CausalMerge.merge(nodes, nodes(logs))));
    }

    /**
     * The coordinators' logs as the one coordinator process of the spec. One log is the first
     * coordinator's. A restarting view change (CausalMembershipRestart) may have more: a survivor
     * that suspected the coordinator takes the role over (impl's ViewCoordinator, ViewChange.resume)
     * and logs its coordinator steps to its own log, starting with its Suspect of the one it
     * replaces. The spec has one set of coordinator variables (members, flushing, reported, report,
     * agreed) whatever process holds them, its Coord being the first survivor in ring order; so the
     * logs are one process, each writer's lines in its order, the writers in ring order (a survivor
     * takes over only once it suspected every survivor before it), a log with no line left out (a
     * member that never coordinated). This assumes a coordinator takes no step after its successor's
     * first line, which holds when it was suspected because it died (the runs that make these logs:
     * a crash or a SIGKILL, then a detector's silence); a falsely suspected coordinator that went on
     * deciding would be caught as the spec rejecting its late line or a survivor's answer to it, not
     * accepted. Only CausalMembershipRestart's logs may have more than one.
     */
    private Process coordinator(List<StepLogFile> logs, List<String> ring) {
        List<StepLogFile> used = new ArrayList<>();
        for (StepLogFile log : logs) {
            if (!log.steps().isEmpty()) {
                used.add(log);
            }
        }
        if (used.isEmpty()) {
            return coordinator(logs.get(0));
        }
        if (used.size() > 1 && !restart) {
            throw new StepLogException(used.get(1).file() + ":1: a second coordinator log in one run, and the headers"
                    + " do not name " + RESTART + " (constant Membership), whose coordinator may be taken over");
        }
        Map<Integer, StepLogFile> byWriter = new TreeMap<>();
        for (StepLogFile log : used) {
            JsonNode first = log.steps().get(0);
            String writer = first.path("node").asText();
            if (!first.path("action").asText().equals("Suspect") || !ring.contains(writer)) {
                throw new StepLogException(log.file() + ":2: a coordinator's log starts with its Suspect (a node of "
                        + ring + "), not " + first);
            }
            StepLogFile before = byWriter.put(ring.indexOf(writer), log);
            if (before != null) {
                throw new StepLogException(log.file() + ":1: a second coordinator log of " + writer + " (the other is "
                        + before.file() + ")");
            }
        }
        List<Process.Line> lines = new ArrayList<>();
        for (StepLogFile log : byWriter.values()) {
            lines.addAll(coordinator(log).lines());
        }
        return new Process(COORDINATOR, lines);
    }

    /**
     * The coordinator's lines, each marked {@code "coordinator": true} for the trace module (its
     * FlushReport is the coordinator's side of the step whose other side is the survivor's line).
     */
    private Process coordinator(StepLogFile log) {
        if (!membership) {
            throw new StepLogException(log.file() + ":1: a coordinator's log, and no node logged a step of the view"
                    + " change");
        }
        List<Process.Line> lines = new ArrayList<>();
        for (int i = 0; i < log.steps().size(); i++) {
            ObjectNode s = log.steps().get(i).deepCopy();
            String action = s.path("action").asText();
            if (!COORDINATOR_ACTIONS.contains(action)) {
                throw new StepLogException(log.file() + ":" + (i + 2) + ": action " + action
                        + " is not one of the coordinator's " + new TreeSet<>(COORDINATOR_ACTIONS));
            }
            lines.add(new Process.Line(s.put("coordinator", true), log.file() + ":" + (i + 2)));
        }
        return new Process(COORDINATOR, lines);
    }

    /** Whether a node logged a step of the view change proper (a join alone needs no coordinator). */
    private static boolean viewChange(List<StepLogFile> logs) {
        for (StepLogFile log : logs) {
            for (JsonNode s : log.steps()) {
                if (MEMBERSHIP.contains(s.path("action").asText())) {
                    return true;
                }
            }
        }
        return false;
    }

    private static List<String> nodes(List<StepLogFile> logs) {
        List<String> nodes = new ArrayList<>();
        JsonNode n = logs.get(0).constants().path("Nodes");
        if (!n.isArray()) {
            throw new StepLogException(logs.get(0).file() + ":1: header constants lack Nodes");
        }
        n.forEach(x -> nodes.add(x.asText()));
        return nodes;
    }

    @Override
    public Map<String, String> constants(List<StepLogFile> logs, List<Process> processes) {
        Map<String, JsonNode> c = new TreeMap<>();
        for (StepLogFile log : logs) {
            log.constants().fields().forEachRemaining(e -> {
                JsonNode before = c.putIfAbsent(e.getKey(), e.getValue());
                if (before != null && !before.equals(e.getValue())) {
                    throw new StepLogException(log.file() + ":1: constant " + e.getKey() + " is " + e.getValue()
                            + " here but " + before + " in another log of the run");
                }
            });
        }
        String where = logs.get(0).file() + ":1";
        JsonNode nodes = need(c, "Nodes", where);
        Set<String> names = new TreeSet<>();
        nodes.forEach(x -> names.add(x.asText()));
        for (StepLogFile log : logs) {
            if (!names.contains(log.process()) && !log.process().equals(COORDINATOR)) {
                throw new StepLogException(log.file() + ":1: node " + log.process() + " is not in Nodes " + nodes);
            }
        }
        Map<String, Integer> broadcasts = new TreeMap<>();
        names.forEach(x -> broadcasts.put(x, 0));
        Set<String> faulty = new TreeSet<>();
        Set<String> suspected = new TreeSet<>();
        Set<String> spares = new TreeSet<>();
        for (Process p : processes) {
            for (Process.Line line : p.lines()) {
                JsonNode s = line.step();
                switch (s.path("action").asText()) {
                    case "Broadcast" -> broadcasts.merge(s.path("node").asText(), 1, Integer::sum);
                    case "Crash" -> faulty.add(s.path("node").asText());
                    case "FlushReport" -> suspected.add(s.path("target").asText());
                    // A restart's suspect may be one the log ends before any report on (its round
                    // never completed): Suspect is taken for it too.
                    case "Suspect" -> {
                        if (restart) {
                            suspected.add(s.path("target").asText());
                        }
                    }
                    case "Join" -> spares.add(s.path("target").asText());
                    default -> { }
                }
            }
        }
        List<String> maxSeq = new ArrayList<>();
        broadcasts.forEach((k, v) -> maxSeq.add(TlaText.quote(k) + " :> " + v));
        Map<String, String> defs = new LinkedHashMap<>();
        defs.put("Nodes", TlaText.of(nodes, where));
        defs.put("Mode", TlaText.quote(logs.get(0).mode()));
        defs.put("Recovery", TlaText.of(need(c, "Recovery", where), where));
        defs.put("Faulty", "{" + String.join(", ", faulty.stream().map(TlaText::quote).toList()) + "}");
        defs.put("MaxSeq", "(" + String.join(" @@ ", maxSeq) + ")");
        defs.put("Lossy", "{}");
        defs.put("Duplicating", "TRUE");
        defs.put("Collecting", "TRUE");
        defs.put("MaxBuffered", TlaText.of(need(c, "MaxBuffered", where), where));
        defs.put("MaxStored", TlaText.of(need(c, "MaxStored", where), where));
        // A real network keeps a sender's older heartbeats in transit after it sent a newer one.
        defs.put("KeepOldHeartbeats", "TRUE");
        if (membership) {
            // The nodes a view change removes in the run: Suspect is taken only for them.
            defs.put("Suspectable", "{" + String.join(", ", suspected.stream().map(TlaText::quote).toList()) + "}");
        }
        if (join) {
            // The ids that join in the run: idle and out of every view until their Join line.
            defs.put("Spare", "{" + String.join(", ", spares.stream().map(TlaText::quote).toList()) + "}");
        }
        return defs;
    }

    private static JsonNode need(Map<String, JsonNode> c, String name, String where) {
        JsonNode v = c.get(name);
        if (v == null) {
            throw new StepLogException(where + ": no header of the run names constant " + name);
        }
        return v;
    }
}
