package dev.onceproof.exactlyonce.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.ManualEoClock;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.S1Server;
import dev.onceproof.exactlyonce.S3Client;
import dev.onceproof.exactlyonce.ServerConfig;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.storage.CorruptJournalException;
import dev.onceproof.storage.Journal;
import dev.onceproof.storage.JournalCodec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client's accept+record is one journal record; a server's journal (operations and
 * checkpoints) recovers the core's state; records that do not decode are refused naming the log.
 */
class StoresTest {

    @TempDir
    Path dir;

    static final ClientId C = ClientId.of("c");
    static final ServerId A = ServerId.of("A");
    static final ServerId B = ServerId.of("B");

    @Test
    void acceptedNoteAndItsProcessingAreOneDurableWrite() {
        try (ClientStore store = ClientStore.open(dir.resolve("c"), ClientStore.journal())) {
            S3Client client = S3Client.fresh(C, 2);
            var step = client.receiveNote(new EoMessage.NoteDelivery(A, C, new Note(NoteId.global("n1"), C, "x")));
            assertThat(step.effects().get(0)).isInstanceOf(ClientEffect.Record.class);
            store.commit((ClientEffect.Record) step.effects().get(0));
        }
        try (ClientStore reopened = ClientStore.open(dir.resolve("c"), ClientStore.journal())) {
            ClientStore.Contents contents = reopened.load().orElseThrow();
            assertThat(contents.stable()).isEqualTo(new ClientStableState.IdList(new TreeSet<>(
                    List.of(NoteId.global("n1")))));
            assertThat(new String(contents.application(), StandardCharsets.US_ASCII)).isEqualTo("n1\n");
        }
    }

    /**
     * A Strategy 1 server's run of 300 notes (created, delivered, acknowledged, a sync every ten),
     * each step's operations saved as its record: reopening the journal, checkpoints included (a
     * small floor makes them due), gives the core's state.
     */
    @Test
    void aServersJournalRecoversTheCoresStateAcrossCheckpoints() {
        ManualEoClock clock = new ManualEoClock(0);
        ServerConfig cfg = new ServerConfig(A, C, new TreeSet<>(List.of(A, B)), 2);
        S1Server server = new S1Server(cfg, clock, ServerDurableState.initial());
        Journal.Options small = new Journal.Options(Journal.Commit.GROUP, 2.0, 256);
        long checkpoints;
        try (ServerStore store = new ServerStore(Journal.open(dir.resolve("A"), ServerStore.codec(), small))) {
            server.startSession();
            for (int n = 1; n <= 300; n++) {
                save(store, server, server.createNote("body " + n));
                save(store, server, server.sendNote());
                save(store, server, server.receiveAck(new EoMessage.NoteAck(C, A, NoteId.sequenced(A, n))));
                if (n % 10 == 0) {
                    save(store, server, server.startSync());
                }
            }
            checkpoints = store.stats().checkpoints();
        }
        assertThat(checkpoints).isPositive();
        try (ServerStore reopened = new ServerStore(Journal.open(dir.resolve("A"), ServerStore.codec(), small))) {
            assertThat(reopened.load()).isEqualTo(server.durable());
        }
    }

    private static void save(ServerStore store, S1Server server, ServerStep step) {
        for (var e : step.effects()) {
            if (e instanceof ServerEffect.Record r) {
                store.save(r, server::durable);
            }
        }
    }

    /** A record that passed its CRC but is not a client record: refused, naming the file and what. */
    @Test
    void wellChecksummedButUndecodableRecordIsRefusedNamingTheFile() {
        JournalCodec<byte[], byte[]> raw = new JournalCodec<>() {
            public byte[] encodeOperation(byte[] b) {
                return b;
            }

            public byte[] decodeOperation(byte[] b) {
                return b;
            }

            public byte[] encodeCheckpoint(byte[] b) {
                return b;
            }

            public byte[] decodeCheckpoint(byte[] b) {
                return b;
            }
        };
        try (Journal<byte[], byte[]> j = Journal.open(dir.resolve("c"), raw, Journal.Options.defaults())) {
            j.appendAndCommit(new byte[] {1, 2, 3, 4, 5});
        }
        assertThatThrownBy(() -> ClientStore.open(dir.resolve("c"), ClientStore.journal()))
                .isInstanceOf(CorruptJournalException.class)
                .hasMessageContaining(dir.resolve("c").toString()).hasMessageContaining("client operation tag");
    }
}
