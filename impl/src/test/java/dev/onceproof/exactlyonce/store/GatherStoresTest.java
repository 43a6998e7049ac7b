package dev.onceproof.exactlyonce.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientHistory;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.GatherConfig;
import dev.onceproof.exactlyonce.GatherDurableState;
import dev.onceproof.exactlyonce.ManualEoClock;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.Replication;
import dev.onceproof.exactlyonce.S4Server;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerStep;
import dev.onceproof.storage.CorruptSnapshotException;
import dev.onceproof.storage.FileSnapshotStore;
import dev.onceproof.storage.InMemorySnapshotStore;
import dev.onceproof.storage.Snapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Strategies 4-6's stores: the server's aDeliver log and K/D/TS, the client's history H. */
class GatherStoresTest {

    @TempDir
    Path dir;

    static final ClientId C = ClientId.of("c");
    static final ServerId A = ServerId.of("A");
    static final ServerId B = ServerId.of("B");
    static final NoteId M1 = NoteId.global("m1");
    static final NoteId M2 = NoteId.global("m2");

    static GatherDurableState sample() {
        TreeMap<NoteId, Note> k = new TreeMap<>();
        k.put(M1, new Note(M1, C, "one"));
        k.put(M2, new Note(M2, C, "two\u00e9"));
        return new GatherDurableState(k, new TreeSet<>(List.of(M1)), new TreeMap<>(Map.of(B, 42L)), 3,
                new TreeMap<>(Map.of(M1, new GatherDurableState.Attempt(2, true),
                        M2, new GatherDurableState.Attempt(3, false))));
    }

    @Test
    void theServerStateAndItsADeliverLogSurviveAReopen() {
        GatherServerStore store = new GatherServerStore(new FileSnapshotStore(dir.resolve("A")));
        assertThat(store.load()).isEqualTo(GatherDurableState.initial());
        store.save(new ServerEffect.RecordGather(sample()));
        assertThat(new GatherServerStore(new FileSnapshotStore(dir.resolve("A"))).load()).isEqualTo(sample());
    }

    @Test
    void aCrashedCoreIsRebuiltWithItsUnresolvedAttempt() {
        ManualEoClock clock = new ManualEoClock(0);
        GatherConfig cfg = GatherConfig.s4(A, C, new TreeSet<>(List.of(A, B)));
        S4Server a = S4Server.fresh(cfg, clock);
        S4Server b = S4Server.fresh(GatherConfig.s4(B, C, new TreeSet<>(List.of(A, B))), clock);
        GatherServerStore store = new GatherServerStore(new FileSnapshotStore(dir.resolve("A")));
        // The replication round at once (B stores M1, A commits): only then is M1 deliverable at A.
        Replication.atOnce(a.createNote(M1, "x"), s -> s.equals(A) ? a : b);
        store.save((ServerEffect.RecordGather) a.startSession().effects().get(0));
        a.recvD(new dev.onceproof.exactlyonce.EoMessage.DReply(B, A, C, 1, 0, new TreeSet<>()));
        a.endGather();
        ServerStep call = a.aDeliver(1, M1);
        store.save((ServerEffect.RecordGather) call.effects().get(0));
        // Crash before the outcome: the reopened store still has the attempt.
        S4Server again = new S4Server(cfg, clock, new GatherServerStore(new FileSnapshotStore(dir.resolve("A"))).load());
        assertThat(again.unresolved()).containsEntry(M1, 1L);
    }

    @Test
    void aCorruptServerFileIsRefusedNamingIt() throws Exception {
        Path f = dir.resolve("A");
        new GatherServerStore(new FileSnapshotStore(f)).save(new ServerEffect.RecordGather(sample()));
        byte[] bytes = Files.readAllBytes(f);
        bytes[30] ^= 0x10;
        Files.write(f, bytes);
        assertThatThrownBy(() -> new GatherServerStore(new FileSnapshotStore(f)).load())
                .isInstanceOf(CorruptSnapshotException.class).hasMessageContaining(f.toString());
    }

    @Test
    void entryNumbersAndTheWatermarkSurviveAReopen() {
        S4Server a = S4Server.fresh(GatherConfig.s4(A, C, new TreeSet<>(List.of(A, B))), new ManualEoClock(0));
        a.createNote(M1, "x");
        a.createNote(M2, "y");
        GatherServerStore store = new GatherServerStore(new FileSnapshotStore(dir.resolve("A")));
        store.save(new ServerEffect.RecordGather(a.durable()));
        GatherDurableState back = new GatherServerStore(new FileSnapshotStore(dir.resolve("A"))).load();
        assertThat(back).isEqualTo(a.durable());
        assertThat(back.entered()).isEqualTo(Map.of(M1, 1L, M2, 2L));
        assertThat(back.seen()).isEqualTo(2);
    }

    /** A round still open at its origin (EGS3's numbers and origins) survives a reopen as it was. */
    @Test
    void theReplicationRoundSurvivesAReopen() {
        S4Server a = S4Server.fresh(GatherConfig.s4(A, C, new TreeSet<>(List.of(A, B))), new ManualEoClock(0));
        a.createNote(M1, "x");
        GatherServerStore store = new GatherServerStore(new FileSnapshotStore(dir.resolve("A")));
        store.save(new ServerEffect.RecordGather(a.durable()));
        GatherDurableState back = new GatherServerStore(new FileSnapshotStore(dir.resolve("A"))).load();
        assertThat(back).isEqualTo(a.durable());
        assertThat(back.origins()).isEqualTo(Map.of(M1, A));
        assertThat(back.numbers()).isEqualTo(Map.of(M1, Map.of(A, 1L)));
        S4Server again = new S4Server(GatherConfig.s4(A, C, new TreeSet<>(List.of(A, B))), new ManualEoClock(0), back);
        again.startSession();
        again.recvD(new dev.onceproof.exactlyonce.EoMessage.DReply(B, A, C, 1, 0, new TreeSet<>()));
        again.endGather();
        assertThat(again.aDeliverNext().outcome()).as("still not committed after the reopen").isEqualTo("idle");
    }

    /** EGS2, written before the round, is still read: its notes count as committed. */
    @Test
    void aStateOfTheFormatBeforeTheRoundIsStillRead() {
        GatherDurableState s = sample();
        assertThat(s.numbers()).isEmpty();
        byte[] v3 = GatherCodec.encodeServer(s);
        byte[] v2 = java.util.Arrays.copyOf(v3, v3.length - 8); // without the two empty counts
        v2[3] = '2';
        assertThat(GatherCodec.decodeServer("test", v2)).isEqualTo(s);
    }

    @Test
    void aStateOfTheFormatBeforeEntryNumbersIsRefusedNamingTheFile() throws Exception {
        // EGS1 had no entry numbers: read as EGS2 it would lose the watermark, so its tag is refused.
        Path f = dir.resolve("A");
        byte[] payload = GatherCodec.encodeServer(sample());
        payload[3] = '1';
        new FileSnapshotStore(f).write(new Snapshot(1, payload));
        assertThatThrownBy(() -> new GatherServerStore(new FileSnapshotStore(f)).load())
                .isInstanceOf(CorruptSnapshotException.class).hasMessageContaining(f.toString())
                .hasMessageContaining("tag 0x45475331, expected 0x45475333 or 0x45475332");
    }

    @Test
    void entryNumbersOutsideTheWatermarkAreRefused() {
        GatherDurableState s = sample();
        assertThatThrownBy(() -> new GatherDurableState(s.k(), s.d(), s.ts(), s.sessions(), s.log(),
                new TreeMap<>(Map.of(M1, 3L)), 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("outside 1..2");
        assertThatThrownBy(() -> new GatherDurableState(s.k(), s.d(), s.ts(), s.sessions(), s.log(),
                new TreeMap<>(Map.of(NoteId.global("m9"), 1L)), 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("only for notes in K");
    }

    @Test
    void aPayloadThatBreaksTheInvariantsIsCorruption() {
        // A well-formed snapshot (checksum fine) whose D is emptied while the log keeps m1's success.
        InMemorySnapshotStore mem = new InMemorySnapshotStore();
        byte[] bad = GatherCodec.encodeServer(sample());
        int at = indexOf(bad, new byte[] {0, 0, 0, 1, 0, 2, 'm', '1'});
        assertThat(at).as("D's encoding").isPositive();
        byte[] cut = new byte[bad.length - 4];
        System.arraycopy(bad, 0, cut, 0, at);
        cut[at + 3] = 0;
        System.arraycopy(bad, at + 8, cut, at + 4, bad.length - at - 8);
        mem.write(new Snapshot(1, cut));
        assertThatThrownBy(() -> new GatherServerStore(mem).load()).isInstanceOf(CorruptSnapshotException.class)
                .hasMessageContaining("in-memory snapshot store").hasMessageContaining("D lacks it");
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void theHistoryRoundTripsAndAnAbsentOneIsUnknown() {
        HistoryStore store = new HistoryStore(dir.resolve("h"));
        HistoryStore.Loaded first = store.load();
        assertThat(first.history().isUnknown()).isTrue();
        assertThat(first.problem()).hasValueSatisfying(p -> assertThat(p).contains("absent"));
        ClientHistory h = ClientHistory.never().ended(A, 17).opened(B);
        store.save(new ClientEffect.RecordHistory(h));
        HistoryStore.Loaded again = new HistoryStore(dir.resolve("h")).load();
        assertThat(again.history()).isEqualTo(h);
        assertThat(again.problem()).isEmpty();
    }

    @Test
    void aCorruptHistoryIsUnknownDetectablyAndMovedAside() throws Exception {
        Path f = dir.resolve("h");
        new HistoryStore(f).save(new ClientEffect.RecordHistory(ClientHistory.never().ended(A, 5)));
        byte[] bytes = Files.readAllBytes(f);
        bytes[bytes.length - 1] ^= 1;
        Files.write(f, bytes);
        HistoryStore store = new HistoryStore(f);
        HistoryStore.Loaded loaded = store.load();
        assertThat(loaded.history()).isEqualTo(ClientHistory.unknown());
        assertThat(loaded.problem()).hasValueSatisfying(p -> assertThat(p).contains(f.toString())
                .contains("CRC32C").contains(".corrupt"));
        assertThat(Files.exists(dir.resolve("h.corrupt"))).isTrue();
        ClientHistory next = ClientHistory.unknown().opened(B);
        store.save(new ClientEffect.RecordHistory(next));
        assertThat(new HistoryStore(f).load().history()).isEqualTo(next);
    }
}
