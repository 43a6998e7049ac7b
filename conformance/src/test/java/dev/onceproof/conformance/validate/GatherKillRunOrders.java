package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.rng.UniformRandomProvider;

/**
 * The happens-before order of a Strategy 4 kill run's lines, rebuilt from the logs, and other
 * orders of the same lines: the control of {@link GatherKillRun}'s merge (KillRunReorderTest).
 *
 * <p>An edge {@code a -> b} is put only where the run forces b after a, so every linear extension
 * is an order the run could have logged (more edges than the run has would only make fewer orders;
 * where the logs cannot tell which of two identical sends a receipt took, the latest before it in
 * wall-clock time is taken, which is such an over-approximation):
 * <ul>
 *   <li>a process's lines in their order, its incarnations in theirs (a kill comes after the killed
 *       incarnation's lines and before the restart's);</li>
 *   <li>a message's receipt after its send: RecvPurgeSync after the SendPurgeSync of that DSync (from,
 *       to, k, d, seen), ReplyD after the ReqD it answers, RecvD after the ReplyD of that d,
 *       StoreReplica after the origin's CreateNote;</li>
 *   <li>the parent's relaying (GatherCrashExperiment): a server's StartSession after the client's
 *       Connect to it (CONNECT is relayed from the client's UPLOAD); the client's Disconnect after
 *       every line its server wrote before it (DISCONNECT goes to the server first and END to the
 *       client after the server's ENDED, or the server was killed first); a batch's CreateNote after
 *       every CreateNote and StoreReplica of the earlier batches (the parent waits for every STORED).</li>
 * </ul>
 * The lines the validator inserts (ServerCrash before a restart's first line) follow the restart's
 * first line, so they are not nodes here.
 */
final class GatherKillRunOrders {

    /** One logged line: its log, its index among the log's steps, its process. */
    record Node(int log, int index, String process, ObjectNode step, long at) {
        String action() {
            return step.path("action").asText();
        }
    }

    /** The notes a run creates in one batch (GatherCrashExperiment.BATCH). */
    static final int BATCH = 20;
    private static final Pattern NUMBERED = Pattern.compile("n(\\d+)");

    final List<StepLogFile> logs;
    /** Every line, in the wall-clock order GatherKillRun merges by. */
    final List<Node> nodes = new ArrayList<>();
    /** preds.get(i): the nodes that must come before node i. */
    final List<Set<Integer>> preds = new ArrayList<>();

    /** Whether the parent's relaying of the client's connection gives edges (false: the control that they are needed). */
    private final boolean relay;

    GatherKillRunOrders(List<StepLogFile> logs) {
        this(logs, true);
    }

    GatherKillRunOrders(List<StepLogFile> logs, boolean relay) {
        this.logs = List.copyOf(logs);
        this.relay = relay;
        Map<String, Integer> processIndex = new LinkedHashMap<>();
        for (StepLogFile log : logs) {
            processIndex.putIfAbsent(log.process(), processIndex.size());
        }
        record Raw(Node node, int process) {
        }
        List<Raw> raw = new ArrayList<>();
        for (int f = 0; f < logs.size(); f++) {
            StepLogFile log = logs.get(f);
            for (int i = 0; i < log.steps().size(); i++) {
                ObjectNode s = log.steps().get(i);
                raw.add(new Raw(new Node(f, i, log.process(), s, s.path("at").asLong()), processIndex.get(log.process())));
            }
        }
        raw.sort(Comparator.comparingLong((Raw r) -> r.node().at()).thenComparingInt(Raw::process)
                .thenComparingLong(r -> logs.get(r.node().log()).constants().path("incarnation").asLong())
                .thenComparingInt(r -> r.node().index()));
        raw.forEach(r -> {
            nodes.add(r.node());
            preds.add(new LinkedHashSet<>());
        });
        edges();
    }

    private void edges() {
        Map<String, Integer> lastOfProcess = new HashMap<>();
        Map<String, Integer> purgeSyncs = new HashMap<>();
        Map<String, Integer> requests = new HashMap<>();
        Map<String, Integer> replies = new HashMap<>();
        Map<String, Integer> created = new HashMap<>();
        Map<String, Integer> connects = new HashMap<>();
        List<Integer> batchLines = new ArrayList<>();
        String connectedTo = null;
        for (int i = 0; i < nodes.size(); i++) {
            Node n = nodes.get(i);
            ObjectNode s = n.step();
            String server = s.path("server").asText();
            String peer = s.path("peer").asText();
            Integer before = lastOfProcess.put(n.process(), i);
            if (before != null) {
                preds.get(i).add(before);
            }
            switch (n.action()) {
                case "SendPurgeSync" -> purgeSyncs.put(dsync(server, peer, s), i);
                case "RecvPurgeSync" -> preds.get(i).add(need(purgeSyncs, dsync(peer, server, s), n));
                case "ReqD" -> requests.put(server + ">" + peer, i);
                case "ReplyD" -> {
                    preds.get(i).add(need(requests, peer + ">" + server, n));
                    replies.put(server + ">" + peer + " " + s.path("d"), i);
                }
                case "RecvD" -> preds.get(i).add(need(replies, peer + ">" + server + " " + s.path("d"), n));
                case "CreateNote" -> {
                    int batch = batch(s, n);
                    for (int j : batchLines) {
                        if (batch(nodes.get(j).step(), nodes.get(j)) < batch) {
                            preds.get(i).add(j);
                        }
                    }
                    created.put(s.path("note").asText(), i);
                    batchLines.add(i);
                }
                case "StoreReplica" -> {
                    preds.get(i).add(need(created, s.path("note").asText(), n));
                    batchLines.add(i);
                }
                case "Connect" -> {
                    connectedTo = server;
                    connects.put(server, i);
                }
                case "StartSession" -> {
                    Integer connect = connects.remove(server);
                    if (connect == null) {
                        throw new IllegalStateException(where(n) + ": a StartSession with no Connect of the client to "
                                + server + " before it");
                    }
                    if (relay) {
                        preds.get(i).add(connect);
                    }
                }
                case "Disconnect" -> {
                    Integer last = connectedTo == null ? null : lastOfProcess.get(connectedTo);
                    if (last != null && relay) {
                        preds.get(i).add(last);
                    }
                    connectedTo = null;
                }
                default -> { }
            }
        }
    }

    private static String dsync(String from, String to, JsonNode s) {
        return from + ">" + to + " " + s.path("k") + " " + s.path("d") + " " + s.path("seen");
    }

    private static int batch(JsonNode s, Node n) {
        Matcher m = NUMBERED.matcher(s.path("note").asText());
        if (!m.matches()) {
            throw new IllegalStateException(where(n) + ": note " + s.path("note") + " is not n<number>");
        }
        return (Integer.parseInt(m.group(1)) - 1) / BATCH;
    }

    private int need(Map<String, Integer> sent, String key, Node receipt) {
        Integer send = sent.get(key);
        if (send == null) {
            throw new IllegalStateException(where(receipt) + ": " + receipt.action() + " with no send of " + key
                    + " before it");
        }
        return send;
    }

    private static String where(Node n) {
        return n.process() + " line " + (n.index() + 2);
    }

    String origin(int node) {
        Node n = nodes.get(node);
        return logs.get(n.log()).file() + ":" + (n.index() + 2);
    }

    /** The wall-clock order: 0, 1, ..., as GatherKillRun merges. */
    List<Integer> wallClock() {
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            order.add(i);
        }
        return order;
    }

    /** A random linear extension: at each place, a line drawn uniformly among those whose predecessors are placed. */
    List<Integer> randomOrder(UniformRandomProvider random) {
        int[] waiting = new int[nodes.size()];
        List<List<Integer>> succs = new ArrayList<>();
        nodes.forEach(n -> succs.add(new ArrayList<>()));
        List<Integer> ready = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            waiting[i] = preds.get(i).size();
            for (int p : preds.get(i)) {
                succs.get(p).add(i);
            }
            if (waiting[i] == 0) {
                ready.add(i);
            }
        }
        List<Integer> order = new ArrayList<>();
        while (!ready.isEmpty()) {
            int k = random.nextInt(ready.size());
            int next = ready.get(k);
            ready.set(k, ready.get(ready.size() - 1));
            ready.remove(ready.size() - 1);
            order.add(next);
            for (int s : succs.get(next)) {
                if (--waiting[s] == 0) {
                    ready.add(s);
                }
            }
        }
        if (order.size() != nodes.size()) {
            throw new IllegalStateException("the happens-before edges have a cycle");
        }
        return order;
    }

    /** Whether {@code order} puts every node after its predecessors. */
    boolean keepsHappensBefore(List<Integer> order) {
        int[] place = places(order);
        for (int i = 0; i < nodes.size(); i++) {
            for (int p : preds.get(i)) {
                if (place[p] > place[i]) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Pairs of lines of different processes that {@code order} puts the other way round from the wall clock. */
    long swappedPairs(List<Integer> order) {
        return swappedPairs(order, (a, b) -> true);
    }

    /** As {@link #swappedPairs(List)}, counting only the pairs (earlier, later by the wall clock) that {@code which} takes. */
    long swappedPairs(List<Integer> order, java.util.function.BiPredicate<Node, Node> which) {
        int[] place = places(order);
        long swapped = 0;
        for (int i = 0; i < nodes.size(); i++) {
            for (int j = i + 1; j < nodes.size(); j++) {
                if (place[i] > place[j] && !nodes.get(i).process().equals(nodes.get(j).process())
                        && which.test(nodes.get(i), nodes.get(j))) {
                    swapped++;
                }
            }
        }
        return swapped;
    }

    /**
     * A CreateNote and a SendPurgeSync of another server, either way round: the pair the argument's
     * hardest case is about (the DSync differs by the new note, which the sender has not stored).
     */
    static boolean createAndSync(Node a, Node b) {
        return a.action().equals("CreateNote") && b.action().equals("SendPurgeSync")
                || a.action().equals("SendPurgeSync") && b.action().equals("CreateNote");
    }

    /** A line of the client and a server line that reads the connection (StartSession, aDeliver). */
    static boolean clientAndSession(Node a, Node b) {
        return isClient(a) && readsConnection(b) || isClient(b) && readsConnection(a);
    }

    private static boolean isClient(Node n) {
        return n.action().equals("Connect") || n.action().equals("Disconnect");
    }

    private static boolean readsConnection(Node n) {
        return List.of("StartSession", "ADeliverOK", "ADeliverErr").contains(n.action());
    }

    private int[] places(List<Integer> order) {
        int[] place = new int[nodes.size()];
        for (int k = 0; k < order.size(); k++) {
            place[order.get(k)] = k;
        }
        return place;
    }

    /**
     * The logs with each line's {@code at} set to its place in {@code order} (microseconds from a
     * base), so that GatherKillRun's merge by {@code at} gives exactly that order.
     */
    List<StepLogFile> logsIn(List<Integer> order) {
        List<List<ObjectNode>> steps = new ArrayList<>();
        logs.forEach(l -> steps.add(new ArrayList<>(l.steps())));
        long base = nodes.get(0).at();
        for (int k = 0; k < order.size(); k++) {
            Node n = nodes.get(order.get(k));
            steps.get(n.log()).set(n.index(), n.step().deepCopy().put("at", base + k));
        }
        List<StepLogFile> out = new ArrayList<>();
        for (int f = 0; f < logs.size(); f++) {
            out.add(logs.get(f).withSteps(steps.get(f)));
        }
        return out;
    }
}
