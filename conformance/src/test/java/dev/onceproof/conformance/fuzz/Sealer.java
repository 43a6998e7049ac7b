package dev.onceproof.conformance.fuzz;

import dev.onceproof.rpc.wire.DatagramAuth;
import dev.onceproof.rpc.wire.DecodeResult;
import dev.onceproof.rpc.wire.Keyring;
import dev.onceproof.rpc.wire.RpcDecoder;
import dev.onceproof.rpc.wire.RpcKey;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.rpc.wire.WireFormat;
import dev.onceproof.scmp.ConnId;
import java.util.Arrays;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Turns the {@link DatagramMutator}'s version 1 datagrams into version 2 ones, seeded: most valid
 * messages sealed under their connection's key, the rest forged (another key, an unknown key id, a
 * flipped bit, a cut or extended trailer, a bare version 1 datagram); malformed ones given a
 * version 2 byte and a random trailer. Connection "client-4/uid-77" has no key, so everything on
 * it is unauthenticated.
 */
final class Sealer {

    static final Keyring KEYS = Keyring.of(Map.of(
            ConnId.of("c1"), key(1), ConnId.of("c2"), key(2), ConnId.of("c3"), key(3)));
    private static final RpcKey FORGER = new RpcKey(1, key(99));

    private final SplittableRandom random;

    Sealer(long seed) {
        this.random = new SplittableRandom(seed);
    }

    private static byte[] key(int fill) {
        byte[] k = new byte[32];
        Arrays.fill(k, (byte) fill);
        return k;
    }

    /** The version 2 datagram, and in what[0] how it was made. */
    byte[] seal(byte[] v1, String[] what) {
        DecodeResult r = RpcDecoder.decode(v1);
        if (!(r instanceof DecodeResult.Decoded d)) {
            byte[] out = Arrays.copyOf(v1, v1.length + WireFormat.AUTH_TRAILER);
            if (out.length > 2) {
                out[2] = WireFormat.VERSION_AUTHENTICATED;
            }
            for (int i = v1.length; i < out.length; i++) {
                out[i] = (byte) random.nextInt(256);
            }
            what[0] = "v2 malformed body";
            return out;
        }
        RpcMessage m = d.message();
        RpcKey own = KEYS.sendingKey(m.conn());
        int k = random.nextInt(20);
        if (own == null || k == 15) {
            what[0] = "v2 forger's key";
            return DatagramAuth.seal(m, FORGER);
        }
        if (k < 14) {
            what[0] = "v2 sealed";
            return DatagramAuth.seal(m, own);
        }
        byte[] sealed = DatagramAuth.seal(m, own);
        switch (k) {
            case 14 -> {
                int bit = random.nextInt(sealed.length * 8);
                sealed[bit / 8] ^= (byte) (1 << (bit % 8));
                what[0] = "v2 bit flip";
                return sealed;
            }
            case 16 -> {
                what[0] = "v2 unknown key id";
                return DatagramAuth.seal(m, new RpcKey(7, key(m.conn().value().charAt(1) - '0')));
            }
            case 17 -> {
                what[0] = "v2 bare version 1";
                return v1;
            }
            case 18 -> {
                what[0] = "v2 cut trailer";
                return Arrays.copyOf(sealed, sealed.length - 1 - random.nextInt(WireFormat.AUTH_TRAILER));
            }
            default -> {
                what[0] = "v2 extended";
                return Arrays.copyOf(sealed, sealed.length + 1 + random.nextInt(4));
            }
        }
    }
}
