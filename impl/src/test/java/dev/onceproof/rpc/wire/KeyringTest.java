package dev.onceproof.rpc.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.scmp.ConnId;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Key files: what loads, and every way a bad one stops the server or client, naming file and line. */
class KeyringTest {

    static final String KEY_A = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
    static final String KEY_B = "ffeeddccbbaa99887766554433221100ffeeddccbbaa99887766554433221100";

    @TempDir
    Path dir;

    Path file(String text) throws Exception {
        Path f = dir.resolve("keys");
        Files.writeString(f, text);
        return f;
    }

    @Test
    void loadsKeysAndSendsWithTheHighestIdOfAConnection() throws Exception {
        Keyring k = Keyring.load(file("# comment\n\nc1 1 " + KEY_A + "\nc1\t7\t" + KEY_B + "\nc2 3 " + KEY_A + "\n"));
        assertThat(k.sendingKey(ConnId.of("c1")).keyId()).isEqualTo(7);
        assertThat(k.key(ConnId.of("c1"), 1)).isNotNull();
        assertThat(k.key(ConnId.of("c1"), 3)).isNull();
        assertThat(k.sendingKey(ConnId.of("c3"))).isNull();
        assertThat(k.connections()).hasSize(2);
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = dir.resolve("nope");
        assertThatThrownBy(() -> Keyring.load(missing)).isInstanceOf(KeyFileException.class)
                .hasMessageStartingWith(missing + ": cannot read the key file");
    }

    @Test
    void aKeyShorterThan32BytesIsRefusedWithItsLine() throws Exception {
        Path f = file("c1 1 " + KEY_A + "\nc2 1 " + KEY_A.substring(2) + "\n");
        assertThatThrownBy(() -> Keyring.load(f)).isInstanceOf(KeyFileException.class)
                .hasMessage(f + ":2: c2: key 1 has 31 bytes; at least 32 are required (HMAC-SHA256)")
                .satisfies(e -> assertThat(((KeyFileException) e).line()).isEqualTo(2));
    }

    @Test
    void malformedLinesAreNamed() throws Exception {
        assertThatThrownBy(() -> Keyring.load(file("c1 1\n"))).hasMessageEndingWith(":1: expected \"<conn> <keyId>"
                + " <key in hex>\", found 2 fields");
        assertThatThrownBy(() -> Keyring.load(file("#\nc1 one " + KEY_A + "\n"))).hasMessageContaining(":2: key id \"one\"");
        assertThatThrownBy(() -> Keyring.load(file("c1 256 " + KEY_A + "\n"))).hasMessageContaining(":1: c1: key id 256");
        assertThatThrownBy(() -> Keyring.load(file("c1 1 zz" + KEY_A + "\n"))).hasMessageContaining(":1: key of c1 is not hex");
        assertThatThrownBy(() -> Keyring.load(file("c1 1 " + KEY_A + "\nc1 1 " + KEY_B + "\n")))
                .hasMessageContaining(":2: key id 1 of c1 is listed twice");
        assertThatThrownBy(() -> Keyring.load(file("# nothing\n"))).hasMessageEndingWith(": holds no keys");
    }
}
