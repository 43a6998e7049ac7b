package dev.onceproof.scmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.storage.CorruptStableStorageException;
import dev.onceproof.storage.FileStableStorage;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The resilient core over a real file: a process restart is a crash (Fig. 2-2 Crash Recovery). */
class ScmpServerOnFileStorageTest {

    @TempDir
    Path dir;

    final ManualInstantSource clock = new ManualInstantSource(1000);
    final ScmpConfig config = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, 10, 5, 100);
    final ConnId c1 = ConnId.of("c1");

    @Test
    void duplicateAfterProcessRestartIsRejected() {
        // 2.3: "G.latest_precrash <= G.upper_postcrash", with latest on a file that outlives the process.
        Path file = dir.resolve("latest");
        ScmpServer first = new ScmpServer(config, clock, new FileStableStorage(file));
        clock.set(1200);
        first.writeLatest();
        assertThat(first.receive(c1, Timestamp.of(1205))).isEqualTo(Verdict.ACCEPTED);
        // The process dies: nothing of `first` survives but the file.
        clock.set(1300);
        ScmpServer second = ScmpServer.restart(config, clock, new FileStableStorage(file));
        assertThat(second.state().upper()).containsEntry(ScmpConfig.DEFAULT_CLASS, 1210L);
        assertThat(second.receive(c1, Timestamp.of(1205))).isEqualTo(Verdict.DUPLICATE);
        assertThat(second.receive(c1, Timestamp.of(1211))).isEqualTo(Verdict.ACCEPTED);
        assertThat(new FileStableStorage(file).read()).hasValue(1310);
    }

    @Test
    void serverRefusesToStartOnCorruptStorage() throws Exception {
        // DESIGN.md: "a file that fails its checksum stops the server with an error instead of a guess".
        Path file = dir.resolve("latest");
        new ScmpServer(config, clock, new FileStableStorage(file));
        byte[] bytes = Files.readAllBytes(file);
        bytes[10] ^= 0x40;
        Files.write(file, bytes);
        assertThatThrownBy(() -> ScmpServer.restart(config, clock, new FileStableStorage(file)))
                .isInstanceOf(CorruptStableStorageException.class)
                .hasMessageContaining(file.toString())
                .hasMessageContaining("CRC32C");
        assertThatThrownBy(() -> ConcurrentScmpFilter.restart(config, clock, new FileStableStorage(file)))
                .isInstanceOf(CorruptStableStorageException.class);
    }

    @Test
    void freshServerRefusesStorageThatAlreadyHoldsLatest() {
        Path file = dir.resolve("latest");
        new ScmpServer(config, clock, new FileStableStorage(file));
        assertThatThrownBy(() -> new ScmpServer(config, clock, new FileStableStorage(file)))
                .hasMessageContaining("stable storage already holds latest 1010");
    }
}
