package dev.onceproof.rpc.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import java.util.Arrays;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The encoder and the strict decoder are inverse on every message, and the decoder is total. */
class RpcCodecProperties {

    @Property(tries = 2000)
    void decodeInvertsEncode(@ForAll("messages") RpcMessage m) {
        byte[] wire = RpcEncoder.encode(m);
        assertThat(RpcDecoder.decode(wire)).isEqualTo(new DecodeResult.Decoded(m));
    }

    @Property(tries = 2000)
    void encodeInvertsDecode(@ForAll("messages") RpcMessage m) {
        byte[] wire = RpcEncoder.encode(m);
        DecodeResult.Decoded d = (DecodeResult.Decoded) RpcDecoder.decode(wire);
        assertThat(RpcEncoder.encode(d.message())).isEqualTo(wire);
    }

    @Property(tries = 1000)
    void bufferEncodingIsTheArrayEncodingAtAnyPosition(@ForAll("messages") RpcMessage m,
                                                       @ForAll @net.jqwik.api.constraints.IntRange(max = 64) int at,
                                                       @ForAll boolean direct) {
        byte[] wire = RpcEncoder.encode(m);
        java.nio.ByteBuffer buf = direct ? java.nio.ByteBuffer.allocateDirect(at + wire.length)
                : java.nio.ByteBuffer.allocate(at + wire.length);
        buf.position(at);
        assertThat(RpcEncoder.encode(m, buf)).isEqualTo(wire.length).isEqualTo(RpcEncoder.encodedLength(m));
        assertThat(buf.position()).isEqualTo(at + wire.length);
        byte[] written = new byte[wire.length];
        buf.get(at, written);
        assertThat(written).isEqualTo(wire);
        java.nio.ByteBuffer tooSmall = java.nio.ByteBuffer.allocate(wire.length - 1);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> RpcEncoder.encode(m, tooSmall))
                .isInstanceOf(java.nio.BufferOverflowException.class);
        assertThat(tooSmall.position()).isZero();
    }

    @Property(tries = 1000)
    void aLikelyIdIsReusedOnlyWhenItIsTheDatagramsId(@ForAll("messages") RpcMessage m,
                                                    @ForAll("messages") RpcMessage other) {
        byte[] wire = RpcEncoder.encode(m);
        ConnId same = new ConnId(m.conn().value());
        DecodeResult.Decoded d = (DecodeResult.Decoded) RpcDecoder.decode(wire, 0, wire.length, same);
        assertThat(d.message()).isEqualTo(m);
        assertThat(d.message().conn()).isSameAs(same);
        DecodeResult.Decoded e = (DecodeResult.Decoded) RpcDecoder.decode(wire, 0, wire.length, other.conn());
        assertThat(e.message()).isEqualTo(m);
        if (!other.conn().equals(m.conn())) {
            assertThat(e.message().conn()).isNotSameAs(other.conn());
        }
    }

    @Property(tries = 1000)
    void everyProperPrefixIsMalformed(@ForAll("messages") RpcMessage m) {
        byte[] wire = RpcEncoder.encode(m);
        for (int len = 0; len < wire.length; len++) {
            if (len > 400 && len < wire.length - 400) {
                continue; // the middle of a 64K payload adds time, not cases
            }
            DecodeResult r = RpcDecoder.decode(Arrays.copyOf(wire, len));
            assertThat(r).isInstanceOf(DecodeResult.Malformed.class);
        }
    }

    @Property(tries = 1000)
    void anyExtensionIsMalformed(@ForAll("messages") RpcMessage m,
            @ForAll byte[] extra) {
        if (extra.length == 0) {
            return;
        }
        byte[] wire = RpcEncoder.encode(m);
        byte[] longer = Arrays.copyOf(wire, wire.length + extra.length);
        System.arraycopy(extra, 0, longer, wire.length, extra.length);
        DecodeResult r = RpcDecoder.decode(longer);
        assertThat(r).isInstanceOf(DecodeResult.Malformed.class);
        DecodeResult.Malformed bad = (DecodeResult.Malformed) r;
        if (longer.length > WireFormat.MAX_DATAGRAM) {
            assertThat(bad.error()).isEqualTo(DecodeError.TOO_LONG);
        } else {
            assertThat(bad.error()).isEqualTo(DecodeError.TRAILING_BYTES);
            assertThat(bad.offset()).isEqualTo(wire.length);
        }
    }

    @Property(tries = 3000)
    void decoderIsTotalOnArbitraryBytes(@ForAll("datagrams") byte[] bytes) {
        DecodeResult r = RpcDecoder.decode(bytes);
        if (r instanceof DecodeResult.Decoded d) {
            assertThat(RpcEncoder.encode(d.message())).isEqualTo(bytes);
        } else {
            DecodeResult.Malformed bad = (DecodeResult.Malformed) r;
            assertThat(bad.offset()).isBetween(0, Math.max(bytes.length, WireFormat.MAX_DATAGRAM));
        }
    }

    @Provide
    Arbitrary<byte[]> datagrams() {
        // Half start with a valid prefix so the decoder gets past the magic and version checks.
        Arbitrary<byte[]> raw = Arbitraries.bytes().array(byte[].class).ofMaxSize(64);
        Arbitrary<byte[]> prefixed = raw.map(tail -> {
            byte[] b = new byte[4 + tail.length];
            b[0] = WireFormat.MAGIC_0;
            b[1] = WireFormat.MAGIC_1;
            b[2] = WireFormat.VERSION;
            b[3] = (byte) (1 + Math.floorMod(tail.length, 6));
            System.arraycopy(tail, 0, b, 4, tail.length);
            return b;
        });
        return Arbitraries.oneOf(raw, prefixed);
    }

    @Provide
    Arbitrary<RpcMessage> messages() {
        Arbitrary<ConnId> conns = Arbitraries.strings().withCharRange('!', '~').ofMinLength(1)
                .ofMaxLength(ConnId.MAX_LENGTH).map(ConnId::new);
        Arbitrary<Timestamp> tss = Arbitraries.oneOf(
                Arbitraries.longs().between(-Timestamp.LIMIT, Timestamp.LIMIT),
                Arbitraries.of(0L, 1L, -1L, 255L, 256L, Timestamp.LIMIT, -Timestamp.LIMIT)).map(Timestamp::new);
        Arbitrary<Payload> payloads = Arbitraries.oneOf(
                Arbitraries.bytes().array(byte[].class).ofMaxSize(300).map(Payload::of),
                Arbitraries.just(Payload.of(new byte[WireFormat.MAX_PAYLOAD])));
        Arbitrary<Integer> kinds = Arbitraries.integers().between(0, 5);
        return Combinators.combine(kinds, conns, tss, payloads).as((k, c, t, p) -> switch (k) {
            case 0 -> new RpcMessage.Call(c, t, p);
            case 1 -> new RpcMessage.TruncatedCall(c, t);
            case 2 -> new RpcMessage.Ack(c, t);
            case 3 -> new RpcMessage.Reply(c, t, p);
            case 4 -> new RpcMessage.ReplyAck(c, t);
            default -> new RpcMessage.Reject(c, t);
        });
    }
}
