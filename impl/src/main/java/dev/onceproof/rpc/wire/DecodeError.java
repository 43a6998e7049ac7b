package dev.onceproof.rpc.wire;

/** Why a datagram is not a valid encoding; {@link DecodeResult.Malformed} adds where. */
public enum DecodeError {
    /** Shorter than the shortest message, or than its own fields say. */
    TOO_SHORT,
    /** Longer than {@link WireFormat#MAX_DATAGRAM}. */
    TOO_LONG,
    BAD_MAGIC,
    UNKNOWN_VERSION,
    UNKNOWN_TYPE,
    /** connLength is 0 or above ConnId.MAX_LENGTH. */
    BAD_CONN_LENGTH,
    /** A conn byte outside printable ASCII 0x21..0x7E. */
    INVALID_CONN_ID,
    /** ts is outside -2^62..2^62 ({@link dev.onceproof.scmp.Timestamp#LIMIT}). */
    TIMESTAMP_OUT_OF_RANGE,
    /** payloadLength above {@link WireFormat#MAX_PAYLOAD}, or past the end of the datagram. */
    BAD_PAYLOAD_LENGTH,
    /** Bytes after the last field. */
    TRAILING_BYTES
}
