package dev.onceproof.rpc.wire;

/** The type byte of a datagram (offset 3) and the spec's message type names. */
public enum MessageType {
    CALL(1, "CALL", true),
    CALL_TRUNCATED(2, "CALL", false),
    ACK(3, "ACK", false),
    REPLY(4, "REPLY", true),
    REPLY_ACK(5, "REPLY-ACK", false),
    REJECT(6, "REJECT", false);

    /** {@code values()} once: it returns a new array on every call, and every datagram is decoded. */
    private static final MessageType[] ALL = values();

    private final byte code;
    private final String specName;
    private final boolean hasPayload;

    MessageType(int code, String specName, boolean hasPayload) {
        this.code = (byte) code;
        this.specName = specName;
        this.hasPayload = hasPayload;
    }

    public byte code() {
        return code;
    }

    /** The {@code type} string of the message in specs/rpc/RPC.tla (a truncated CALL is a CALL). */
    public String specName() {
        return specName;
    }

    /** Whether payloadLength and payload follow ts. */
    public boolean hasPayload() {
        return hasPayload;
    }

    /** The type with this code, or null: the decoder turns null into {@link DecodeError#UNKNOWN_TYPE}. */
    static MessageType fromCode(byte code) {
        for (MessageType t : ALL) {
            if (t.code == code) {
                return t;
            }
        }
        return null;
    }
}
