package dev.onceproof.bench.history;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.store.GatherServerStore;
import dev.onceproof.exactlyonce.store.ServerStore;
import dev.onceproof.storage.Journal;
import dev.onceproof.storage.OperationLog;
import dev.onceproof.storage.SharedJournal;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The durable-notes run journals every server record of every client, and the journals give them back. */
class DurableNotesTest {

    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = {"S3", "S4"})
    void everyServerKeepsEachClientsRecordsInItsSharedJournal(Strategy s, @TempDir Path dir) {
        DurableNotes.Result r = DurableNotes.run(s, Journal.Commit.GROUP, 4, 3, 100, 256, 0, 0.5, dir);

        assertThat(r.notes()).isPositive();
        assertThat(r.fsyncs()).isPositive();
        assertThat(r.cpuSeconds()).isPositive();
        Journal.Options o = Journal.Options.defaults();
        for (String server : new String[] {"A", "B", "C"}) {
            try (SharedJournal j = SharedJournal.open(dir.resolve(server), o, o)) {
                for (int c = 0; c < 4; c++) {
                    OperationLog<?, ?> view = s == Strategy.S3
                            ? j.view("client-" + c, ServerStore.codec()) : j.view("client-" + c, GatherServerStore.CODEC);
                    assertThat(view.recovered().lastSeq()).as(server + " client-" + c).isPositive();
                }
            }
        }
    }

    /** Notes in flight journal every record too, and the baseline without journals takes no fsync. */
    @ParameterizedTest
    @EnumSource(value = Strategy.class, names = {"S3", "S4"})
    void notesInFlightAndTheBaseline(Strategy s, @TempDir Path dir) {
        DurableNotes.Result r = DurableNotes.run(s, Journal.Commit.GROUP, 4, 3, 20, 100, 256, 0, 0.3, dir);
        DurableNotes.Result none = DurableNotes.run(s, null, 4, 3, 20, 100, 256, 0, 0.3, dir.resolve("none"));

        assertThat(r.notes() % 20).isZero();
        assertThat(r.notesPerFsync()).isPositive();
        Journal.Options o = Journal.Options.defaults();
        try (SharedJournal j = SharedJournal.open(dir.resolve("A"), o, o)) {
            OperationLog<?, ?> view = s == Strategy.S3
                    ? j.view("client-0", ServerStore.codec()) : j.view("client-0", GatherServerStore.CODEC);
            assertThat(view.recovered().lastSeq()).isPositive();
        }
        assertThat(none.commit()).isEqualTo(DurableNotes.NO_JOURNAL);
        assertThat(none.notes()).isPositive();
        assertThat(none.fsyncs()).isZero();
    }
}
