package dev.onceproof.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real files: the format, durability by reopen, and refusal to guess (DESIGN.md, Errors and input). */
class FileStableStorageTest {

    @TempDir
    Path dir;

    Path file() {
        return dir.resolve("latest");
    }

    @Test
    void emptyWhenNoFileWasEverWritten() {
        assertThat(new FileStableStorage(file()).read()).isEmpty();
    }

    @Test
    void valueSurvivesReopen() {
        FileStableStorage s = new FileStableStorage(file());
        s.write(1010);
        s.write(1500);
        assertThat(new FileStableStorage(file()).read()).hasValue(1500);
        assertThat(Files.exists(dir.resolve("latest.tmp"))).as("temp file renamed away").isFalse();
        assertThat(s.read()).hasValue(1500);
    }

    @Test
    void negativeAndLargeValuesRoundTrip() {
        new FileStableStorage(file()).write(-7);
        assertThat(new FileStableStorage(file()).read()).hasValue(-7);
        new FileStableStorage(file()).write(Long.MAX_VALUE);
        assertThat(new FileStableStorage(file()).read()).hasValue(Long.MAX_VALUE);
    }

    @Test
    void goingBackwardsIsRefusedNamingBothValues() {
        // Paper 2.3: "The server merely ensures that the value of G.latest on stable storage is monotonic."
        FileStableStorage s = new FileStableStorage(file());
        s.write(2000);
        assertThatThrownBy(() -> s.write(1999))
                .isInstanceOf(StableStorageBackwardsException.class)
                .hasMessageContaining("latest 1999 is below stored latest 2000");
        FileStableStorage reopened = new FileStableStorage(file());
        assertThatThrownBy(() -> reopened.write(5)).hasMessageContaining("latest 5 is below stored latest 2000");
        assertThat(new FileStableStorage(file()).read()).hasValue(2000);
        s.write(2000); // equal is not backwards
    }

    @Test
    void truncatedFileIsCorrupt() throws Exception {
        new FileStableStorage(file()).write(1234);
        byte[] bytes = Files.readAllBytes(file());
        Files.write(file(), Arrays.copyOf(bytes, 11));
        assertCorrupt("length 11 bytes, expected 20 (truncated)");
        Files.write(file(), new byte[0]);
        assertCorrupt("length 0 bytes, expected 20 (truncated)");
    }

    @Test
    void trailingGarbageIsCorrupt() throws Exception {
        new FileStableStorage(file()).write(1234);
        byte[] bytes = Arrays.copyOf(Files.readAllBytes(file()), 21);
        Files.write(file(), bytes);
        assertCorrupt("length 21 bytes, expected 20 (trailing garbage)");
    }

    @Test
    void wrongMagicIsCorrupt() throws Exception {
        Files.writeString(file(), "latest=1234\n........");
        assertThat(Files.size(file())).isEqualTo(20);
        assertCorrupt("magic 0x6C617465, expected 0x4F50534C (\"OPSL\")");
    }

    @Test
    void unknownVersionIsCorrupt() throws Exception {
        new FileStableStorage(file()).write(1234);
        byte[] bytes = Files.readAllBytes(file());
        ByteBuffer.wrap(bytes).putInt(4, 2);
        Files.write(file(), bytes);
        assertCorrupt("format version 2, this build reads 1");
    }

    @Test
    void flippedBitFailsTheChecksum() throws Exception {
        new FileStableStorage(file()).write(1234);
        byte[] bytes = Files.readAllBytes(file());
        bytes[12] ^= 0x01;
        Files.write(file(), bytes);
        assertCorrupt("CRC32C");
    }

    @Test
    void corruptFileIsNeverOverwritten() throws Exception {
        Files.write(file(), new byte[] {1, 2, 3});
        FileStableStorage s = new FileStableStorage(file());
        assertThatThrownBy(() -> s.write(99999)).isInstanceOf(CorruptStableStorageException.class);
        assertThat(Files.readAllBytes(file())).containsExactly(1, 2, 3);
    }

    void assertCorrupt(String problem) {
        assertThatThrownBy(() -> new FileStableStorage(file()).read())
                .isInstanceOf(CorruptStableStorageException.class)
                .hasMessageContaining(file().toString())
                .hasMessageContaining(problem);
    }
}
