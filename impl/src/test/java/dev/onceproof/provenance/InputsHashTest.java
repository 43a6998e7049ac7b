package dev.onceproof.provenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class InputsHashTest {

    @TempDir
    Path root;

    @Test
    void anEditedFileChangesTheHashAndLineEndingsDoNot() throws Exception {
        Files.createDirectories(root.resolve("a/b"));
        Files.writeString(root.resolve("a/b/x.txt"), "one\ntwo\n");
        Files.writeString(root.resolve("a/y.txt"), "y\n");
        String before = InputsHash.of(root, List.of("a"));
        assertThat(before).startsWith("sha256:").isEqualTo(InputsHash.of(root, List.of("a/y.txt", "a/b")));

        Files.writeString(root.resolve("a/b/x.txt"), "one\r\ntwo\r\n");
        assertThat(InputsHash.of(root, List.of("a"))).isEqualTo(before);

        Files.writeString(root.resolve("a/b/x.txt"), "one\ntwo!\n");
        assertThat(InputsHash.of(root, List.of("a"))).isNotEqualTo(before);
    }

    @Test
    void aRenamedFileChangesTheHash() throws Exception {
        Files.writeString(root.resolve("x.txt"), "same");
        String before = InputsHash.of(root, List.of("."));
        Files.move(root.resolve("x.txt"), root.resolve("z.txt"));
        assertThat(InputsHash.of(root, List.of("."))).isNotEqualTo(before);
    }

    @Test
    void aMissingInputIsNamed() {
        assertThatThrownBy(() -> InputsHash.of(root, List.of("nope/gone.txt")))
                .hasMessageContaining("nope/gone.txt").hasMessageContaining("does not exist");
    }
}
