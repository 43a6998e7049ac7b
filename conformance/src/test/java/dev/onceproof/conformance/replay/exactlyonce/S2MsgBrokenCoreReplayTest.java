package dev.onceproof.conformance.replay.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.replay.Mismatch;
import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.TraceReplayer;
import dev.onceproof.exactlyonce.EoSeams;
import dev.onceproof.exactlyonce.EoSeams.S2Defect;
import dev.onceproof.exactlyonce.ServerOp;
import dev.onceproof.exactlyonce.Strategy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The replay of the message-level Strategy 2 specs (ExactlyOnceS2Msg, ExactlyOnceS2MsgAsync) must
 * be able to fail (DESIGN.md): each test builds S2Server with one rule removed through its seams
 * and shows that replaying the stored trace of the scenario stops at the step where the core
 * leaves the spec, on the variable that rule keeps.
 */
class S2MsgBrokenCoreReplayTest {

    private final Repo repo = Repo.locate();

    private ReplayResult replay(String spec, String trace, S2MsgCores.Factory broken) {
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard().with(new S2MsgReplayer(spec, broken)));
        return replayer.replay(repo.traces().resolve("exactlyonce").resolve(trace));
    }

    private static S2MsgCores.Factory with(S2Defect defect) {
        return (config, clock, w, replicasAsMessages, durable) ->
                EoSeams.s2With(defect, config, clock, w, durable, replicasAsMessages);
    }

    private static List<String> fields(ReplayResult r) {
        return r.failure().mismatches().stream().map(Mismatch::field).toList();
    }

    /** Every stored trace of the two specs replays on the real cores, and there are some of each. */
    @Test
    void storedTracesOfBothSpecsReplay() throws Exception {
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard());
        TreeSet<String> specs = new TreeSet<>();
        try (var files = Files.list(repo.traces().resolve("exactlyonce"))) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith("exactlyonce-s2msg-")).sorted().toList()) {
                ReplayResult r = replayer.replay(f);
                assertThat(r.passed()).as(r.report()).isTrue();
                specs.add(Files.readAllLines(f).get(0).replaceAll(".*\"spec\":\"([A-Za-z0-9]+)\".*", "$1"));
            }
        }
        assertThat(specs).containsExactly(S2MsgReplayer.MSG, S2MsgReplayer.ASYNC);
    }

    /**
     * Rule "merge" (StreamServer.mergeRemoval's watermark): B's request, built before A reused
     * seq 0, names the old A.0 removed; a core without the watermark drops the new A.0 there.
     */
    @Test
    void serverWithoutTheWatermarkIsCaughtAtTheStaleSync() {
        ReplayResult r = replay(S2MsgReplayer.MSG, "exactlyonce-s2msg-stale.jsonl", with(S2Defect.NO_WATERMARK));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("HandleSync");
        assertThat(fields(r)).contains("K.A", "removed.A", "entered.A.A.0");
    }

    /**
     * The same rule with a stale reply: A's reply to B's first request, built when A knew the old
     * A.0 delivered, reaches B after A reused seq 0 and B stored the new A.0.
     */
    @Test
    void serverWithoutTheWatermarkIsCaughtAtTheStaleReply() {
        ReplayResult r = replay(S2MsgReplayer.MSG, "exactlyonce-s2msg-stale-reply.jsonl", with(S2Defect.NO_WATERMARK));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ReceiveSyncReply");
        assertThat(r.failure().step()).isEqualTo(20);
        assertThat(fields(r)).contains("K.B", "removed.B", "entered.B.A.0");
    }

    /**
     * Rule "tag" (issue 20 item 1, the lost replica): A.1's replica to B is lost, so B numbers the
     * new A.0 below where A numbered it, and A's reply of round 1, built before the reuse, names
     * the old A.0 (issue 0) removed with a seen above B's number of the new one (issue 2). The
     * watermark lets that removal apply; the tag keeps the new A.0. A core without the tag drops
     * it unprocessed at that merge, step 25.
     */
    @Test
    void serverWhoseStaleRemovalTakesTheNewerIncarnationIsCaughtAtTheMerge() {
        ReplayResult r = replay(S2MsgReplayer.ASYNC, "exactlyonce-s2msg-async-tag.jsonl",
                with(S2Defect.STALE_REMOVAL_TAKES_NEWER_INCARNATION));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ReceiveSyncReply");
        assertThat(r.failure().step()).isEqualTo(25);
        assertThat(fields(r)).contains("K.B", "removed.B", "tag.B.A.0");
    }

    /**
     * Rule "reuse" at the other servers (S2Server.acceptReplica drops the old removal): without
     * it B keeps naming A.0 removed once the new A.0 is stored, from the reuse on.
     */
    @Test
    void serverThatKeepsTheRemovalOnReuseIsCaughtAtTheReuse() {
        ReplayResult r = replay(S2MsgReplayer.MSG, "exactlyonce-s2msg-reuse.jsonl", with(S2Defect.KEEP_REMOVED_ON_REUSE));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("CreateNote");
        assertThat(fields(r)).containsExactly("removed.B");
    }

    /**
     * Condition 1 from the first generation whose successor was used before (S2Server.nextSeq; the
     * spec's MayUse, MutS2ConditionOnReuseOnly): a core that checks it only at a literal reuse
     * opens its gate for A.1 before B confirmed A.0 gone; replay compares the gate after every
     * step and stops at A.0's creation.
     */
    @Test
    void serverThatChecksConditionOneOnlyAtReuseIsCaughtAtTheFirstCreation() {
        ReplayResult r = replay(S2MsgReplayer.MSG, "exactlyonce-s2msg-reuse.jsonl", with(S2Defect.CONDITION_AT_REUSE_ONLY));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("CreateNote");
        assertThat(r.failure().step()).isEqualTo(1);
        assertThat(fields(r)).containsExactly("conditionOne[A]");
    }

    /**
     * Rule "confirm" (notes M2-d): with replicas as messages, A's request started before A.0
     * settled gets round 1 as A.0's issue round; B's reply of round 1 lists A.0 removed, and a core
     * that counts a reply of any round confirms A.0 gone there, while its replica is still on the
     * way to B (which then stores it: the late replica).
     */
    @Test
    void serverThatConfirmsFromAnyRoundIsCaughtAtTheReplyBeforeTheLateReplica() {
        ReplayResult r = replay(S2MsgReplayer.ASYNC, "exactlyonce-s2msg-async-late.jsonl",
                with(S2Defect.CONFIRM_ANY_ROUND));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ReceiveSyncReply");
        assertThat(fields(r)).containsExactly("conf.A.B");
    }

    /**
     * The settle rule (S2Server.syncStarted): a core that lets a request started before A.0
     * settled count for it (the cores before the fix, Settle = FALSE) keeps A.0's issue round
     * where the spec moves it, at A's StartSync.
     */
    @Test
    void serverWithoutTheSettleRuleIsCaughtAtTheSyncBeforeItSettled() {
        ReplayResult r = replay(S2MsgReplayer.ASYNC, "exactlyonce-s2msg-async-late.jsonl",
                (config, clock, w, async, durable) -> EoSeams.s2AsyncWithout(config, clock, w, durable, false, true));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("StartSync");
        assertThat(fields(r)).containsExactly("issued.A.0");
    }

    /**
     * The settle wait binds: a core built as if every replica were stored at once (the public
     * replicasStoredAtOnce, wrong on a network) counts A.0 settled when it is issued, where the
     * spec waits for SettleNumber.
     */
    @Test
    void serverThatSettlesAtIssueIsCaughtAtTheCreation() {
        ReplayResult r = replay(S2MsgReplayer.ASYNC, "exactlyonce-s2msg-async-late.jsonl",
                (config, clock, w, async, durable) -> (dev.onceproof.exactlyonce.ServerCore) Strategy.S2
                        .config(config.client(), new TreeSet<>(config.servers()), config.te()).w(w)
                        .replicasStoredAtOnce().server(config.self(), clock, durable));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("CreateNote");
        assertThat(fields(r)).containsExactly("settled.A");
    }

    /**
     * When a restarted server's reopened numbers settle (issue 20 item 3): the wait is volatile,
     * so a restart reopens A.0 (issued, confirmed by no peer). A core that counts every number
     * settled after a restart (MutS2MsgAsyncRestartSettles) is caught at the crash; the real one
     * settles A.0 again only when the trace's SettleNumber moves its clock by T_e.
     */
    @Test
    void serverThatCountsEveryNumberSettledAfterARestartIsCaughtAtTheRestart() {
        ReplayResult r = replay(S2MsgReplayer.ASYNC, "exactlyonce-s2msg-async-restart.jsonl",
                (config, clock, w, async, durable) -> EoSeams.s2AsyncWithout(config, clock, w, durable, true, false));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("ServerCrash");
        assertThat(fields(r)).containsExactly("settled.A");
    }

    /**
     * Issue rounds are durable (Condition 1 and the settle rule read them after a restart): a core
     * that leaves its ServerOp.Issue records out is caught by the store check at its first creation.
     */
    @Test
    void serverThatDoesNotJournalItsIssueRoundsIsCaughtAtTheStore() {
        ReplayResult r = replay(S2MsgReplayer.ASYNC, "exactlyonce-s2msg-async-late.jsonl",
                (config, clock, w, async, durable) -> EoSeams.withoutJournaling(
                        S2MsgCores.Factory.REAL.server(config, clock, w, async, durable), ServerOp.Issue.class));
        assertThat(r.passed()).isFalse();
        assertThat(r.failure().action()).isEqualTo("CreateNote");
        assertThat(fields(r)).allMatch(f -> f.startsWith("store.A"));
    }
}
