package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * Other orders of a causal run's lines than {@link CausalMerge}'s, for its control
 * (KillRunReorderTest): CausalMerge's class comment argues that every order keeping its rules is
 * taken or refused alike (each node's lines in order, a receipt after some line that sent its
 * message, InstallView after the FlushForward lines to it, a coordinator's Suspect after every survivor
 * line of the rounds it decided, a Crash after every other line; a line's round as CausalMerge.round
 * names it). Here
 * each place is drawn uniformly among the processes whose next line those rules let go now, where
 * CausalMerge lets each node go as far as it can in turn.
 */
final class CausalOrders {

    final List<TraceFamily.Process> processes;
    final List<String> group;

    /** The run's processes before the merge: CausalTraceFamily's, one per node and the coordinator's last. */
    CausalOrders(List<StepLogFile> logs) {
        TraceFamily family = new CausalTraceFamily().forLogs(logs);
        List<TraceFamily.Process> merged = family.processes(logs);
        // Split the merged lines back by their process (the coordinator's lines are marked).
        Map<String, List<TraceFamily.Process.Line>> byNode = new java.util.LinkedHashMap<>();
        for (StepLogFile log : logs) {
            byNode.put(log.process(), new ArrayList<>());
        }
        for (TraceFamily.Process.Line line : merged.get(0).lines()) {
            String p = CausalMerge.coordinator(line.step()) ? CausalTraceFamily.COORDINATOR
                    : line.step().path("node").asText();
            byNode.get(p).add(line);
        }
        // Each node's lines in its log's order: the merge keeps it, so the split gives it back.
        List<TraceFamily.Process> ps = new ArrayList<>();
        byNode.forEach((name, lines) -> ps.add(new TraceFamily.Process(name, lines)));
        this.processes = ps;
        this.group = new ArrayList<>();
        logs.get(0).constants().path("Nodes").forEach(n -> group.add(n.asText()));
    }

    /** CausalMerge's own order. */
    List<TraceFamily.Process.Line> merged() {
        return CausalMerge.merge(processes, group);
    }

    /** A random order under CausalMerge's rules. */
    List<TraceFamily.Process.Line> randomOrder(UniformRandomProvider random) {
        Map<String, Integer> expected = new HashMap<>();
        for (TraceFamily.Process p : processes) {
            String round = "";
            for (TraceFamily.Process.Line line : p.lines()) {
                round = CausalMerge.round(line.step(), round);
                for (String done : CausalMerge.done(line.step(), round)) {
                    expected.merge(done, 1, Integer::sum);
                }
            }
        }
        Map<String, Integer> seen = new HashMap<>();
        Set<String> sent = new HashSet<>();
        int[] at = new int[processes.size()];
        String[] rounds = new String[processes.size()];
        java.util.Arrays.fill(rounds, "");
        List<String> decided = new ArrayList<>(); // the rounds the coordinator decided, in its order
        List<String> started = new ArrayList<>(); // the rounds the coordinator started, in its order
        List<TraceFamily.Process.Line> out = new ArrayList<>();
        while (true) {
            List<Integer> ready = new ArrayList<>();
            for (int p = 0; p < processes.size(); p++) {
                List<TraceFamily.Process.Line> lines = processes.get(p).lines();
                if (at[p] < lines.size() && mayGo(lines.get(at[p]).step(), rounds[p], decided, started, sent, seen, expected)) {
                    ready.add(p);
                }
            }
            if (ready.isEmpty()) {
                break;
            }
            int p = ready.get(random.nextInt(ready.size()));
            JsonNode s = processes.get(p).lines().get(at[p]).step();
            out.add(processes.get(p).lines().get(at[p]));
            String round = CausalMerge.round(s, rounds[p]);
            CausalMerge.sends(s, round, group, sent);
            for (String done : CausalMerge.done(s, round)) {
                seen.merge(done, 1, Integer::sum);
            }
            if (CausalMerge.coordinator(s) && s.path("action").asText().equals("DecideView") && !decided.contains(round)) {
                decided.add(round);
            }
            if (CausalMerge.coordinator(s) && s.path("action").asText().equals("Suspect") && !started.contains(round)) {
                started.add(round);
            }
            rounds[p] = round;
            at[p]++;
        }
        for (int p = 0; p < processes.size(); p++) {
            List<TraceFamily.Process.Line> rest = processes.get(p).lines().subList(at[p], processes.get(p).lines().size());
            if (!rest.isEmpty() && !rest.get(0).step().path("action").asText().equals("Crash")) {
                throw new IllegalStateException(rest.get(0).origin() + ": no order under CausalMerge's rules places it");
            }
            out.addAll(rest); // a Crash and what follows it go last, as CausalMerge puts them
        }
        return out;
    }

    private static boolean mayGo(JsonNode s, String current, List<String> decided, List<String> started, Set<String> sent,
                                 Map<String, Integer> seen, Map<String, Integer> expected) {
        if (s.path("action").asText().equals("Crash")) {
            return false;
        }
        String round = CausalMerge.round(s, current);
        String needs = CausalMerge.needs(s, round);
        if (needs != null && !sent.contains(needs)) {
            return false;
        }
        for (String waits : CausalMerge.waits(s, round, decided, started)) {
            if (!seen.getOrDefault(waits, 0).equals(expected.getOrDefault(waits, 0))) {
                return false;
            }
        }
        return true;
    }

    /** Pairs of lines of two processes that {@code order} puts the other way round from {@code base}. */
    static long swappedPairs(List<TraceFamily.Process.Line> base, List<TraceFamily.Process.Line> order) {
        Map<TraceFamily.Process.Line, Integer> place = new java.util.IdentityHashMap<>();
        for (int k = 0; k < order.size(); k++) {
            place.put(order.get(k), k);
        }
        long swapped = 0;
        for (int i = 0; i < base.size(); i++) {
            for (int j = i + 1; j < base.size(); j++) {
                boolean sameNode = base.get(i).step().path("node").equals(base.get(j).step().path("node"))
                        && CausalMerge.coordinator(base.get(i).step()) == CausalMerge.coordinator(base.get(j).step());
                if (!sameNode && place.get(base.get(i)) > place.get(base.get(j))) {
                    swapped++;
                }
            }
        }
        return swapped;
    }
}
