package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The logs of a causal group's nodes merged into one order consistent with happens-before (issue
 * 21, item 3's second way): a line that receives a message (Receive, ServeRequest,
 * ReceiveHeartbeat) comes after a line that sent it (Broadcast, ServeRequest, ExpireWait, ExpireRto,
 * SendHeartbeat), each node's lines stay in its order, and a Crash goes last.
 *
 * <p>Why checking this one order suffices: in Causal as validated (Duplicating, KeepOldHeartbeats,
 * no Lose step: the generator's constants) the network only grows, and every step of node i reads
 * and writes i's own variables (vc, buf, store, missing, dlog, known, up) and otherwise only asks
 * whether an envelope is in the network (and the ghost sent, which only grows by i's own
 * broadcasts and is read for events i delivered). So in any order that keeps each node's lines in
 * order and puts each receipt after a send of its message, node i's state before its k-th line is
 * the same function of its first k - 1 lines, and the line is taken or not taken alike: if one such
 * order is rejected at a line, every such order is rejected at that line. The one exception is
 * Crash, which removes the crashed node's envelopes from the network; no step of another node reads
 * up, and the crashed node takes no step after it, so putting Crash after every other line is
 * consistent with happens-before and is the order in which no receipt loses its envelope.
 *
 * <p>A message is named by its envelope's fields but the metadata (type, from, to, origin, seq; a
 * heartbeat by its vc), which the sender's line determines. A receipt whose message no line sent
 * cannot be placed: the lines from it on are appended after the merged ones, so TLC rejects the
 * run at the first of them.
 *
 * <p>The view change (CausalMembership, TraceCausalMembership): its coordinator (impl's
 * ViewChange) writes a log of its own, whose lines (marked {@code coordinator}) are one more
 * process, kept in its order and merged last. Its messages are happens-before too: a survivor's
 * FlushReport comes after the coordinator's Suspect of its target (the request for the report),
 * the coordinator's receipt of i's report after i's FlushReport line, and a survivor's DecideView
 * (learning the decision) after the coordinator's DecideView, which waits for nothing but its own
 * earlier lines. Node i's InstallView comes after every FlushForward line to i (the coordinator has
 * a survivor forward only to one that has not installed); a FlushForward sends the resends its seqs
 * name. With these, the argument above still holds: node i's steps read, besides its own variables
 * and the network, whether it reported (its own line), the agreed set and the members (fixed by the
 * coordinator's DecideView, which comes before i's own DecideView line and so before every
 * report-dependent step of i that follows it), the reports (all made before the decision, see
 * below) and, in a FlushForward to k, whether k installed (k's InstallView comes after it in every
 * such order). The end of the view change (the last InstallView resets flushing) comes after every
 * FlushForward, the only step after the decision that reads flushing before it. The coordinator's
 * steps read the membership variables and the reports: if some consistent order accepted the log,
 * every receipt (which the spec takes only before the decision, as the real coordinator does)
 * precedes the coordinator's DecideView in its log, so every survivor's report precedes it in this
 * order too and the decision is taken alike; a coordinator that decided before receiving a report
 * is rejected in every such order (in this one at the decision, or at that report's receipt after
 * it).
 *
 * <p>The control (KillRunReorderTest, on the causal kill run sigkill-view-seed1): random orders
 * under these rules are all accepted, and a Receive moved before the one line that sent its message
 * is rejected there.
 *
 * <p>A view change that restarts (CausalMembershipRestart, TraceCausalMembershipRestart): messages
 * of the view change are keyed by their round, the set being removed ({@link #round}), not by a
 * target alone, since a survivor reports on the same node again after a restart and the reports,
 * decisions and forwards of a superseded round must not stand for the new round's. Besides, the
 * coordinator's Suspect waits for every survivor line after each decision it took ({@link #done}):
 * the spec's decision reaches all survivors at once and a restart ends it, so in every order the
 * spec accepts, those lines come before the next round starts. The argument above then holds round
 * by round.
 *
 * <p>The join (CausalJoin, TraceCausalJoin): the joiner's first line and every member's InstallJoin
 * of it come after the donor's Join line (the joiner starts from the state the Join hands; the
 * coordinator tells the members after the donor answered). The argument above still holds: Join
 * reads and writes the donor's and the joiner's variables and members, InstallJoin the member's
 * view and row and what Join fixed. A suspicion is taken only once every member installed the join
 * (JSuspect); the merge does not order the coordinator's Suspect after the installs, so a run with a
 * view change after a join may be rejected at its Suspect line though the core waited (the worlds
 * validated so far have none).
 *
 * <p>The UDP runtime (impl's CausalUdpNode; issue 21, causal): its coordinator's role passes to the
 * first survivor in ring order when the coordinator is suspected, and each member that coordinates
 * writes its own coordinator log (the first coordinator's is cut by its crash or SIGKILL). The spec
 * has one set of coordinator variables, whoever holds them, so the logs are one coordinator process
 * here: CausalTraceFamily concatenates them in ring order of their writers (each one's first line
 * is its Suspect; a survivor takes over only after suspecting every survivor before it), and the
 * taker-over's first line, its Suspect of the old coordinator, is the restart. That order is real
 * when the old coordinator took no step after its successor's first one, which holds in the runs
 * that log (it crashed, then a detector timed out on its silence); a falsely suspected coordinator
 * that kept deciding would not be accepted by it, since its late line would follow the restart that
 * superseded its round. The other orders of the asynchronous runtime are message orders the rules
 * above already follow: a survivor answers a flush (reports), learns a decision and installs only on
 * the coordinator's datagrams, a decision in flight when the coordinator restarts is refused by a
 * survivor that took the new flush (its round no longer matches; impl's ViewMember), and a survivor
 * learns of the restart only by the new flush, so every survivor line of a superseded round either
 * precedes its report to the new round or is never written; the Suspect waiting for those lines
 * places them before the restart, where the spec, whose decision reaches every survivor at once,
 * has them. Likewise every survivor's report to a round comes before the coordinator's next Suspect
 * (the spec takes a report only while its round runs, and a survivor learns of a restart only by the
 * new flush). A taker-over that never heard of the running change flushes the old coordinator
 * alone, then restarts for the union from a survivor's answer: the spec's TakeOver, then a Suspect,
 * after the old round's reports (conformance's validate/causal/udp-missed-takeover-seed17).
 */
final class CausalMerge {

    private CausalMerge() {
    }

    static List<TraceFamily.Process.Line> merge(List<TraceFamily.Process> nodes, List<String> group) {
        List<TraceFamily.Process.Line> out = new ArrayList<>();
        List<TraceFamily.Process.Line> last = new ArrayList<>();
        Set<String> sent = new HashSet<>();
        // The coordinator's order: how many lines of each kind a line waits for (forwards to a node
        // in a round; every survivor's lines after a round's decision).
        Map<String, Integer> expected = new HashMap<>();
        for (TraceFamily.Process p : nodes) {
            String round = "";
            for (TraceFamily.Process.Line line : p.lines()) {
                round = round(line.step(), round);
                for (String done : done(line.step(), round)) {
                    expected.merge(done, 1, Integer::sum);
                }
            }
        }
        Map<String, Integer> seen = new HashMap<>();
        // The join (CausalJoin): a joiner logs nothing before it starts from the donor's state, so its
        // first line comes after the donor's Join line, as does every InstallJoin of it.
        Set<String> joiners = new HashSet<>();
        for (TraceFamily.Process p : nodes) {
            for (TraceFamily.Process.Line line : p.lines()) {
                if (line.step().path("action").asText().equals("Join")) {
                    joiners.add(line.step().path("target").asText());
                }
            }
        }
        int[] at = new int[nodes.size()];
        String[] rounds = new String[nodes.size()];
        java.util.Arrays.fill(rounds, "");
        List<String> decided = new ArrayList<>(); // the rounds the coordinator decided, in its order
        List<String> started = new ArrayList<>(); // the rounds the coordinator started, in its order
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int p = 0; p < nodes.size(); p++) {
                List<TraceFamily.Process.Line> lines = nodes.get(p).lines();
                while (at[p] < lines.size()) {
                    JsonNode s = lines.get(at[p]).step();
                    if (s.path("action").asText().equals("Crash")) {
                        break;
                    }
                    String round = round(s, rounds[p]);
                    String needs = needs(s, round);
                    if (needs != null && !sent.contains(needs)) {
                        break;
                    }
                    String self = s.path("node").asText();
                    if (at[p] == 0 && joiners.contains(self) && !coordinator(s) && !sent.contains("joined|" + self)) {
                        break;
                    }
                    boolean ready = true;
                    for (String waits : waits(s, round, decided, started)) {
                        ready &= seen.getOrDefault(waits, 0).equals(expected.getOrDefault(waits, 0));
                    }
                    if (!ready) {
                        break;
                    }
                    out.add(lines.get(at[p]));
                    sends(s, round, group, sent);
                    for (String done : done(s, round)) {
                        seen.merge(done, 1, Integer::sum);
                    }
                    if (coordinator(s) && s.path("action").asText().equals("DecideView") && !decided.contains(round)) {
                        decided.add(round);
                    }
                    if (coordinator(s) && s.path("action").asText().equals("Suspect") && !started.contains(round)) {
                        started.add(round);
                    }
                    rounds[p] = round;
                    at[p]++;
                    progress = true;
                }
            }
        }
        for (int p = 0; p < nodes.size(); p++) {
            List<TraceFamily.Process.Line> lines = nodes.get(p).lines();
            boolean crashed = at[p] < lines.size() && lines.get(at[p]).step().path("action").asText().equals("Crash");
            (crashed ? last : out).addAll(lines.subList(at[p], lines.size()));
        }
        out.addAll(last);
        return out;
    }

    /**
     * The round of the view change a line belongs to, named by the set it removes (a restart makes a
     * larger set, and a later view change removes other nodes, so no two rounds share a name): a
     * coordinator's Suspect starts one (its "flushing"), a survivor's FlushReport answers one (its
     * "targets"), and the lines after them are of that round, until the next. Logs of one removed
     * node at a time (CausalMembership's, which lack the sets) name a round by its target.
     */
    static String round(JsonNode s, String current) {
        String action = s.path("action").asText();
        if (coordinator(s) ? action.equals("Suspect") : action.equals("FlushReport")) {
            JsonNode set = s.path(coordinator(s) ? "flushing" : "targets");
            if (!set.isArray()) {
                return s.path("target").asText();
            }
            List<String> names = new ArrayList<>();
            set.forEach(x -> names.add(x.asText()));
            return String.join(",", names);
        }
        return current;
    }

    private static String key(String type, String from, String to, JsonNode s) {
        return type + "|" + from + "|" + to + "|" + s.path("origin").asText() + "|" + s.path("seq").asText();
    }

    private static String hb(String from, String to, JsonNode vc) {
        return "hb|" + from + "|" + to + "|" + vc;
    }

    /** The message a line of round {@code round} received, or null. */
    static String needs(JsonNode s, String round) {
        String node = s.path("node").asText();
        String x = s.path("target").asText();
        return switch (s.path("action").asText()) {
            // The view change: a report answers the coordinator's Suspect of its round, the
            // coordinator's receipt needs the report, and a survivor learns the round's decision.
            case "FlushReport" -> coordinator(s) ? "report|" + round + "|" + x + "|" + node : "suspect|" + round;
            case "DecideView" -> coordinator(s) ? null : "decided|" + round + "|" + x;
            case "InstallJoin" -> "joined|" + x;
            case "Receive" -> key(s.path("type").asText(), s.path("from").asText(), node, s);
            case "ServeRequest" -> key("req", s.path("from").asText(), node, s);
            case "ReceiveHeartbeat" -> hb(s.path("from").asText(), node, s.path("vc"));
            default -> null;
        };
    }

    static boolean coordinator(JsonNode s) {
        return s.path("coordinator").asBoolean(false);
    }

    /**
     * The view-change lines of a round others wait for, or none: a survivor's report (the
     * coordinator's next Suspect waits for every one), a forward to a node (its install
     * waits for every one), and every survivor line after the round's decision (learning it,
     * forwarding, installing), which the coordinator's next Suspect waits for: the spec tells every
     * survivor of a decision in the decision's step, and takes a forward or an install only while
     * the round's decision holds, so no such line may follow a restart (the worlds that log tell
     * every survivor of a decision before the coordinator's next step, and forward and install only
     * while the flush is decided, so their order is one of these).
     */
    static List<String> done(JsonNode s, String round) {
        if (coordinator(s)) {
            return List.of();
        }
        return switch (s.path("action").asText()) {
            case "FlushReport" -> List.of("pre|" + round);
            case "FlushForward" -> List.of("forward|" + round + "|" + s.path("to").asText(), "post|" + round);
            case "DecideView", "InstallView" -> List.of("post|" + round);
            default -> List.of();
        };
    }

    /**
     * The kinds of lines ({@link #done}'s names) a view-change line waits for every one of: the
     * coordinator's Suspect waits for the survivor lines after every decision it took and for every
     * survivor's report to every round it started ({@code started}), since the spec takes a report
     * only while its round runs (a restart or a takeover supersedes it). In the UDP runtime a
     * survivor may write its report to a superseded round after the Suspect that superseded it: the
     * member and coordinator roles of one process write two logs with no order between them, and a
     * late FLUSH of a dead coordinator is still answered. Such a report reads the coordinator's
     * flushing set and writes only the reporter's freeze, the Suspect only the coordinator's
     * variables, so the two commute and the order with the report first is taken or refused as the
     * other would be (stored run validate/causal/sigkill-takeover-late-report: n2's report on {n4}
     * written after its own takeover's Suspect).
     */
    static List<String> waits(JsonNode s, String round, List<String> decided, List<String> started) {
        if (coordinator(s)) {
            if (!s.path("action").asText().equals("Suspect")) {
                return List.of();
            }
            List<String> w = new ArrayList<>(decided.stream().map(r -> "post|" + r).toList());
            started.forEach(r -> w.add("pre|" + r));
            return w;
        }
        return switch (s.path("action").asText()) {
            case "InstallView" -> List.of("forward|" + round + "|" + s.path("node").asText());
            default -> List.of();
        };
    }

    /** The messages a line sent. */
    static void sends(JsonNode s, String round, List<String> group, Set<String> sent) {
        String node = s.path("node").asText();
        if (coordinator(s)) {
            switch (s.path("action").asText()) {
                case "Suspect" -> sent.add("suspect|" + round);
                case "DecideView" -> sent.add("decided|" + round + "|" + s.path("target").asText());
                default -> { }
            }
            return;
        }
        if (s.path("action").asText().equals("FlushReport")) {
            sent.add("report|" + round + "|" + s.path("target").asText() + "|" + node);
        }
        if (s.path("action").asText().equals("Join")) {
            sent.add("joined|" + s.path("target").asText());
        }
        switch (s.path("action").asText()) {
            case "Broadcast" -> group.stream().filter(j -> !j.equals(node))
                    .forEach(j -> sent.add("data|" + node + "|" + j + "|" + node + "|" + s.path("seq").asText()));
            case "ServeRequest" -> {
                if (s.path("outcome").asText().equals("resent")) {
                    sent.add(key("resend", node, s.path("from").asText(), s));
                }
            }
            case "ExpireWait", "ExpireRto" -> sent.add(key("req", node, s.path("to").asText(), s));
            case "SendHeartbeat" -> group.stream().filter(j -> !j.equals(node))
                    .forEach(j -> sent.add(hb(node, j, s.path("vc"))));
            case "FlushForward" -> s.path("seqs").forEach(q -> sent.add("resend|" + node + "|"
                    + s.path("to").asText() + "|" + s.path("target").asText() + "|" + q.asText()));
            default -> { }
        }
    }
}
