package dev.onceproof.rpc.wire;

import dev.onceproof.scmp.ConnId;

/** The constants of the wire format described in {@link dev.onceproof.rpc.wire}. */
public final class WireFormat {

    /** "OP": lets a server drop stray datagrams from other protocols cheaply. */
    public static final byte MAGIC_0 = 0x4F;
    public static final byte MAGIC_1 = 0x50;
    public static final byte VERSION = 1;
    /** Version 2: version 1's layout, then a key id and an HMAC-SHA256 tag ({@link DatagramAuth}). */
    public static final byte VERSION_AUTHENTICATED = 2;
    /** keyId (1) + tag (32): what version 2 adds after the version 1 fields. */
    public static final int AUTH_TRAILER = 1 + 32;
    /** The largest payload of a version 2 message: the trailer takes the room. */
    public static final int MAX_PAYLOAD_AUTHENTICATED = 65_507 - (5 + 128 + 8 + 4) - AUTH_TRAILER;

    /** magic(2) + version(1) + type(1) + connLength(1). */
    public static final int FIXED_PREFIX = 5;
    /** The largest UDP payload over IPv4 (65535 - 20 IP header - 8 UDP header). */
    public static final int MAX_DATAGRAM = 65_507;
    /** The largest header: prefix, the longest conn id, ts (8), payloadLength (4). */
    public static final int MAX_HEADER = FIXED_PREFIX + ConnId.MAX_LENGTH + 8 + 4;
    public static final int MAX_PAYLOAD = MAX_DATAGRAM - MAX_HEADER;
    /** The shortest datagram: a header-only message with a one-character conn id. */
    public static final int MIN_DATAGRAM = FIXED_PREFIX + 1 + 8;

    private WireFormat() {
    }
}
