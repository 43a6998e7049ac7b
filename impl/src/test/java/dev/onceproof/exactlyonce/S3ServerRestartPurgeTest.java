package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A server that restarts (or crashes in place) still authorizes the purge of a note delivered
 * before, once T_e has passed: the spec's Authorize needs only InEveryD and no lingering copy, and
 * the client's R is freed only by a purge (L169), so a server that forgot it may authorize would
 * leave R full for ever. Found by the server SIGKILL run (issue 21): a lone S3Server confirmed a
 * note only on its ack or a peer's sync, so after a restart it never purged what it had delivered
 * before. With a peer, the restarted server waits for the peer's sync as before.
 */
class S3ServerRestartPurgeTest {

    private static final ClientId C = ClientId.of("c");
    private static final ServerId A = ServerId.of("A");
    private static final long TE = 5;

    @Test
    void aRestartedLoneServerAuthorizesThePurgeOfANoteDeliveredBeforeTheKill() {
        ManualEoClock clock = new ManualEoClock(0);
        S3Server before = deliverN1(clock, List.of(A));
        clock.set(100);
        S3Server restarted = new S3Server(before.config(), clock, S3Variant.CORRECTED, before.durable());
        assertThat(restarted.authorize(NoteId.global("n1")).outcome()).as("at the restart itself").isEqualTo("refused");
        clock.set(100 + TE);
        assertThat(restarted.authorize(NoteId.global("n1")).outcome()).isEqualTo("authorized");
    }

    @Test
    void aLoneServerCrashedInPlaceAuthorizesItToo() {
        ManualEoClock clock = new ManualEoClock(0);
        S3Server core = deliverN1(clock, List.of(A));
        clock.set(100);
        core.crash();
        clock.set(100 + TE);
        assertThat(core.authorize(NoteId.global("n1")).outcome()).isEqualTo("authorized");
    }

    @Test
    void aRestartedServerWithAPeerStillWaitsForThePeersSync() {
        ManualEoClock clock = new ManualEoClock(0);
        S3Server before = deliverN1(clock, List.of(A, ServerId.of("B")));
        clock.set(100);
        S3Server restarted = new S3Server(before.config(), clock, S3Variant.CORRECTED, before.durable());
        clock.set(100 + TE);
        assertThat(restarted.authorize(NoteId.global("n1")).outcome()).isEqualTo("refused");
    }

    /** Server A (with {@code servers}) creates n1, delivers it and receives its ack; the round is done by hand. */
    private static S3Server deliverN1(ManualEoClock clock, List<ServerId> servers) {
        S3Server core = new S3Server(new ServerConfig(A, C, new TreeSet<>(servers), TE), clock, S3Variant.CORRECTED,
                ServerDurableState.initial(), true, false); // no round: n1 is deliverable at once
        core.createNote(Optional.of(NoteId.global("n1")), "");
        core.startSession();
        assertThat(core.sendNote().outcome()).isEqualTo("sent");
        assertThat(core.receiveAck(new EoMessage.NoteAck(C, A, NoteId.global("n1"))).outcome()).isEqualTo("delivered");
        return core;
    }
}
