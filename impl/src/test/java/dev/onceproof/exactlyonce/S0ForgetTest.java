package dev.onceproof.exactlyonce;

import static dev.onceproof.exactlyonce.CoresTest.A;
import static dev.onceproof.exactlyonce.CoresTest.B;
import static dev.onceproof.exactlyonce.CoresTest.C;
import static dev.onceproof.exactlyonce.CoresTest.config;
import static dev.onceproof.exactlyonce.CoresTest.send;
import static dev.onceproof.exactlyonce.CoresTest.sent;
import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.exactlyonce.store.ServerStore;
import dev.onceproof.storage.InMemoryOperationLog;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Strategy 0's bounded knowledge (issue 19 item 1), as ExactlyOnceS0Msg's Forget and
 * ExactlyOnceS0MsgTimed's clock wait state it: a removed id is forgotten once the other server
 * confirmed it and T_e has passed since; each guard's seam shows the check can fail.
 */
class S0ForgetTest {

    static final long TE = 2;
    final ManualEoClock clock = new ManualEoClock(0);
    final InMemoryOperationLog.Disk disk = new InMemoryOperationLog.Disk("server A");
    final ServerStore storeA = ServerStore.inMemory(disk);
    /** Whether A's records go to storeA (the long run leaves it out: the store is not under test there). */
    boolean journaling = true;

    private S0Server server(ServerId self, boolean confirmed, boolean te) {
        return new S0Server(config(self, TE), clock, ServerDurableState.initial(), confirmed, te);
    }

    /** n{k} created at A, replicated to B, delivered from A and acked; A's records saved. */
    private void deliver(S0Server a, S0Server b, int k) {
        NoteId id = NoteId.global("n" + k);
        ServerStep created = a.createNote(Optional.of(id), "body");
        save(a, created);
        b.receiveReplica(send(created, EoMessage.Replica.class));
        a.startSession();
        ClientStep step = new S0Client(C).receiveNote(sent(a.sendNote(id)));
        save(a, a.receiveAck(CoresTest.ack(step)));
    }

    /** A sync round of {@code from} with the other server, as the runtime runs it (sync, receive). */
    private void syncRound(S0Server from, S0Server to) {
        syncRound(from, to, true);
    }

    /** The same; {@code viaReceive = false} hands the request to handleSync, skipping receive's forgets. */
    private void syncRound(S0Server from, S0Server to, boolean viaReceive) {
        ServerStep started = from.sync();
        if (from.config().self().equals(A)) {
            save(from, started);
        }
        EoMessage.SyncRequest request = send(started, EoMessage.SyncRequest.class);
        ServerStep replied = viaReceive ? to.receive(request) : to.handleSync(request);
        ServerStep merged = from.receive(send(replied, EoMessage.SyncReply.class));
        if (from.config().self().equals(A)) {
            save(from, merged);
        }
    }

    private void save(S0Server a, ServerStep step) {
        if (!journaling) {
            return;
        }
        step.effects().stream().filter(e -> e instanceof ServerEffect.Record)
                .forEach(e -> storeA.save((ServerEffect.Record) e, a::durable));
    }

    @Test
    void removedIdIsForgottenOnceConfirmedAndTeHasPassed() {
        S0Server a = server(A, true, true);
        S0Server b = server(B, true, true);
        NoteId n1 = NoteId.global("n1");
        deliver(a, b, 1);
        assertThat(a.mayForget(n1)).as("not yet confirmed by B").isFalse();

        syncRound(a, b);
        assertThat(a.confirmedBy(B)).containsExactly(n1);
        assertThat(a.mayForget(n1)).as("confirmed at 0, T_e not over").isFalse();
        clock.advance(TE - 1);
        assertThat(a.mayForget(n1)).as("one tick short").isFalse();
        clock.advance(1);
        assertThat(a.mayForget(n1)).isTrue();

        syncRound(a, b); // the runtime's sync forgets first, then asks B
        assertThat(a.durable().removed()).isEmpty();
        assertThat(a.durable().removedConf()).isEmpty();
        assertThat(ServerStore.inMemory(disk).load()).as("the forget is journaled and recovered")
                .isEqualTo(a.durable());
    }

    /** The guards' controls: each seam lets the id go where the rule keeps it. */
    @Test
    void eachGuardOfTheRuleIsNeeded() {
        NoteId n1 = NoteId.global("n1");
        S0Server unconfirmed = server(A, false, true);
        deliver(unconfirmed, server(B, true, true), 1);
        assertThat(unconfirmed.mayForget(n1)).as("Confirmed(s, i) dropped: open before B knows").isTrue();

        S0Server early = server(A, true, false);
        S0Server b = server(B, true, true);
        deliver(early, b, 1);
        syncRound(early, b);
        assertThat(early.mayForget(n1)).as("T_e wait dropped: open at the confirmation").isTrue();
    }

    /**
     * Knowledge stays bounded over a long run in which both servers sync in turn and time passes:
     * at most the ids of a few sync periods. The control: a peer that handles requests without
     * first forgetting what the rule allows hands every id back in its reply, and the two servers
     * pass the ids back and forth for ever, so removed only grows.
     */
    @Test
    void removedStaysBoundedOverManyDeliveries() {
        journaling = false;
        int bounded = mostRemoved(true);
        int control = mostRemoved(false);
        assertThat(bounded).isLessThanOrEqualTo(150);
        assertThat(control).as("control: no forget before handling a request").isGreaterThan(500);
    }

    private int mostRemoved(boolean viaReceive) {
        S0Server a = server(A, true, true);
        S0Server b = server(B, true, true);
        int most = 0;
        for (int k = 1; k <= 600; k++) {
            deliver(a, b, k);
            if (k % 50 == 0) {
                syncRound(a, b, viaReceive);
                clock.advance(TE);
            } else if (k % 50 == 25) {
                syncRound(b, a, viaReceive);
                clock.advance(TE);
            }
            most = Math.max(most, Math.max(a.durable().removed().size(), b.durable().removed().size()));
        }
        return most;
    }
}
