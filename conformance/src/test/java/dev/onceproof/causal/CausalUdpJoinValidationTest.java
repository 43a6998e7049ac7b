package dev.onceproof.causal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.causal.runtime.CausalUdpNode;
import dev.onceproof.causal.runtime.ViewOptions;
import dev.onceproof.conformance.validate.Rejection;
import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.Validation;
import dev.onceproof.steplog.StepLog;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The join through the UDP runtime (issue 19 item 3), trace-validated: three {@link CausalUdpNode}s
 * on loopback with 5% of datagrams lost, n3 a spare. n1 and n2 broadcast three events each; once n1
 * delivered all six, n3's process starts and joins from n1 (JoinAsk, the state in JoinChunks, n2's
 * JoinInstall resent until answered); then all three broadcast three more. The three step logs
 * (n1's Join, n2's InstallJoin, n3's steps from its handed prefix) are checked by TLC against
 * CausalJoin.tla through TraceCausalJoin.tla. Control: the joiner broken through {@code startPrefix}
 * (MutJoinEmptyPrefix's defect) is rejected at a line of n3's log.
 */
class CausalUdpJoinValidationTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final NodeId N1 = NodeId.of(0);
    private static final NodeId N3 = NodeId.of(2);

    @TempDir
    Path dir;

    @Test
    void aJoinOverUdpIsABehaviourOfCausalJoin() throws Exception {
        List<Path> logs = run(dir, CausalNode::new, true);
        String all = Files.readString(logs.get(0)) + Files.readString(logs.get(1));
        assertThat(all).contains("\"Join\"", "\"InstallJoin\"");
        Validation v = TestValidators.IN_JVM.validate(logs);
        System.out.println("UDP join: " + v.report());
        assertThat(v.accepted()).as("%s", v.report()).isTrue();
        assertThat(v.spec()).isEqualTo("CausalJoin");
    }

    @Test
    void aJoinerFromAnEmptyPrefixOverUdpIsRejectedInItsLog() throws Exception {
        List<Path> logs = run(dir, CausalJoinValidationTest.EmptyPrefixNode::new, false);
        Validation v = TestValidators.IN_JVM.validate(logs);
        System.out.println("UDP join, joiner from an empty prefix: " + v.report());
        assertThat(v.accepted()).isFalse();
        assertThat(v.rejection()).as("%s", v.report()).isNotNull();
        Rejection.Tried at = v.rejection().tried().get(0);
        assertThat(at.origin()).as("%s", v.report()).startsWith(logs.get(2).toString() + ":");
    }

    /** The run; with {@code complete}, it waits until every node delivered every event (n3 from its prefix). */
    private static List<Path> run(Path dir, CausalUdpNode.Core n3Core, boolean complete) throws Exception {
        List<InetSocketAddress> any = new ArrayList<>();
        for (int k = 0; k < 3; k++) {
            any.add(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        }
        List<CausalUdpNode> nodes = new ArrayList<>();
        List<StepLog> logs = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        long deadline = System.nanoTime() + 20_000 * MS;
        try {
            for (int k = 0; k < 3; k++) {
                CausalConfig c = CausalConfig.of(3, NodeId.of(k), Mode.CAUSAL, 5 * MS, 20 * MS, 20 * MS);
                Path f = dir.resolve(c.self().specName() + ".jsonl");
                StepLog log = StepLog.open(f, CausalNode.stepLogHeader(c));
                logs.add(log);
                files.add(f);
                CausalUdpNode a = new CausalUdpNode(c, any, 0.05, 31L * 1_000_003L + k, e -> { }, log,
                        ViewOptions.manual(20 * MS), k == 2 ? n3Core : CausalNode::new);
                nodes.add(k < 2 ? a.spare(N3) : a.joinFrom(N1));
            }
            for (CausalUdpNode a : nodes) {
                for (int k = 0; k < 3; k++) {
                    a.setPeer(k, nodes.get(k).address());
                }
            }
            nodes.get(0).start(2);
            nodes.get(1).start(2);
            for (int e = 0; e < 3; e++) {
                nodes.get(0).broadcast(Payload.ofUtf8("n1-" + e));
                nodes.get(1).broadcast(Payload.ofUtf8("n2-" + e));
                Thread.sleep(3);
            }
            // n1 hands a prefix of all six, so a joiner from an empty prefix logs differently.
            waitFor(() -> nodes.get(0).state().vc().equals(VectorClock.of(3, 3, 0)), deadline, "n1 delivered the six");
            nodes.get(2).start(2);
            waitFor(() -> !nodes.get(2).joining() && nodes.get(0).joinPending().isEmpty(), deadline, "n3 joined");
            for (int e = 0; e < 3; e++) {
                for (CausalUdpNode a : nodes) {
                    a.broadcast(Payload.ofUtf8(a.address().getPort() + "-" + e));
                }
                Thread.sleep(3);
            }
            VectorClock all = VectorClock.of(6, 6, 3);
            long settle = System.nanoTime() + (complete ? 15_000 : 1_500) * MS;
            while (!nodes.stream().allMatch(a -> a.state().vc().equals(all)) && System.nanoTime() < settle) {
                Thread.sleep(5);
            }
            if (complete) {
                for (CausalUdpNode a : nodes) {
                    assertThat(a.state().vc()).as("every node delivered every event").isEqualTo(all);
                }
            }
        } finally {
            nodes.forEach(CausalUdpNode::close);
            logs.forEach(StepLog::close);
        }
        return files;
    }

    private static void waitFor(BooleanSupplier cond, long until, String what) throws InterruptedException {
        while (!cond.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(2);
        }
    }
}
