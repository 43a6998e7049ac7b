package dev.onceproof.conformance.validate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.TestDepth;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.simple.RandomSource;
import org.junit.jupiter.api.Test;

/**
 * The control of the kill runs' merges (issue 21 item 3). GatherKillRun checks one order of the
 * processes' lines, the wall-clock one, and its class comment argues that every order consistent
 * with happens-before is accepted or rejected alike. Here, on the stored run gather-sigkill-seed21
 * (four processes, two kills of server B, 587 logged lines), seeded random orders that keep
 * happens-before as {@link GatherKillRunOrders} rebuilds it (per-process order, a receipt after its
 * send, the parent's relaying, the kills) are all accepted, an order that moves one receipt before
 * its send is rejected at that receipt, and orders without the relay's edges are rejected at a line
 * of the client's connection. The orders are given to the validator as the run's own logs with
 * {@code at} rewritten, so the merge under test is the one ./onceproof validate runs. The same for
 * CausalMerge on the causal kill run sigkill-view-seed1 ({@link CausalOrders}: random orders under
 * the merge's rules, handed to the validator in place of the merge's). One seed each here;
 * {@code -Pdeep} draws twenty.
 */
class KillRunReorderTest {

    static final Path STORED = GatherKillRunTest.STORED;

    private static GatherKillRunOrders stored() {
        return stored(true);
    }

    private static GatherKillRunOrders stored(boolean relay) {
        try (Stream<Path> list = Files.list(STORED)) {
            return new GatherKillRunOrders(list.filter(p -> p.toString().endsWith(".jsonl")).sorted()
                    .map(StepLogFile::read).toList(), relay);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void ordersThatKeepHappensBeforeAreAllAccepted() {
        GatherKillRunOrders run = stored();
        assertThat(run.keepsHappensBefore(run.wallClock())).as("the wall clock keeps the rebuilt edges").isTrue();
        int seeds = TestDepth.pick(1, 20);
        for (long seed = 1; seed <= seeds; seed++) {
            UniformRandomProvider random = RandomSource.XO_RO_SHI_RO_128_PP.create(seed);
            List<Integer> order = run.randomOrder(random);
            assertThat(run.keepsHappensBefore(order)).isTrue();
            long swapped = run.swappedPairs(order);
            long createSync = run.swappedPairs(order, GatherKillRunOrders::createAndSync);
            long session = run.swappedPairs(order, GatherKillRunOrders::clientAndSession);
            Validation v = TestValidators.IN_JVM.validateLogs(run.logsIn(order));
            System.out.println("gather-sigkill-seed21, order of seed " + seed + " (" + swapped
                    + " pairs of lines of two processes swapped from the wall clock, " + createSync
                    + " of them a CreateNote and another server's SendPurgeSync, " + session
                    + " a client line and a server line that reads the connection): " + v.summary());
            assertThat(swapped).as("a different order, not the wall clock's").isPositive();
            assertThat(createSync).as("the argument's hardest case, CreateNote against a concurrent sync, is taken")
                    .isPositive();
            assertThat(v.accepted()).as(v.report()).isTrue();
        }
    }

    /**
     * One receipt moved to just before its send (a DSync whose content no earlier send had, at a
     * server that logs nothing between that send and the receipt, so per-process order stays): the
     * spec's pnet does not hold that message yet, and TLC rejects the order at the receipt.
     */
    @Test
    void aReceiptMovedBeforeItsSendIsRejectedThere() {
        GatherKillRunOrders run = stored();
        List<Integer> wall = run.wallClock();
        int receipt = -1;
        int send = -1;
        for (int i = 0; i < run.nodes.size() && receipt < 0; i++) {
            GatherKillRunOrders.Node n = run.nodes.get(i);
            if (!n.action().equals("RecvPurgeSync")) {
                continue;
            }
            int s = run.preds.get(i).stream().filter(p -> run.nodes.get(p).action().equals("SendPurgeSync"))
                    .findFirst().orElseThrow();
            if (firstOfItsContent(run, s) && nothingOfTheReceiverBetween(run, s, i)) {
                receipt = i;
                send = s;
            }
        }
        assertThat(receipt).as("a receipt to move").isNotNegative();
        List<Integer> order = new ArrayList<>(wall);
        order.remove(Integer.valueOf(receipt));
        order.add(order.indexOf(send), receipt);
        assertThat(run.keepsHappensBefore(order)).isFalse();
        Validation v = TestValidators.IN_JVM.validateLogs(run.logsIn(order));
        System.out.println("Control, " + run.origin(receipt) + " moved before its send " + run.origin(send) + ":\n"
                + v.report());
        assertThat(v.accepted()).isFalse();
        String origin = run.origin(receipt);
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> assertThat(t.origin()).startsWith(origin));
        List<TraceFamily.Process.Line> merged = GatherKillRun.processes(run.logsIn(order)).get(0).lines();
        int at = 0;
        while (!merged.get(at).origin().startsWith(origin)) {
            at++;
        }
        assertThat(v.rejection().taken()).as("rejected at the moved receipt, not later").isEqualTo(at);
    }

    /**
     * The variables the class comment names as the ones that could break the argument, conn and
     * connId, are what the parent's relaying orders: without its edges (StartSession after the
     * client's Connect, the client's Disconnect after its server's lines) a random order of seed 1
     * is rejected at a line of the client's connection (a server's StartSession or aDeliver needs the
     * client connected to it, a Connect needs it disconnected), so those edges are not decoration.
     */
    @Test
    void withoutTheRelayedConnectionsEdgesAnOrderIsRejectedAtTheConnection() {
        GatherKillRunOrders run = stored(false);
        List<Integer> order = run.randomOrder(RandomSource.XO_RO_SHI_RO_128_PP.create(1L));
        assertThat(stored().keepsHappensBefore(order)).as("the order breaks the relay's edges").isFalse();
        Validation v = TestValidators.IN_JVM.validateLogs(run.logsIn(order));
        System.out.println("Control, an order of seed 1 without the relay's edges:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> assertThat(t.text())
                .containsAnyOf("\"action\":\"StartSession\"", "\"action\":\"ADeliverOK\"", "\"action\":\"ADeliverErr\"",
                        "\"action\":\"Connect\"", "\"action\":\"Disconnect\""));
    }

    static final Path CAUSAL = TestValidators.REPO.root()
            .resolve("conformance/src/test/resources/validate/causal/sigkill-view-seed1");

    private static List<StepLogFile> causalLogs() {
        try (Stream<Path> list = Files.list(CAUSAL)) {
            return list.filter(p -> p.toString().endsWith(".jsonl")).sorted().map(StepLogFile::read).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The causal kill run (sigkill-view-seed1: n3 killed, the view change removes it) is merged by
     * CausalMerge's rules, not by a clock; random orders under the same rules, which its class
     * comment says are taken or refused alike, are all accepted.
     */
    @Test
    void causalOrdersUnderTheMergesRulesAreAllAccepted() {
        List<StepLogFile> logs = causalLogs();
        CausalOrders run = new CausalOrders(logs);
        List<TraceFamily.Process.Line> merged = run.merged();
        int seeds = TestDepth.pick(1, 20);
        for (long seed = 1; seed <= seeds; seed++) {
            List<TraceFamily.Process.Line> order = run.randomOrder(RandomSource.XO_RO_SHI_RO_128_PP.create(seed));
            long swapped = CausalOrders.swappedPairs(merged, order);
            Validation v = TestValidators.IN_JVM.validateLogs(logs, ps -> List.of(new TraceFamily.Process("merged", order)));
            System.out.println("sigkill-view-seed1, order of seed " + seed + " (" + swapped
                    + " pairs of lines of two processes swapped from CausalMerge's): " + v.summary());
            assertThat(swapped).as("a different order, not CausalMerge's").isPositive();
            assertThat(v.accepted()).as(v.report()).isTrue();
        }
    }

    /** A Receive moved to just before the one line that sent its message is rejected at that Receive. */
    @Test
    void aCausalReceiptMovedBeforeItsSendIsRejectedThere() {
        List<StepLogFile> logs = causalLogs();
        CausalOrders run = new CausalOrders(logs);
        List<TraceFamily.Process.Line> merged = run.merged();
        Map<String, List<Integer>> senders = new HashMap<>();
        Map<String, String> rounds = new HashMap<>(); // each process's current round (CausalMerge.round)
        List<String> roundOf = new ArrayList<>();
        for (int i = 0; i < merged.size(); i++) {
            var line = merged.get(i).step();
            String process = (CausalMerge.coordinator(line) ? "coordinator|" : "") + line.path("node").asText();
            String round = CausalMerge.round(line, rounds.getOrDefault(process, ""));
            rounds.put(process, round);
            roundOf.add(round);
            Set<String> sent = new HashSet<>();
            CausalMerge.sends(line, round, run.group, sent);
            for (String m : sent) {
                senders.computeIfAbsent(m, k -> new ArrayList<>()).add(i);
            }
        }
        int receipt = -1;
        int send = -1;
        for (int i = 0; i < merged.size() && receipt < 0; i++) {
            var step = merged.get(i).step();
            String needs = CausalMerge.needs(step, roundOf.get(i));
            if (!step.path("action").asText().equals("Receive") || senders.getOrDefault(needs, List.of()).size() != 1) {
                continue;
            }
            int s = senders.get(needs).get(0);
            boolean alone = true;
            for (int j = s; j < i; j++) {
                alone &= !merged.get(j).step().path("node").equals(step.path("node"))
                        || CausalMerge.coordinator(merged.get(j).step());
            }
            if (alone) {
                receipt = i;
                send = s;
            }
        }
        assertThat(receipt).as("a receipt to move").isNotNegative();
        List<TraceFamily.Process.Line> order = new ArrayList<>(merged);
        TraceFamily.Process.Line moved = order.remove(receipt);
        order.add(send, moved);
        Validation v = TestValidators.IN_JVM.validateLogs(logs, ps -> List.of(new TraceFamily.Process("merged", order)));
        System.out.println("Control, " + moved.origin() + " moved before its send " + merged.get(send).origin() + ":\n"
                + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> assertThat(t.origin()).isEqualTo(moved.origin()));
        assertThat(v.rejection().taken()).as("rejected at the moved receipt, not later").isEqualTo(send);
    }

    /** No SendPurgeSync before {@code send} carried the same DSync (from, to, k, d, seen). */
    private static boolean firstOfItsContent(GatherKillRunOrders run, int send) {
        var s = run.nodes.get(send).step();
        for (int j = 0; j < send; j++) {
            var o = run.nodes.get(j).step();
            if (run.nodes.get(j).action().equals("SendPurgeSync") && o.path("server").equals(s.path("server"))
                    && o.path("peer").equals(s.path("peer")) && o.path("k").equals(s.path("k"))
                    && o.path("d").equals(s.path("d")) && o.path("seen").equals(s.path("seen"))) {
                return false;
            }
        }
        return true;
    }

    private static boolean nothingOfTheReceiverBetween(GatherKillRunOrders run, int send, int receipt) {
        String receiver = run.nodes.get(receipt).process();
        for (int j = send; j < receipt; j++) {
            if (run.nodes.get(j).process().equals(receiver)) {
                return false;
            }
        }
        return true;
    }
}
