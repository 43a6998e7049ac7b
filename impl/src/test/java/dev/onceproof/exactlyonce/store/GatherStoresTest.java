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
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.GatherOp;
import dev.onceproof.storage.CorruptJournalException;
import dev.onceproof.storage.CorruptSnapshotException;
import dev.onceproof.storage.InMemoryOperationLog;
import dev.onceproof.storage.Journal;
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

    /** A store over a journal in {@code dir/name} whose checkpoint is due after a few hundred bytes. */
    GatherServerStore journal(String name) {
        return GatherServerStore.open(dir.resolve(name), SMALL);
    }

    static final Journal.Options SMALL = new Journal.Options(Journal.Commit.GROUP, 2.0, 256);

    /** Drives a and b through notes, a session and deliveries, saving every record of a's steps. */
    static void run(S4Server a, S4Server b, GatherServerStore store, int notes) {
        for (int n = 0; n < notes; n++) {
            NoteId id = NoteId.global("n" + n);
            for (Replication.Hop h : Replication.atOnce(save(store, a, a.createNote(id, "body " + n)),
                    s -> s.equals(A) ? a : b)) {
                if (h.server().equals(A)) {
                    save(store, a, h.step());
                }
            }
        }
        save(store, a, a.startSession());
        save(store, a, a.recvD(new EoMessage.DReply(B, A, C, a.session(), 0, new TreeSet<>())));
        save(store, a, a.endGather());
        for (int n = 0; n < notes; n++) {
            ServerStep call = save(store, a, a.aDeliverNext());
            ServerEffect.ADeliver d = (ServerEffect.ADeliver) call.effects().get(1);
            save(store, a, n % 5 == 4 ? a.aDeliverErr(d.session(), d.note().id())
                    : a.aDeliverOk(d.session(), d.note().id()));
            if (n % 5 == 4) {
                return; // the error aborted the session; the rest stays undelivered
            }
        }
    }

    static ServerStep save(GatherServerStore store, S4Server core, ServerStep step) {
        for (ServerEffect e : step.effects()) {
            if (e instanceof ServerEffect.RecordGather r) {
                store.save(r, core::durable);
            }
        }
        return step;
    }

    static S4Server fresh(ServerId self) {
        return S4Server.fresh(GatherConfig.s4(self, C, new TreeSet<>(List.of(A, B))), new ManualEoClock(0));
    }

    @Test
    void theServerStateAndItsADeliverLogSurviveAReopenThroughCheckpoints() {
        S4Server a = fresh(A);
        S4Server b = fresh(B);
        try (GatherServerStore store = journal("A")) {
            assertThat(store.load()).isEqualTo(GatherDurableState.initial());
            run(a, b, store, 40);
            assertThat(store.stats().checkpoints()).as("the small floor makes checkpoints").isPositive();
        }
        try (GatherServerStore again = journal("A")) {
            assertThat(again.load()).isEqualTo(a.durable());
            assertThat(again.load().log()).isNotEmpty();
        }
    }

    @Test
    void aCrashedCoreIsRebuiltWithItsUnresolvedAttempt() {
        InMemoryOperationLog.Disk disk = new InMemoryOperationLog.Disk("A");
        GatherServerStore store = GatherServerStore.inMemory(disk, SMALL);
        S4Server a = fresh(A);
        S4Server b = fresh(B);
        run(a, b, store, 5); // the fifth call fails: n4 is left to deliver
        save(store, a, a.startSession());
        save(store, a, a.recvD(new EoMessage.DReply(B, A, C, a.session(), 0, new TreeSet<>())));
        save(store, a, a.endGather());
        ServerStep call = a.aDeliverNext();
        NoteId called = ((ServerEffect.ADeliver) call.effects().get(1)).note().id();
        store.append((ServerEffect.RecordGather) call.effects().get(0));
        // Appended, not committed: a crash now loses the attempt, and the call was not made.
        disk.crash();
        GatherDurableState lost = GatherServerStore.inMemory(disk, SMALL).load();
        assertThat(lost.log()).doesNotContainKey(called);
        // Committed, then the crash before the outcome: the attempt is there, unresolved.
        GatherServerStore store2 = GatherServerStore.inMemory(disk, SMALL);
        S4Server a3 = store2.restore(s -> new S4Server(a.config(), new ManualEoClock(0), s));
        save(store2, a3, a3.startSession());
        save(store2, a3, a3.recvD(new EoMessage.DReply(B, A, C, a3.session(), 0, new TreeSet<>())));
        save(store2, a3, a3.endGather());
        ServerStep call3 = a3.aDeliverNext();
        NoteId called3 = ((ServerEffect.ADeliver) call3.effects().get(1)).note().id();
        store2.save((ServerEffect.RecordGather) call3.effects().get(0), a3::durable);
        disk.crash();
        S4Server again = GatherServerStore.inMemory(disk, SMALL).restore(s -> new S4Server(a.config(),
                new ManualEoClock(0), s));
        assertThat(again.unresolved()).containsEntry(called3, a3.session());
    }

    /** A round still open at its origin survives a crash as it was: the note stays undeliverable. */
    @Test
    void theReplicationRoundSurvivesACrash() {
        InMemoryOperationLog.Disk disk = new InMemoryOperationLog.Disk("A");
        GatherServerStore store = GatherServerStore.inMemory(disk, SMALL);
        S4Server a = fresh(A);
        save(store, a, a.createNote(M1, "x"));
        disk.crash();
        GatherDurableState back = GatherServerStore.inMemory(disk, SMALL).load();
        assertThat(back).isEqualTo(a.durable());
        assertThat(back.origins()).isEqualTo(Map.of(M1, A));
        assertThat(back.numbers()).isEqualTo(Map.of(M1, Map.of(A, 1L)));
        assertThat(back.entered()).isEqualTo(Map.of(M1, 1L));
        S4Server again = new S4Server(a.config(), new ManualEoClock(0), back);
        again.startSession();
        again.recvD(new EoMessage.DReply(B, A, C, 1, 0, new TreeSet<>()));
        again.endGather();
        assertThat(again.aDeliverNext().outcome()).as("still not committed after the crash").isEqualTo("idle");
    }

    @Test
    void aCorruptJournalIsRefusedNamingIt() throws Exception {
        S4Server a = fresh(A);
        try (GatherServerStore store = GatherServerStore.open(dir.resolve("A"))) {
            save(store, a, a.createNote(M1, "x"));
            save(store, a, a.createNote(M2, "y"));
        }
        Path segment;
        try (var files = Files.list(dir.resolve("A"))) {
            segment = files.filter(f -> f.getFileName().toString().startsWith("journal-")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(segment);
        int at = indexOf(bytes, "m1".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(at).as("the first record's note id").isPositive();
        bytes[at] ^= 0x10;
        Files.write(segment, bytes);
        assertThatThrownBy(() -> GatherServerStore.open(dir.resolve("A")))
                .isInstanceOf(CorruptJournalException.class).hasMessageContaining(segment.toString());
    }

    /** A record that decodes but does not fit the state (here: D gains a note K lacks) is corruption. */
    @Test
    void aRecordThatDoesNotApplyIsRefusedNamingTheLogAndTheRecord() {
        InMemoryOperationLog.Disk disk = new InMemoryOperationLog.Disk("A");
        GatherServerStore store = GatherServerStore.inMemory(disk, SMALL);
        store.save(new ServerEffect.RecordGather(List.of(new GatherOp.Enter(new Note(M1, C, "x"), 1))),
                GatherDurableState::initial);
        store.save(new ServerEffect.RecordGather(List.of(new GatherOp.AddD(M2))), GatherDurableState::initial);
        assertThatThrownBy(() -> GatherServerStore.inMemory(disk, SMALL)).isInstanceOf(CorruptSnapshotException.class)
                .hasMessageContaining("in-memory log A").hasMessageContaining("record 2")
                .hasMessageContaining("AddD");
    }

    @Test
    void bytesThatAreNotARecordAreRefusedNamingWhatDidNotDecode() {
        assertThatThrownBy(() -> GatherServerStore.CODEC.decodeOperation(new byte[] {1, 2, 3, 4, 0, 0, 0, 0}))
                .isInstanceOf(CorruptSnapshotException.class).hasMessageContaining("gather journal record")
                .hasMessageContaining("gather operations tag");
    }

    @Test
    void everyOperationKindRoundTrips() {
        List<GatherOp> ops = List.of(new GatherOp.Enter(new Note(M1, C, "x\u00e9"), 7),
                new GatherOp.OpenRound(M1, B, new TreeMap<>(Map.of(A, 7L))), new GatherOp.AckRound(M1, B, 3),
                new GatherOp.CommitRound(M1, new TreeMap<>(Map.of(A, 7L, B, 3L))), new GatherOp.AddD(M1),
                new GatherOp.SetTs(B, 99), new GatherOp.StartSession(4), new GatherOp.LogAttempt(M2, 4),
                new GatherOp.ADeliverOk(M2, 4), new GatherOp.ADeliverErr(M2), new GatherOp.Purge(M1));
        assertThat(GatherServerStore.CODEC.decodeOperation(GatherServerStore.CODEC.encodeOperation(ops)))
                .isEqualTo(ops);
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
    void aStateOfTheFormatBeforeEntryNumbersIsRefused() {
        // EGS1 had no entry numbers: read as EGS2 it would lose the watermark, so its tag is refused.
        byte[] payload = GatherCodec.encodeServer(sample());
        payload[3] = '1';
        assertThatThrownBy(() -> GatherServerStore.CODEC.decodeCheckpoint(payload))
                .isInstanceOf(CorruptSnapshotException.class).hasMessageContaining("gather checkpoint")
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
        // A well-formed checkpoint (checksum fine) whose D is emptied while the log keeps m1's success.
        byte[] bad = GatherCodec.encodeServer(sample());
        int at = indexOf(bad, new byte[] {0, 0, 0, 1, 0, 2, 'm', '1'});
        assertThat(at).as("D's encoding").isPositive();
        byte[] cut = new byte[bad.length - 4];
        System.arraycopy(bad, 0, cut, 0, at);
        cut[at + 3] = 0;
        System.arraycopy(bad, at + 8, cut, at + 4, bad.length - at - 8);
        assertThatThrownBy(() -> GatherServerStore.CODEC.decodeCheckpoint(cut))
                .isInstanceOf(CorruptSnapshotException.class)
                .hasMessageContaining("gather checkpoint").hasMessageContaining("D lacks it");
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
        ClientHistory h = ClientHistory.never().ended(A, 17).opened(B);
        try (HistoryStore store = HistoryStore.open(dir.resolve("h"))) {
            HistoryStore.Loaded first = store.load();
            assertThat(first.history().isUnknown()).isTrue();
            assertThat(first.problem()).hasValueSatisfying(p -> assertThat(p).contains("absent"));
            store.save(new ClientEffect.RecordHistory(h));
        }
        try (HistoryStore again = HistoryStore.open(dir.resolve("h"))) {
            assertThat(again.load().history()).isEqualTo(h);
            assertThat(again.load().problem()).isEmpty();
        }
    }

    /** The journal's one segment file under {@code d}. */
    private static Path segment(Path d) throws Exception {
        try (var files = Files.list(d)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log")).findFirst().orElseThrow();
        }
    }

    @Test
    void aCorruptHistoryIsUnknownDetectablyAndMovedAside() throws Exception {
        Path d = dir.resolve("h");
        try (HistoryStore store = HistoryStore.open(d)) {
            store.save(new ClientEffect.RecordHistory(ClientHistory.never().opened(A)));
            store.save(new ClientEffect.RecordHistory(ClientHistory.never().ended(A, 5)));
        }
        // A byte of the first record's payload: a good record follows it, so it is corruption, not a torn write.
        Path seg = segment(d);
        byte[] bytes = Files.readAllBytes(seg);
        bytes[8 + 12 + 2] ^= 1;
        Files.write(seg, bytes);
        try (HistoryStore store = HistoryStore.open(d)) {
            HistoryStore.Loaded loaded = store.load();
            assertThat(loaded.history()).isEqualTo(ClientHistory.unknown());
            assertThat(loaded.problem()).hasValueSatisfying(p -> assertThat(p).contains(seg.getFileName().toString())
                    .contains("CRC32C").contains("h.corrupt").contains("UNKNOWN"));
            assertThat(dir.resolve("h.corrupt")).isDirectory();
            store.save(new ClientEffect.RecordHistory(ClientHistory.unknown().opened(B)));
        }
        try (HistoryStore again = HistoryStore.open(d)) {
            assertThat(again.load().history()).isEqualTo(ClientHistory.unknown().opened(B));
        }
    }

    @Test
    void aTornLastWriteLeavesTheHistoryBeforeIt() throws Exception {
        Path d = dir.resolve("h");
        ClientHistory before = ClientHistory.never().ended(A, 5);
        try (HistoryStore store = HistoryStore.open(d)) {
            store.save(new ClientEffect.RecordHistory(before));
            store.save(new ClientEffect.RecordHistory(before.opened(B)));
        }
        Path seg = segment(d);
        byte[] bytes = Files.readAllBytes(seg);
        Files.write(seg, java.util.Arrays.copyOf(bytes, bytes.length - 3));
        try (HistoryStore store = HistoryStore.open(d)) {
            assertThat(store.load().history()).isEqualTo(before);
            assertThat(store.load().problem()).isEmpty();
        }
    }

    @Test
    void aLongRunOfWritesIsCompactedIntoCheckpoints() throws Exception {
        Path d = dir.resolve("h");
        ClientHistory h = ClientHistory.never();
        try (HistoryStore store = HistoryStore.open(d)) {
            for (int i = 0; i < 2_000; i++) {
                h = i % 2 == 0 ? h.opened(A) : h.ended(A, i);
                store.save(new ClientEffect.RecordHistory(h));
            }
        }
        long bytes;
        try (var files = Files.walk(d)) {
            bytes = files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
        // 2,000 records of about 36 bytes take 72 KB without a checkpoint; with them the journal stays
        // within twice the 16 KiB floor, plus the checkpoint and the segment header.
        assertThat(bytes).isLessThan(2 * (16 << 10) + 1_000);
        try (HistoryStore again = HistoryStore.open(d)) {
            assertThat(again.load().history()).isEqualTo(h);
        }
    }
}
