package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Strategy 3's acknowledged replication round on the real cores, step by step. */
class ReplicationRoundTest {

    static final ClientId C = CoresTest.C;
    static final ServerId A = CoresTest.A;
    static final ServerId B = CoresTest.B;
    final ManualEoClock clock = new ManualEoClock(0);

    S3Server server(ServerId self, boolean round) {
        return new S3Server(CoresTest.config(self, 2), clock, S3Variant.CORRECTED, ServerDurableState.initial(), true,
                round);
    }

    static List<EoMessage> sends(ServerStep step) {
        return step.effects().stream().filter(e -> e instanceof ServerEffect.Send)
                .map(e -> ((ServerEffect.Send) e).message()).toList();
    }

    @Test
    void aNoteIsDeliverableOnlyOnceEveryServerStoredIt() {
        S3Server a = server(A, true);
        S3Server b = server(B, true);
        ServerStep created = a.createNote(Optional.of(NoteId.global("n1")), "one");
        EoMessage.Replica replica = CoresTest.send(created, EoMessage.Replica.class);
        a.startSession();
        assertThat(a.sendNote().outcome()).as("not before B stored it").isEqualTo("idle");
        ServerStep stored = b.receive(replica);
        assertThat(stored.outcome()).isEqualTo("stored");
        b.startSession();
        assertThat(b.sendNote().outcome()).as("not before the commit").isEqualTo("idle");
        ServerStep committed = a.receive(CoresTest.send(stored, EoMessage.ReplicaAck.class));
        assertThat(committed.outcome()).isEqualTo("committed");
        assertThat(a.sendNote().outcome()).isEqualTo("sent");
        assertThat(b.receive(CoresTest.send(committed, EoMessage.ReplicaCommit.class)).outcome()).isEqualTo("committed");
        assertThat(b.sendNote().outcome()).isEqualTo("sent");
    }
}
