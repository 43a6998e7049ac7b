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
import dev.onceproof.exactlyonce.S3Client;
import dev.onceproof.exactlyonce.S3Server;
import dev.onceproof.exactlyonce.ServerConfig;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.storage.CorruptSnapshotException;
import dev.onceproof.storage.FileSnapshotStore;
import dev.onceproof.storage.Snapshot;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The client's accept+record is one write; server state round-trips; corrupt payloads are refused. */
class StoresTest {

    @TempDir
    Path dir;

    static final ClientId C = ClientId.of("c");
    static final ServerId A = ServerId.of("A");

    @Test
    void acceptedNoteAndItsProcessingAreOneDurableWrite() {
        ClientStore store = new ClientStore(new FileSnapshotStore(dir.resolve("c")), ClientStore.journal());
        S3Client client = S3Client.fresh(C, 2);
        var step = client.receiveNote(new EoMessage.NoteDelivery(A, C, new Note(NoteId.global("n1"), C, "x")));
        assertThat(step.effects().get(0)).isInstanceOf(ClientEffect.Record.class);
        store.commit((ClientEffect.Record) step.effects().get(0));

        ClientStore reopened = new ClientStore(new FileSnapshotStore(dir.resolve("c")), ClientStore.journal());
        ClientStore.Contents contents = reopened.load().orElseThrow();
        assertThat(contents.stable()).isEqualTo(new ClientStableState.IdList(new TreeSet<>(
                java.util.List.of(NoteId.global("n1")))));
        assertThat(new String(contents.application(), StandardCharsets.US_ASCII)).isEqualTo("n1\n");
    }

    @Test
    void serverStateRoundTrips() {
        ManualEoClock clock = new ManualEoClock(0);
        ServerConfig cfg = new ServerConfig(A, C, new TreeSet<>(java.util.List.of(A, ServerId.of("B"))), 2);
        S3Server server = S3Server.fresh(cfg, clock);
        var step = server.createNote(NoteId.global("n1"), "body");
        ServerStore store = new ServerStore(new FileSnapshotStore(dir.resolve("A")));
        store.save((ServerEffect.Record) step.effects().get(0));
        assertThat(new ServerStore(new FileSnapshotStore(dir.resolve("A"))).load()).isEqualTo(server.durable());
    }

    @Test
    void wellChecksummedButUndecodablePayloadIsRefusedNamingTheFile() {
        FileSnapshotStore raw = new FileSnapshotStore(dir.resolve("c"));
        raw.write(new Snapshot(1, new byte[] {1, 2, 3, 4, 5}));
        ClientStore store = new ClientStore(new FileSnapshotStore(dir.resolve("c")), ClientStore.journal());
        assertThatThrownBy(store::load).isInstanceOf(CorruptSnapshotException.class)
                .hasMessageContaining(dir.resolve("c").toString()).hasMessageContaining("client state tag");
    }
}
