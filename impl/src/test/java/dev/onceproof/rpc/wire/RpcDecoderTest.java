package dev.onceproof.rpc.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Each malformation gets its own error and the offset of the field that is wrong. */
class RpcDecoderTest {

    private static final RpcMessage.Call CALL =
            new RpcMessage.Call(ConnId.of("c1"), Timestamp.of(258), Payload.ofUtf8("hi"));

    private static byte[] call() {
        return RpcEncoder.encode(CALL);
    }

    private static DecodeResult.Malformed malformed(byte[] b) {
        DecodeResult r = RpcDecoder.decode(b);
        assertThat(r).isInstanceOf(DecodeResult.Malformed.class);
        return (DecodeResult.Malformed) r;
    }

    @Test
    void layoutIsTheDocumentedOne() {
        assertThat(call()).containsExactly(0x4F, 0x50, 1, 1, 2, 'c', '1', 0, 0, 0, 0, 0, 0, 1, 2,
                0, 0, 0, 2, 'h', 'i');
        assertThat(RpcEncoder.encode(new RpcMessage.Ack(ConnId.of("c1"), Timestamp.of(1))))
                .hasSize(WireFormat.MIN_DATAGRAM + 1);
    }

    @Test
    void emptyIsTooShortAtZero() {
        assertThat(malformed(new byte[0])).extracting("error", "offset")
                .containsExactly(DecodeError.TOO_SHORT, 0);
    }

    @Test
    void badMagicAtZero() {
        byte[] b = call();
        b[1] = 'Q';
        assertThat(malformed(b)).extracting("error", "offset").containsExactly(DecodeError.BAD_MAGIC, 0);
    }

    @Test
    void unknownVersionAtTwo() {
        byte[] b = call();
        b[2] = 2;
        DecodeResult.Malformed m = malformed(b);
        assertThat(m).extracting("error", "offset").containsExactly(DecodeError.UNKNOWN_VERSION, 2);
        assertThat(m.detail()).contains("version 2");
    }

    @Test
    void unknownTypeAtThree() {
        for (int t : new int[] {0, 7, 255}) {
            byte[] b = call();
            b[3] = (byte) t;
            assertThat(malformed(b)).extracting("error", "offset").containsExactly(DecodeError.UNKNOWN_TYPE, 3);
        }
    }

    @Test
    void connLengthZeroOrTooLongAtFour() {
        byte[] b = call();
        b[4] = 0;
        assertThat(malformed(b)).extracting("error", "offset").containsExactly(DecodeError.BAD_CONN_LENGTH, 4);
        b[4] = (byte) 129;
        assertThat(malformed(b)).extracting("error", "offset").containsExactly(DecodeError.BAD_CONN_LENGTH, 4);
    }

    @Test
    void nonPrintableConnByteAtItsOffset() {
        byte[] b = call();
        b[6] = ' ';
        assertThat(malformed(b)).extracting("error", "offset").containsExactly(DecodeError.INVALID_CONN_ID, 6);
    }

    @Test
    void timestampOutsideTheTimestampRangeAtItsOffset() {
        byte[] b = call();
        b[7] = (byte) 0x80;
        assertThat(malformed(b)).extracting("error", "offset")
                .containsExactly(DecodeError.TIMESTAMP_OUT_OF_RANGE, 7);
        b[7] = 0x40;
        b[14] = 1;
        assertThat(malformed(b).error()).isEqualTo(DecodeError.TIMESTAMP_OUT_OF_RANGE);
    }

    @Test
    void timestampRangeEndsDecode() {
        for (long ts : new long[] {Timestamp.LIMIT, -Timestamp.LIMIT, -1}) {
            RpcMessage m = new RpcMessage.Ack(ConnId.of("c"), Timestamp.of(ts));
            assertThat(RpcDecoder.decode(RpcEncoder.encode(m))).isEqualTo(new DecodeResult.Decoded(m));
        }
    }

    @Test
    void payloadLengthPastTheEndOrAboveMaximum() {
        byte[] b = call();
        b[18] = 3;
        assertThat(malformed(b)).extracting("error", "offset")
                .containsExactly(DecodeError.BAD_PAYLOAD_LENGTH, 15);
        b[15] = 0x7F;
        assertThat(malformed(b).detail()).contains("above the maximum");
    }

    @Test
    void shorterPayloadLengthLeavesTrailingBytes() {
        byte[] b = call();
        b[18] = 1;
        assertThat(malformed(b)).extracting("error", "offset").containsExactly(DecodeError.TRAILING_BYTES, 20);
    }

    @Test
    void truncatedHeaderIsTooShortAtTheEnd() {
        byte[] b = Arrays.copyOf(call(), 10);
        assertThat(malformed(b)).extracting("error", "offset").containsExactly(DecodeError.TOO_SHORT, 10);
    }

    @Test
    void oversizedDatagramIsTooLong() {
        assertThat(malformed(new byte[WireFormat.MAX_DATAGRAM + 1]).error()).isEqualTo(DecodeError.TOO_LONG);
    }

    @Test
    void largestPayloadFitsTheLargestDatagram() {
        ConnId longest = ConnId.of("x".repeat(ConnId.MAX_LENGTH));
        byte[] b = RpcEncoder.encode(new RpcMessage.Reply(longest, Timestamp.of(Timestamp.LIMIT),
                Payload.of(new byte[WireFormat.MAX_PAYLOAD])));
        assertThat(b).hasSize(WireFormat.MAX_DATAGRAM);
        assertThat(RpcDecoder.decode(b)).isInstanceOf(DecodeResult.Decoded.class);
    }

    @Test
    void sliceOffsetsAreRelative() {
        byte[] wire = call();
        byte[] padded = new byte[wire.length + 7];
        System.arraycopy(wire, 0, padded, 3, wire.length);
        assertThat(RpcDecoder.decode(padded, 3, wire.length)).isEqualTo(new DecodeResult.Decoded(CALL));
        padded[3 + 6] = 0x7F;
        assertThat(((DecodeResult.Malformed) RpcDecoder.decode(padded, 3, wire.length)).offset()).isEqualTo(6);
    }

    @Test
    void theExpectedIdIsReusedOnlyWhenTheDatagramCarriesIt() {
        byte[] wire = call(); // conn "c1"
        ConnId expected = ConnId.of("c1");
        // Its own id: the very instance the caller expects, no new one built.
        assertThat(((DecodeResult.Decoded) RpcDecoder.decode(wire, 0, wire.length, expected)).message().conn())
                .isSameAs(expected);
        // Another id, of the same length or not: the datagram's own id, never the expected one
        // (a server would otherwise judge one connection's CALL on another's entry).
        for (String other : new String[] {"c2", "c", "c1x"}) {
            RpcMessage m = ((DecodeResult.Decoded) RpcDecoder.decode(wire, 0, wire.length, ConnId.of(other))).message();
            assertThat(m.conn()).as("expecting " + other).isEqualTo(ConnId.of("c1"));
        }
        // An id that is not the expected one is still checked for printable bytes.
        byte[] bad = wire.clone();
        bad[6] = 0x7F;
        DecodeResult r = RpcDecoder.decode(bad, 0, bad.length, expected);
        assertThat(r).isInstanceOf(DecodeResult.Malformed.class);
        assertThat(((DecodeResult.Malformed) r).error()).isEqualTo(DecodeError.INVALID_CONN_ID);
    }
}
