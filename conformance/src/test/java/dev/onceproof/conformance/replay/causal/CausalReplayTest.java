package dev.onceproof.conformance.replay.causal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.JoinState;
import dev.onceproof.causal.VectorClock;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Recovery;
import dev.onceproof.causal.Ticker;
import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.StoredTraces;
import dev.onceproof.conformance.replay.TraceReplayer;
import java.nio.file.Path;
import java.util.List;
import java.util.NavigableSet;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;

/**
 * The spec-to-core link for causal broadcast: every stored trace of specs/causal replays step by
 * step on {@link CausalNode}s with every node's whole abstract state compared, and a node with one
 * safeguard removed through a seam is stopped where it leaves the spec. The traces are made by
 * {@code ./onceproof traces generate --family causal}.
 */
class CausalReplayTest {

    private final Repo repo = Repo.locate();

    private List<Path> traces() {
        List<Path> t = StoredTraces.family(repo, "causal");
        assertThat(t).extracting(p -> p.getFileName().toString()).contains("causal-sim-seed1.jsonl",
                "causal-sim-fifo-seed1.jsonl", "causal-sim-faithful-seed1.jsonl", "causal-retry-other-holder.jsonl",
                "causal-recovered-duplicate.jsonl", "causal-third-node.jsonl", "causal-heartbeat-lost-last.jsonl",
                "causal-garbage-collected.jsonl", "causal-retry-restarted.jsonl", "causal-buffer-full.jsonl",
                "causal-removal.jsonl", "causal-false-suspicion.jsonl", "causal-gc-after-removal.jsonl",
                "causal-freeze.jsonl", "causal-coordinator-restart.jsonl", "causal-restart-sim-seed1.jsonl");
        return t;
    }

    @Test
    void everyStoredCausalTraceReplaysOnTheCores() {
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard());
        for (Path t : traces()) {
            ReplayResult r = replayer.replay(t);
            assertThat(r.passed()).as(r.report()).isTrue();
            assertThat(r.steps()).isGreaterThan(3);
        }
    }

    @Test
    void nodeThatDeliversWithoutWaitingIsCaught() {
        // Mutant MutDeliverNoWait: the guard of 2.1 removed.
        assertThat(firstFailure((c, t) -> new CausalNode(c, t) {
            @Override
            protected boolean deliverable(Event e) {
                return true;
            }
        })).contains("deliverable");
    }

    @Test
    void nodeThatForgetsBufferedCopiesIsCaught() {
        // A second copy of a buffered message is taken as new (the duplicate check of L235/L244 weakened).
        assertThat(firstFailure((c, t) -> new CausalNode(c, t) {
            @Override
            protected boolean has(EventId d) {
                return state().vc().get(d.origin()) >= d.seq();
            }
        })).containsAnyOf("outcome", "missing", "buf");
    }

    @Test
    void recoveryThatOnlyAsksTheOriginIsCaught() {
        // Mutant MutAskOnlySender: 5.3's "another node that knows this message" removed.
        assertThat(firstFailure((c, t) -> new CausalNode(c, t) {
            @Override
            protected NodeId retryTarget(EventId d, NavigableSet<NodeId> holders, NodeId asked) {
                return d.origin();
            }
        })).containsAnyOf("sends", "missing");
    }

    @Test
    void nodeThatNeverCollectsGarbageIsCaught() {
        // CollectGarbage as a no-op: the stable event stays in the store the spec has emptied.
        assertThat(firstFailure((c, t) -> new CausalNode(c, t) {
            @Override
            public int collectGarbage() {
                return 0;
            }
        })).contains("store");
    }

    @Test
    void nodeWithoutTheRestartRuleIsCaught() {
        // Recovery "restart" built as "faithful": a retried gap revealed again stays given up.
        assertThat(firstFailure((c, t) -> new CausalNode(
                c.recovery() == Recovery.RESTART ? c.withRecovery(Recovery.FAITHFUL) : c, t))).contains("missing");
    }

    @Test
    void nodeWithoutTheBufferBoundIsCaught() {
        // maxBuffered lifted: the copy the spec refuses (BUFFER_FULL) is buffered.
        assertThat(firstFailure((c, t) -> new CausalNode(c.withBounds(1 << 20, c.maxStored(), c.maxMissing()), t)))
                .containsAnyOf("outcome", "buf");
    }

    @Test
    void nodeThatKeepsDeliveringAfterItsReportIsCaught() {
        // Mutant MutNoFreeze (CausalMembership): the freeze removed, a reported survivor would deliver
        // an event of the suspected node the others, told the union of the reports, never deliver.
        assertThat(firstFailure((c, t) -> new CausalNode(c, t) {
            @Override
            protected boolean heldBack(Event e) {
                return false;
            }
        })).contains("deliverable");
    }

    @Test
    void nodeThatDeliversByASupersededDecisionIsCaught() {
        // Mutant MutDeliverAfterNewReport (CausalMembershipRestart): after the coordinator crashed
        // mid-flush and the flush restarted, n3 reports to the new round and would deliver n1's event
        // by the old decision, which the new one leaves out.
        String report = firstFailure((c, t) -> new CausalNode(c, t) {
            @Override
            protected boolean awaitingDecision(int k) {
                return false;
            }
        });
        assertThat(report).contains("causal-coordinator-restart").contains("deliverable");
    }

    @Test
    void nodeThatJoinsFromAnEmptyPrefixIsCaught() {
        // Mutant MutJoinEmptyPrefix (CausalJoin): n2 is removed by mistake and comes back as the spare
        // n3; a joiner that does not take the donor's prefix would take the old events still on their
        // way as new and deliver again what its application got with the state.
        String report = firstFailure((c, t) -> new CausalNode(c, t) {
            @Override
            protected long startPrefix(int k, JoinState s) {
                return 0;
            }
        });
        assertThat(report).contains("causal-rejoin").contains("Join").contains("n3.");
    }

    @Test
    void memberThatStartsTheJoinersRowFromItsRowOfTheDonorIsCaught() {
        // Mutant MutJoinRowFromDonor (CausalJoin, issue 21): a member that installs the join after it
        // learnt the donor delivered more than it handed would count the joiner as having it too.
        String report = firstFailure((c, t) -> new CausalNode(c, t) {
            @Override
            protected VectorClock joinRowStart(NodeId donor, VectorClock start) {
                return state().known().get(donor);
            }
        });
        assertThat(report).contains("causal-join-late-install").contains("InstallJoin").contains("known");
    }

    /** Replays every stored trace on the broken node; the report of the first that fails. */
    private String firstFailure(BiFunction<CausalConfig, Ticker, CausalNode> broken) {
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard().with(new CausalReplayer(broken))
                .with(CausalReplayer.membership(broken)).with(CausalReplayer.restart(broken))
                .with(CausalReplayer.join(broken)));
        for (Path t : traces()) {
            ReplayResult r = replayer.replay(t);
            if (!r.passed()) {
                System.out.println("caught: " + r.report().lines().limit(12).toList());
                return r.report();
            }
        }
        return "not caught by any of " + traces().size() + " traces";
    }
}
