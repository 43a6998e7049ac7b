package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.onceproof.conformance.validate.StepLogFile;
import dev.onceproof.conformance.validate.TestValidators;
import dev.onceproof.conformance.validate.Validation;
import dev.onceproof.steplog.StepLog;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The worlds' network keeps the specs' lifetime (stop 32): ExactlyOnceS2Timed's and
 * ExactlyOnceS3Timed's Tick keep a message while it has lived fewer than T_e ticks, and the cores'
 * waits (Condition 1, the purge gate) are T_e long on that reading (their {@code at + te <= now}, the
 * specs' {@code ConfWait}/{@code GateWait} = Te, whose T_e - 1 mutants TLC refutes). EoWorld's
 * network drops a message at age T_e ({@link dev.onceproof.sim.SimNetwork#expire}); a network one
 * tick longer (lifetime T_e + 1, SimNetwork's bound before this stop) lets a copy sent in the tick
 * of a confirmation arrive T_e ticks later, when the core has waited out T_e. The untimed specs the
 * worlds validate against (ExactlyOnceS2Msg, ExactlyOnceS3MsgRound) keep the abstract guard the
 * wait stands for (no copy of the number's old incarnation on the way; no copy of the note in
 * flight, with a later copy refused), so TLC rejects the step the core takes then. Each schedule is
 * the same on both networks: on T_e's the copy expires (a Lose line) and TLC accepts the log.
 *
 * <p>The seeded schedules do not find these (0 of 10 seeds rejected per world on the longer network
 * at stop 32, while 8-10 of 10 delivered a message at age T_e): they tick by one 16% of the time and
 * their fair rounds by T_e + 1, so a copy seldom is in flight from the confirmation's tick to the
 * very tick the wait ends, which is when the step must come. Strategies 0 and 1 have no such
 * step: ExactlyOnceS0MsgTimed's Tick bounds only the replicas (taken at once in EoWorld), and
 * Strategy 1 has no T_e wait. The replicas-as-messages world has its own control
 * ({@code EoS2AsyncWorldValidationTest#aReplicaOutlivingTheSettleWaitIsRejectedAtTheSettle}).
 */
class EoNetworkLifetimeWorldValidationTest {

    static final long TE = 3;

    @TempDir
    Path dir;

    /**
     * A.0 processed with a copy of its delivery left in flight, B's confirmation at tick 0, T_e
     * ticks, then A.1 (A.0 is its successor): the core has waited T_e. On T_e's network the copy
     * expires at the T_e-th tick (a Lose line) and TLC accepts the log as ExactlyOnceS2Msg's.
     */
    @Test
    void strategyTwoReusesOnceTheCopyHasExpired() {
        EoWorld world = EoWorld.withNetworkLifetime(Strategy.S2, 2, 1, 2, 2, TE, TE);
        Validation ok = validate(logged(dir.resolve("s2-te.jsonl"), world, this::s2CopyAtTe));
        System.out.println("EoWorld (Strategy 2), a copy until the wait's end: " + ok.summary());
        assertThat(ok.accepted()).as("on T_e's network\n%s", ok.report()).isTrue();
        assertThat(world.created).as("A.1 created once the wait is over").hasSize(2);
        assertThat(world.oldestDelivered()).isLessThan(TE);
    }

    /**
     * The control: the same schedule on a network one tick longer. The copy is still in flight
     * at age T_e when A.1 is created, and ExactlyOnceS2Msg refuses that CreateNote (MayUse: no
     * copy of the old A.0 on the way).
     */
    @Test
    void strategyTwoOnANetworkOneTickLongerIsRejectedAtTheReuse() {
        EoWorld longer = EoWorld.withNetworkLifetime(Strategy.S2, 2, 1, 2, 2, TE, TE + 1);
        Path log = logged(dir.resolve("s2-te-plus-1.jsonl"), longer, this::s2CopyAtTe);
        assertThat(longer.created).hasSize(2);
        Validation v = validate(log);
        System.out.println("Control, EoWorld (Strategy 2) on a network one tick past T_e:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertRejectedAt(log, v, "CreateNote", "A.1");
    }

    private void s2CopyAtTe(EoWorld world) {
        world.create(0, 0); // A.0
        world.connect(0, 0);
        world.sendNote(0);
        world.deliver(0, true); // processed; a copy of the delivery stays in flight, sent at tick 0
        world.deliverFirst(m -> m instanceof EoMessage.NoteAck);
        world.sync(0, 0);
        world.deliverFirst(m -> m instanceof EoMessage.SyncRequest);
        world.deliverFirst(m -> m instanceof EoMessage.SyncReply); // B confirms A.0 gone at tick 0
        world.tick(TE); // the copy is T_e old
        world.create(0, 0); // A.1: Condition 1 waited T_e
    }

    /**
     * n processed with a copy of its delivery left in flight, every D holding n at tick 0, T_e
     * ticks, then A's authorization (the purge) and the copy if it is still in flight: the gate has
     * waited T_e. On T_e's network the copy has expired and TLC accepts the log as
     * ExactlyOnceS3MsgRound's; n is processed once.
     */
    @Test
    void strategyThreePurgesOnceTheCopyHasExpired() {
        EoWorld world = EoWorld.withNetworkLifetime(Strategy.S3, 2, 1, 3, 2, TE, TE);
        Validation ok = validate(logged(dir.resolve("s3-te.jsonl"), world, this::s3CopyAtTe));
        System.out.println("EoWorld (Strategy 3), a copy until the gate opens: " + ok.summary());
        assertThat(ok.accepted()).as("on T_e's network\n%s", ok.report()).isTrue();
        assertThat(world.r(0)).as("the purge reached the client").isEmpty();
        assertThat(world.duplicates()).isEmpty();
    }

    /**
     * The control: the same schedule on a network one tick longer. The copy, at age T_e, reaches
     * the client after the purge and n is processed twice. TraceExactlyOnceS3 has no time: it lets
     * the copy be lost before the Authorize (LoseFor, the stand-in for the T_e wait), so TLC
     * rejects the ReceiveNote of the copy that was not gone.
     */
    @Test
    void strategyThreeOnANetworkOneTickLongerIsRejectedAtTheLateCopy() {
        EoWorld longer = EoWorld.withNetworkLifetime(Strategy.S3, 2, 1, 3, 2, TE, TE + 1);
        Path log = logged(dir.resolve("s3-te-plus-1.jsonl"), longer, this::s3CopyAtTe);
        assertThat(longer.duplicates()).as("n processed again after its purge").hasSize(1);
        Validation v = validate(log);
        System.out.println("Control, EoWorld (Strategy 3) on a network one tick past T_e:\n" + v.report());
        assertThat(v.accepted()).isFalse();
        assertRejectedAt(log, v, "ReceiveNote", "g1");
    }

    private void s3CopyAtTe(EoWorld world) {
        world.createAtOnce(0, 0); // n, in every K with its round done
        world.connect(0, 0);
        world.sendNote(0);
        world.deliver(0, true); // processed; a copy of the delivery stays in flight, sent at tick 0
        world.deliverFirst(m -> m instanceof EoMessage.NoteAck); // n in A's D
        world.sync(0, 0);
        world.deliverFirst(m -> m instanceof EoMessage.SyncRequest); // B learns n delivered
        world.deliverFirst(m -> m instanceof EoMessage.SyncReply); // A sees n in every D at tick 0
        world.tick(TE); // the copy is T_e old
        world.authorize(0); // the purge gate has waited T_e
        world.deliverFirst(m -> m instanceof EoMessage.PurgeRequest);
        world.deliverFirst(m -> m instanceof EoMessage.PurgeAck);
        if (world.inFlight() > 0) {
            world.deliverFirst(m -> m instanceof EoMessage.NoteDelivery); // the copy, at age T_e
        }
    }

    private static Validation validate(Path log) {
        return TestValidators.IN_JVM.validate(List.of(log));
    }

    private static void assertRejectedAt(Path log, Validation v, String action, String note) {
        List<ObjectNode> steps = StepLogFile.read(log).steps();
        assertThat(v.rejection().tried()).singleElement().satisfies(t -> {
            ObjectNode line = steps.get(t.index() - 1);
            assertThat(line.get("action").asText()).isEqualTo(action);
            assertThat(line.get("note").asText()).isEqualTo(note);
        });
    }

    private static Path logged(Path file, EoWorld world, Consumer<EoWorld> steps) {
        try (StepLog log = StepLog.open(file, world.header())) {
            world.logSteps(log);
            steps.accept(world);
        }
        return file;
    }
}
