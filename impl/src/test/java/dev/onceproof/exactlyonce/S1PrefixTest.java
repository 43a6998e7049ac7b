package dev.onceproof.exactlyonce;

import static dev.onceproof.exactlyonce.CoresTest.A;
import static dev.onceproof.exactlyonce.CoresTest.B;
import static dev.onceproof.exactlyonce.CoresTest.C;
import static dev.onceproof.exactlyonce.CoresTest.ack;
import static dev.onceproof.exactlyonce.CoresTest.config;
import static dev.onceproof.exactlyonce.CoresTest.send;
import static dev.onceproof.exactlyonce.CoresTest.sent;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Strategy 1's bounded knowledge (issue 19 item 1), rule by rule as ExactlyOnceS1Msg states them:
 * advance on the ack, send the stored prefix, merge by max; and the failure, a server that
 * could not sync after 65,536 deliveries.
 */
class S1PrefixTest {

    final ManualEoClock clock = new ManualEoClock(0);
    final S1Server a = new S1Server(config(A, 2), clock, ServerDurableState.initial());
    final S1Server b = new S1Server(config(B, 2), clock, ServerDurableState.initial());
    final S1Client client = S1Client.fresh(C);

    /** Creates n notes at A, replicated to B, and delivers them from A in order. */
    private void deliverFromA(int n) {
        a.startSession();
        for (int i = 0; i < n; i++) {
            b.receiveReplica(send(a.createNote("m"), EoMessage.Replica.class));
            ClientStep step = client.receiveNote(sent(a.sendNote()));
            assertThat(a.receiveAck(ack(step)).outcome()).isEqualTo("delivered");
        }
    }

    private static NoteId id(ServerId x, long n) {
        return NoteId.sequenced(x, n);
    }

    @Test
    void advanceKeepsOneIdPerStreamAndTheSyncCarriesIt() {
        deliverFromA(3);

        assertThat(a.durable().removed()).containsExactly(id(A, 3));
        assertThat(a.prefix(A)).isEqualTo(3);
        assertThat(send(a.startSync(), EoMessage.SyncRequest.class).removed()).containsExactly(id(A, 3));
    }

    @Test
    void mergeTakesTheLargerPrefixAndKLosesWhatItCovers() {
        deliverFromA(3);
        TreeSet<NoteId> none = new TreeSet<>();
        EoMessage.SyncRequest fresh = new EoMessage.SyncRequest(A, B, C, 1, none, none, new TreeSet<>(List.of(id(A, 2))), 3);
        EoMessage.SyncRequest stale = new EoMessage.SyncRequest(A, B, C, 1, none, none, new TreeSet<>(List.of(id(A, 1))), 1);

        b.handleSync(fresh);
        assertThat(b.durable().k().keySet()).containsExactly(id(A, 3));
        b.handleSync(stale);

        assertThat(b.prefix(A)).as("a stale message does not move the prefix back").isEqualTo(2);
        assertThat(b.durable().removed()).containsExactly(id(A, 2));
        assertThat(b.receiveReplica(new EoMessage.Replica(A, B, new Note(id(A, 1), C, "m"))).outcome())
                .as("a late replica of a covered id").isEqualTo("ignored");
        assertThat(b.durable().k().keySet()).containsExactly(id(A, 3));
    }

    @Test
    void aStateStoredWithEveryRemovedIdIsCompactedOnRestore() {
        TreeSet<NoteId> every = new TreeSet<>(List.of(id(A, 1), id(A, 2), id(A, 3), id(B, 1)));
        TreeMap<NoteId, Note> k = new TreeMap<>();
        k.put(id(A, 4), new Note(id(A, 4), C, "m"));
        ServerDurableState old = new ServerDurableState(k, new TreeSet<>(), 4, every, 0, new TreeMap<>(), new TreeMap<>());

        S1Server restored = new S1Server(config(A, 2), clock, old);

        assertThat(restored.durable().removed()).containsExactly(id(A, 3), id(B, 1));
        assertThat(restored.durable().k().keySet()).containsExactly(id(A, 4));
    }

    /** The report: after 80,000 deliveries startSync threw "removed: 80000 ids, above 65536". */
    @Test
    void aServerStillSyncsAfterMoreDeliveriesThanOneMessageCouldList() {
        a.startSession();
        for (int i = 0; i < 66_000; i++) {
            a.createNote("m");
            a.receiveAck(ack(client.receiveNote(sent(a.sendNote()))));
        }

        EoMessage.SyncRequest request = send(a.startSync(), EoMessage.SyncRequest.class);

        assertThat(request.removed()).containsExactly(id(A, 66_000));
        assertThat(a.durable().issued()).as("Strategy 2's issue rounds are not kept per note").isEmpty();
    }
}
