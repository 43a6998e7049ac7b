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
import dev.onceproof.exactlyonce.ServerOp;
import dev.onceproof.storage.CorruptJournalException;
import dev.onceproof.storage.CorruptSnapshotException;
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
        return ClientStore.open(dir.resolve(name), ClientStore.journal());
    }

    /** Commits {@code state} and closes the store (the test reopens the journal as a restart would). */
    private void commit(ClientStore store, ClientStableState state) {
        store.commit(new ClientEffect.Record(state, Optional.empty()));
        store.close();
    }

    private <T> T restore(String name, ClientStableState initial, java.util.function.Function<ClientStableState, T> build) {
        try (ClientStore store = client(name)) {
            return store.restore(initial, build);
        }
    }

    private Optional<ClientStore.Contents> load(String name) {
        try (ClientStore store = client(name)) {
            return store.load();
        }
    }

    /** The journal's first segment in {@code name}'s directory. */
    private Path segment(String name) throws IOException {
        try (var files = Files.list(dir.resolve(name))) {
            return files.filter(f -> f.getFileName().toString().startsWith("journal-")).sorted().findFirst()
                    .orElseThrow();
        }
    }

    private static ClientStableState.IdList idList(String... ids) {
        TreeSet<NoteId> r = new TreeSet<>();
        for (String id : ids) {
            r.add(NoteId.global(id));
        }
        return new ClientStableState.IdList(r);
    }

    /** A damaged record with a good one after it is no torn tail: refused, naming the file, left as it is. */
    @Test
    void aDamagedClientJournalIsRefusedNamingIt() throws IOException {
        ClientStore store = client("c");
        store.commit(new ClientEffect.Record(idList("n1"), Optional.empty()));
        commit(store, idList("n1", "n2"));
        Path file = segment("c");
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 3] ^= 0x40;
        Files.write(file, bytes);
        assertThatThrownBy(() -> client("c")).isInstanceOf(CorruptJournalException.class)
                .hasMessageContaining(file.toString());
        assertThat(Files.readAllBytes(file)).isEqualTo(bytes);
    }

    @Test
    void aStrategy1ClientFileOpenedByAStrategy3ClientIsRefusedNamingIt() {
        TreeMap<ServerId, Long> r = new TreeMap<>();
        r.put(A, 4L);
        commit(client("c"), new ClientStableState.Streams(r));
        assertThatThrownBy(() -> restore("c", idList(), s -> new S3Client(C, 2, (ClientStableState.IdList) s,
                ClientOrdering.RECORD_THEN_ACK))).isInstanceOf(CorruptSnapshotException.class)
                .hasMessageContaining(dir.resolve("c").toString()).hasMessageContaining("Streams")
                .hasMessageContaining("IdList");
    }

    @Test
    void anRAboveQIsRefusedNamingTheFile() {
        commit(client("c"), idList("n1", "n2", "n3"));
        assertThatThrownBy(() -> restore("c", idList(), s -> new S3Client(C, 2, (ClientStableState.IdList) s,
                ClientOrdering.RECORD_THEN_ACK))).isInstanceOf(CorruptSnapshotException.class)
                .hasMessageContaining(dir.resolve("c").toString()).hasMessageContaining("q = 2");
        assertThat(load("c").orElseThrow().stable()).isEqualTo(idList("n1", "n2", "n3"));
    }

    @Test
    void aStoredSequenceNumberOutsideTheSpaceIsRefusedNamingTheFile() {
        TreeMap<ServerId, Long> r = new TreeMap<>();
        r.put(A, 5L);
        commit(client("c"), new ClientStableState.Streams(r));
        assertThatThrownBy(() -> restore("c", new ClientStableState.Streams(new TreeMap<>()),
                s -> new S2Client(C, 3, (ClientStableState.Streams) s, ClientOrdering.RECORD_THEN_ACK)))
                .isInstanceOf(CorruptSnapshotException.class).hasMessageContaining(dir.resolve("c").toString())
                .hasMessageContaining("R[A] = 5");
        r.put(A, -1L);
        commit(client("d"), new ClientStableState.Streams(r));
        assertThatThrownBy(() -> restore("d", new ClientStableState.Streams(new TreeMap<>()),
                s -> new S1Client(C, (ClientStableState.Streams) s, ClientOrdering.RECORD_THEN_ACK)))
                .isInstanceOf(CorruptSnapshotException.class).hasMessageContaining(dir.resolve("d").toString())
                .hasMessageContaining("R[A] = -1");
    }

    @Test
    void aServerJournalWhoseNoteIsOutsideTheSequenceSpaceIsRefusedNamingIt() {
        Note note = new Note(NoteId.sequenced(A, 7), C, "x");
        try (ServerStore store = ServerStore.open(dir.resolve("A"))) {
            store.save(new ServerEffect.Record(List.of(new ServerOp.Enter(note, 1), new ServerOp.SetCtr(8))),
                    ServerDurableState::initial);
        }
        ServerConfig cfg = new ServerConfig(A, C, new TreeSet<>(List.of(A, B)), 2);
        assertThatThrownBy(() -> ServerStore.open(dir.resolve("A"))
                .restore(d -> new S2Server(cfg, new ManualEoClock(0), 3, d)))
                .isInstanceOf(CorruptSnapshotException.class).hasMessageContaining(dir.resolve("A").toString())
                .hasMessageContaining("seq");
    }

    /** Operations that decode but break the state's invariants (D outside K) are refused, naming the log. */
    @Test
    void aServerJournalThatDoesNotMakeAStateIsRefusedNamingIt() {
        try (ServerStore store = ServerStore.open(dir.resolve("A"))) {
            store.save(new ServerEffect.Record(List.of(new ServerOp.AddD(NoteId.global("n")))),
                    ServerDurableState::initial);
        }
        assertThatThrownBy(() -> ServerStore.open(dir.resolve("A"))).isInstanceOf(CorruptSnapshotException.class)
                .hasMessageContaining(dir.resolve("A").toString()).hasMessageContaining("subset of K");
    }

    @Test
    void aDamagedServerJournalIsRefusedNamingIt() throws IOException {
        try (ServerStore store = ServerStore.open(dir.resolve("A"))) {
            store.save(new ServerEffect.Record(List.of(new ServerOp.SetRound(1))), ServerDurableState::initial);
            store.save(new ServerEffect.Record(List.of(new ServerOp.SetRound(2))), ServerDurableState::initial);
        }
        Path file = segment("A");
        byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 3] ^= 0x01;
        Files.write(file, bytes);
        assertThatThrownBy(() -> ServerStore.open(dir.resolve("A"))).isInstanceOf(CorruptJournalException.class)
                .hasMessageContaining(file.toString());
    }
}
