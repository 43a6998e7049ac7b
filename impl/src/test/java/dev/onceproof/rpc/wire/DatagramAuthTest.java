package dev.onceproof.rpc.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Wire format version 2: what opens, and that no altered or foreign datagram does. */
class DatagramAuthTest {

    static final ConnId C1 = ConnId.of("c1");
    static final byte[] KEY = HexFormat.of().parseHex(KeyringTest.KEY_A);
    static final byte[] OTHER_KEY = HexFormat.of().parseHex(KeyringTest.KEY_B);
    static final Keyring KEYS = Keyring.of(Map.of(C1, KEY));
    static final RpcMessage CALL = new RpcMessage.Call(C1, Timestamp.of(1234), Payload.ofUtf8("args"));

    @Test
    void aSealedMessageOpensToItself() {
        byte[] d = DatagramAuth.seal(CALL, KEYS.sendingKey(C1));
        assertThat(d).hasSize(RpcEncoder.encodedLength(CALL) + 33);
        assertThat(d[2]).isEqualTo(WireFormat.VERSION_AUTHENTICATED);
        assertThat(DatagramAuth.open(d, 0, d.length, null, KEYS)).isEqualTo(new DecodeResult.Decoded(CALL));
    }

    @Test
    void everySingleBitFlipIsRefused() {
        byte[] d = DatagramAuth.seal(CALL, KEYS.sendingKey(C1));
        for (int i = 0; i < d.length * 8; i++) {
            byte[] m = d.clone();
            m[i / 8] ^= (byte) (1 << (i % 8));
            assertThat(DatagramAuth.open(m, 0, m.length, null, KEYS)).as("bit " + i)
                    .isNotInstanceOf(DecodeResult.Decoded.class);
        }
    }

    @Test
    void aForgerWithoutTheKeyIsUnauthenticated() {
        // The attack of issue 13: the victim's id and a plausible timestamp, tagged under another key.
        byte[] forged = DatagramAuth.seal(CALL, new RpcKey(1, OTHER_KEY));
        assertThat(DatagramAuth.open(forged, 0, forged.length, null, KEYS))
                .isEqualTo(new DecodeResult.Unauthenticated(1, "tag does not match key id 1 of c1"));
        byte[] v1 = RpcEncoder.encode(CALL);
        assertThat(DatagramAuth.open(v1, 0, v1.length, null, KEYS)).isInstanceOf(DecodeResult.Unauthenticated.class);
        byte[] unknownId = DatagramAuth.seal(CALL, new RpcKey(9, KEY));
        assertThat(DatagramAuth.open(unknownId, 0, unknownId.length, null, KEYS))
                .isEqualTo(new DecodeResult.Unauthenticated(9, "no key id 9 for connection c1"));
    }

    @Test
    void aVersion2DatagramIsUnknownToAServerWithoutKeys() {
        byte[] d = DatagramAuth.seal(CALL, KEYS.sendingKey(C1));
        assertThat(RpcDecoder.decode(d)).isInstanceOf(DecodeResult.Malformed.class)
                .extracting(r -> ((DecodeResult.Malformed) r).error()).isEqualTo(DecodeError.UNKNOWN_VERSION);
    }
}
