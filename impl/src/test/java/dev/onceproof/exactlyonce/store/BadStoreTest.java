package dev.onceproof.exactlyonce.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientOrdering;
import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.ManualEoClock;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.S1Client;
import dev.onceproof.exactlyonce.S2Client;
import dev.onceproof.exactlyonce.S2Server;
import dev.onceproof.exactlyonce.S3Client;
import dev.onceproof.exactlyonce.ServerConfig;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.storage.CorruptSnapshotException;
import dev.onceproof.storage.FileSnapshotStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad input, stores (DESIGN.md "Errors and input"; issue 9: "a corrupt client or server store stops
 * with an error naming the file"): a damaged file, and a well-formed file whose contents the core
 * cannot take (the wrong strategy's state, an R above q, a number outside the sequence space), each
 * stop with a {@link CorruptSnapshotException} that names the file, and leave the file as it was.
 */
class BadStoreTest {

    @TempDir
    Path dir;

    static final ClientId C = ClientId.of("c");
    static final ServerId A = ServerId.of("A");
    static final ServerId B = ServerId.of("B");

    private ClientStore client(String name) {
        return new ClientStore(new FileSnapshotStore(dir.resolve(name)), ClientStore.journal());
    }

    private void commit(ClientStore store, ClientStableState state) {
        store.commit(new ClientEffect.Record(state, Optional.empty()));
    }

    private static ClientStableState.IdList idList(String... ids) {
        TreeSet<NoteId> r = new TreeSet<>();
        for (String id : ids) {
            r.add(NoteId.global(id));
        }
        return new ClientStableState.IdList(r);
    }

    @Test
    void aDamagedClientFileIsRefusedNamingIt() throws IOException {
        ClientStore store = client("c");
        commit(store, idList("n1"));
        Path file = dir.resolve("c");
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length - 3] ^= 0x40;
        Files.write(file, bytes);
        assertThatThrownBy(() -> client("c").restore(idList(), s -> new S3Client(C, 2, (ClientStableState.IdList) s,
                ClientOrdering.RECORD_THEN_ACK))).isInstanceOf(CorruptSnapshotException.class)
                .hasMessageContaining(file.toString());
        assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
    }

    @Test
    void aStrategy1ClientFileOpenedByAStrategy3ClientIsRefusedNamingIt() {
        TreeMap<ServerId, Long> r = new TreeMap<>();
        r.put(A, 4L);
        commit(client("c"), new ClientStableState.Streams(r));
        assertThatThrownBy(() -> client("c").restore(idList(), s -> new S3Client(C, 2, (ClientStableState.IdList) s,
                ClientOrdering.RECORD_THEN_ACK))).isInstanceOf(CorruptSnapshotException.class)
                .hasMessageContaining(dir.resolve("c").toString()).hasMessageContaining("Streams")
                .hasMessageContaining("IdList");
    }

    @Test
    void anRAboveQIsRefusedNamingTheFile() {
        commit(client("c"), idList("n1", "n2", "n3"));
        assertThatThrownBy(() -> client("c").restore(idList(), s -> new S3Client(C, 2, (ClientStableState.IdList) s,
                ClientOrdering.RECORD_THEN_ACK))).isInstanceOf(CorruptSnapshotException.class)
                .hasMessageContaining(dir.resolve("c").toString()).hasMessageContaining("q = 2");
        assertThat(client("c").load().orElseThrow().stable()).isEqualTo(idList("n1", "n2", "n3"));
    }

    @Test
    void aStoredSequenceNumberOutsideTheSpaceIsRefusedNamingTheFile() {
        TreeMap<ServerId, Long> r = new TreeMap<>();
        r.put(A, 5L);
        commit(client("c"), new ClientStableState.Streams(r));
        assertThatThrownBy(() -> client("c").restore(new ClientStableState.Streams(new TreeMap<>()),
                s -> new S2Client(C, 3, (ClientStableState.Streams) s, ClientOrdering.RECORD_THEN_ACK)))
                .isInstanceOf(CorruptSnapshotException.class).hasMessageContaining(dir.resolve("c").toString())
                .hasMessageContaining("R[A] = 5");
        r.put(A, -1L);
        commit(client("d"), new ClientStableState.Streams(r));
        assertThatThrownBy(() -> client("d").restore(new ClientStableState.Streams(new TreeMap<>()),
                s -> new S1Client(C, (ClientStableState.Streams) s, ClientOrdering.RECORD_THEN_ACK)))
                .isInstanceOf(CorruptSnapshotException.class).hasMessageContaining(dir.resolve("d").toString())
                .hasMessageContaining("R[A] = -1");
    }

    @Test
    void aServerFileWhoseNoteIsOutsideTheSequenceSpaceIsRefusedNamingIt() {
        TreeMap<NoteId, Note> k = new TreeMap<>();
        Note note = new Note(NoteId.sequenced(A, 7), C, "x");
        k.put(note.id(), note);
        ServerStore store = new ServerStore(new FileSnapshotStore(dir.resolve("A")));
        store.save(new ServerEffect.Record(new ServerDurableState(k, new TreeSet<>(), 8, new TreeSet<>(), 0,
                new TreeMap<>(), new TreeMap<>())));
        ServerConfig cfg = new ServerConfig(A, C, new TreeSet<>(List.of(A, B)), 2);
        assertThatThrownBy(() -> new ServerStore(new FileSnapshotStore(dir.resolve("A")))
                .restore(d -> new S2Server(cfg, new ManualEoClock(0), 3, d)))
                .isInstanceOf(CorruptSnapshotException.class).hasMessageContaining(dir.resolve("A").toString())
                .hasMessageContaining("seq");
    }

    @Test
    void aDamagedServerFileIsRefusedNamingIt() throws IOException {
        ServerStore store = new ServerStore(new FileSnapshotStore(dir.resolve("A")));
        store.save(new ServerEffect.Record(ServerDurableState.initial()));
        Path file = dir.resolve("A");
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(file, bytes);
        ServerConfig cfg = new ServerConfig(A, C, new TreeSet<>(List.of(A, B)), 2);
        assertThatThrownBy(() -> new ServerStore(new FileSnapshotStore(file))
                .restore(d -> new S2Server(cfg, new ManualEoClock(0), 3, d)))
                .isInstanceOf(CorruptSnapshotException.class).hasMessageContaining(file.toString());
    }
}
