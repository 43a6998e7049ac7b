package dev.onceproof.bench.causal;

import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.wire.CausalWire;

/**
 * Bytes a message costs on the wire, for the network-cost comparison: RER's messages are measured
 * with the UDP runtime's own encoder ({@link CausalWire}); the acknowledgement baselines, which have
 * no encoder, use the same layout (its 6-byte header: magic, version, type, sender; 2-byte node
 * indexes, 8-byte sequence numbers). UDP/IPv4 headers (28 bytes) are added to every datagram.
 */
final class WireSize {

    static final int UDP_IP = 28;
    private static final int HEADER = 6;

    private WireSize() {
    }

    static int of(CausalMessage m) {
        return UDP_IP + CausalWire.encode(m).length;
    }

    /** Ack-each: header, the event's origin and sequence number. */
    static int ack() {
        return UDP_IP + HEADER + 2 + 8;
    }

    /** Cumulative ack: header, origin, contiguous prefix, and a length-prefixed bitmap of {@code bits} bits. */
    static int cumulativeAck(int bits) {
        return UDP_IP + HEADER + 2 + 8 + 2 + (bits + 7) / 8;
    }
}
