package dev.onceproof.bench.causal;

import dev.onceproof.causal.CausalMessage;

/**
 * Bytes a message costs on the wire, for the network-cost comparison. A fixed layout shared by RER
 * and the acknowledgement baselines, so that the comparison does not hinge on one encoder's
 * cleverness: a 1-byte type, 4-byte node ids, 8-byte sequence numbers and vector entries, a 4-byte
 * payload length. UDP/IP headers (28 bytes) are added to every message.
 */
final class WireSize {

    static final int UDP_IP = 28;

    private WireSize() {
    }

    static int data(int nodes, int payload) {
        return UDP_IP + 1 + 4 + 8 + 8 * nodes + 4 + payload;
    }

    static int of(CausalMessage m, int nodes, int payload) {
        if (m instanceof CausalMessage.Data) {
            return data(nodes, payload);
        } else if (m instanceof CausalMessage.Resend) {
            return data(nodes, payload) + 4; // plus the resender's id
        } else if (m instanceof CausalMessage.Request) {
            return request();
        } else {
            return UDP_IP + 1 + 4 + 8 * nodes; // heartbeat: sender and its delivered prefix
        }
    }

    static int request() {
        return UDP_IP + 1 + 4 + 4 + 8;
    }

    /** Ack-each: receiver, event origin and sequence number. */
    static int ack() {
        return UDP_IP + 1 + 4 + 4 + 8;
    }

    /** Cumulative ack: receiver, origin, contiguous prefix and a selective-ack bitmap of {@code bits} bits. */
    static int cumulativeAck(int bits) {
        return UDP_IP + 1 + 4 + 4 + 8 + 2 + (bits + 7) / 8;
    }
}
