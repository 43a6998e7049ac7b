package dev.onceproof.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real files: durability by reopen, generations never backwards, corrupt files refused by name. */
class FileSnapshotStoreTest {

    @TempDir
    Path dir;

    Path file() {
        return dir.resolve("client");
    }

    @Test
    void snapshotSurvivesReopen() {
        FileSnapshotStore s = new FileSnapshotStore(file());
        assertThat(s.read()).isEmpty();
        s.write(new Snapshot(1, new byte[] {1, 2, 3}));
        s.write(new Snapshot(2, new byte[] {4}));
        assertThat(new FileSnapshotStore(file()).read()).contains(new Snapshot(2, new byte[] {4}));
        assertThat(Files.exists(dir.resolve("client.tmp"))).as("temp file renamed away").isFalse();
    }

    @Test
    void generationThatDoesNotGrowIsRefusedAndChangesNothing() {
        FileSnapshotStore s = new FileSnapshotStore(file());
        s.write(new Snapshot(5, new byte[] {9}));
        assertThatThrownBy(() -> s.write(new Snapshot(5, new byte[] {1})))
                .isInstanceOf(SnapshotBackwardsException.class).hasMessageContaining("generation 5")
                .hasMessageContaining(file().toString());
        assertThatThrownBy(() -> new FileSnapshotStore(file()).write(new Snapshot(3, new byte[] {1})))
                .isInstanceOf(SnapshotBackwardsException.class);
        assertThat(new FileSnapshotStore(file()).read()).contains(new Snapshot(5, new byte[] {9}));
    }

    @Test
    void everyFlippedByteIsRefusedNamingTheFile() throws Exception {
        new FileSnapshotStore(file()).write(new Snapshot(7, new byte[] {10, 20, 30}));
        byte[] good = Files.readAllBytes(file());
        for (int i = 0; i < good.length; i++) {
            byte[] bad = good.clone();
            bad[i] ^= 0x40;
            Files.write(file(), bad);
            assertThatThrownBy(() -> new FileSnapshotStore(file()).read()).as("byte %d flipped", i)
                    .isInstanceOf(CorruptSnapshotException.class).hasMessageContaining(file().toString());
        }
    }

    @Test
    void truncatedAndExtendedFilesAreRefused() throws Exception {
        new FileSnapshotStore(file()).write(new Snapshot(1, new byte[] {1, 2}));
        byte[] good = Files.readAllBytes(file());
        for (int len = 0; len < good.length; len++) {
            Files.write(file(), java.util.Arrays.copyOf(good, len));
            assertThatThrownBy(() -> new FileSnapshotStore(file()).read()).as("length %d", len)
                    .isInstanceOf(CorruptSnapshotException.class);
        }
        Files.write(file(), java.util.Arrays.copyOf(good, good.length + 1));
        assertThatThrownBy(() -> new FileSnapshotStore(file()).read()).isInstanceOf(CorruptSnapshotException.class);
    }

    @Test
    void leftoverTempFileIsIgnored() throws Exception {
        new FileSnapshotStore(file()).write(new Snapshot(1, new byte[] {1}));
        Files.write(dir.resolve("client.tmp"), new byte[] {0, 1, 2});
        assertThat(new FileSnapshotStore(file()).read()).contains(new Snapshot(1, new byte[] {1}));
    }
}
