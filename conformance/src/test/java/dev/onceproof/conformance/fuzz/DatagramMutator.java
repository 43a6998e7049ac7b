package dev.onceproof.conformance.fuzz;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcEncoder;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.rpc.wire.WireFormat;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Makes datagrams for the fuzz suite from a seed: valid encodings of messages a real client could
 * send (so the server core sees accepted calls, duplicates and truncated retransmissions), and
 * mutations of them (bit flips, byte overwrites, truncation, extension, splices of two encodings,
 * corrupted length fields), plus plain random bytes. Deterministic: same seed, same datagrams.
 */
final class DatagramMutator {

    /** How a datagram was made; the fuzz report counts by it too. */
    enum Kind { VALID, BIT_FLIP, BYTE_SET, TRUNCATE, EXTEND, SPLICE, LENGTH_FIELD, RANDOM }

    private static final ConnId[] CONNS = {
        ConnId.of("c1"), ConnId.of("c2"), ConnId.of("c3"), ConnId.of("client-4/uid-77")};

    private final SplittableRandom random;
    private final long[] clockRef;
    /** Recent messages: the network duplicates, so a third of the messages repeat one of these. */
    private final RpcMessage[] recent = new RpcMessage[32];
    private int made;

    /** @param clockRef one-element array holding the server clock, so timestamps land near it */
    DatagramMutator(long seed, long[] clockRef) {
        this.random = new SplittableRandom(seed);
        this.clockRef = clockRef;
    }

    Kind nextKind() {
        int r = random.nextInt(100);
        if (r < 20) {
            return Kind.VALID;
        }
        Kind[] mutations = {Kind.BIT_FLIP, Kind.BYTE_SET, Kind.TRUNCATE, Kind.EXTEND, Kind.SPLICE,
            Kind.LENGTH_FIELD, Kind.RANDOM};
        return mutations[random.nextInt(mutations.length)];
    }

    byte[] make(Kind kind) {
        return switch (kind) {
            case VALID -> valid();
            case BIT_FLIP -> flipBits(valid());
            case BYTE_SET -> setBytes(valid());
            case TRUNCATE -> truncate(valid());
            case EXTEND -> extend(valid());
            case SPLICE -> splice(valid(), valid());
            case LENGTH_FIELD -> corruptLength(valid());
            case RANDOM -> randomBytes();
        };
    }

    /**
     * A message a client or server might send, with a ts within a few ms of the server clock; a
     * third of them are copies of a recent one, so duplicates reach entries that still exist.
     */
    RpcMessage message() {
        if (made >= recent.length && random.nextInt(3) == 0) {
            RpcMessage copy = recent[random.nextInt(recent.length)];
            ConnId c = copy.conn();
            // The same call seen from the other side: a CALL's copy may come back as a REPLY or ACK.
            return switch (random.nextInt(4)) {
                case 0 -> new RpcMessage.Ack(c, copy.ts());
                case 1 -> new RpcMessage.Reply(c, copy.ts(), payload());
                default -> copy;
            };
        }
        RpcMessage m = fresh();
        recent[made++ % recent.length] = m;
        return m;
    }

    private RpcMessage fresh() {
        ConnId conn = CONNS[random.nextInt(CONNS.length)];
        Timestamp ts = Timestamp.of(clockRef[0] + random.nextInt(-40, 8));
        int kind = random.nextInt(10);
        return switch (kind) {
            case 0, 1, 2, 3 -> new RpcMessage.Call(conn, ts, payload());
            case 4, 5 -> new RpcMessage.TruncatedCall(conn, ts);
            case 6, 7 -> new RpcMessage.ReplyAck(conn, ts);
            case 8 -> new RpcMessage.Reply(conn, ts, payload());
            default -> random.nextBoolean() ? new RpcMessage.Ack(conn, ts) : new RpcMessage.Reject(conn, ts);
        };
    }

    private byte[] valid() {
        return RpcEncoder.encode(message());
    }

    private Payload payload() {
        byte[] b = new byte[random.nextInt(24)];
        random.nextBytes(b);
        return Payload.of(b);
    }

    private byte[] flipBits(byte[] b) {
        int flips = 1 + random.nextInt(3);
        for (int i = 0; i < flips; i++) {
            int bit = random.nextInt(b.length * 8);
            b[bit / 8] ^= (byte) (1 << (bit % 8));
        }
        return b;
    }

    private byte[] setBytes(byte[] b) {
        int n = 1 + random.nextInt(3);
        for (int i = 0; i < n; i++) {
            b[random.nextInt(b.length)] = interesting();
        }
        return b;
    }

    private byte[] truncate(byte[] b) {
        return Arrays.copyOf(b, random.nextInt(b.length));
    }

    private byte[] extend(byte[] b) {
        int extra = 1 + random.nextInt(random.nextInt(10) == 0 ? WireFormat.MAX_DATAGRAM : 16);
        byte[] longer = Arrays.copyOf(b, b.length + extra);
        for (int i = b.length; i < longer.length; i++) {
            longer[i] = (byte) random.nextInt(256);
        }
        return longer;
    }

    /** The head of one encoding and the tail of another: fields of different messages mixed. */
    private byte[] splice(byte[] a, byte[] b) {
        int cutA = random.nextInt(a.length + 1);
        int cutB = random.nextInt(b.length + 1);
        byte[] out = Arrays.copyOf(a, cutA + (b.length - cutB));
        System.arraycopy(b, cutB, out, cutA, b.length - cutB);
        return out;
    }

    /** Overwrites connLength or payloadLength (when present) with a plausible wrong value. */
    private byte[] corruptLength(byte[] b) {
        if (random.nextBoolean() || b.length < WireFormat.FIXED_PREFIX + b[4] + 12) {
            b[4] = interesting();
            return b;
        }
        int at = WireFormat.FIXED_PREFIX + b[4] + 8;
        int v = switch (random.nextInt(4)) {
            case 0 -> -1;
            case 1 -> WireFormat.MAX_PAYLOAD + 1;
            case 2 -> b.length - at - 4 + 1 + random.nextInt(3);
            default -> random.nextInt();
        };
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
        return b;
    }

    private byte[] randomBytes() {
        byte[] b = new byte[random.nextInt(64)];
        random.nextBytes(b);
        if (b.length >= 4 && random.nextBoolean()) {
            // Get past the magic and version checks half the time.
            b[0] = WireFormat.MAGIC_0;
            b[1] = WireFormat.MAGIC_1;
            b[2] = WireFormat.VERSION;
        }
        return b;
    }

    private byte interesting() {
        byte[] values = {0, 1, 2, 6, 7, 0x20, 0x21, 0x7E, 0x7F, (byte) 0x80, (byte) 128, (byte) 129, (byte) 0xFF};
        return random.nextInt(4) == 0 ? (byte) random.nextInt(256) : values[random.nextInt(values.length)];
    }
}
