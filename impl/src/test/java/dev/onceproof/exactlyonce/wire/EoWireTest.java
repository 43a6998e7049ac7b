package dev.onceproof.exactlyonce.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.InvalidMessageException;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.ServerId;
import java.util.HexFormat;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * One example per decoding rule: each test feeds bytes that break exactly one rule and checks the
 * error names that field, so removing the rule from the decoder makes its test fail.
 */
class EoWireTest {

    private static final ServerId A = ServerId.of("A");
    private static final ServerId B = ServerId.of("B");
    private static final ClientId C = ClientId.of("c");

    private static byte[] hex(String h) {
        return HexFormat.of().parseHex(h.replace(" ", ""));
    }

    private static InvalidMessageException refuse(byte[] b) {
        try {
            EoWire.decode(b);
        } catch (InvalidMessageException e) {
            return e;
        }
        throw new AssertionError("accepted " + HexFormat.of().formatHex(b));
    }

    @Test
    void theBytesOfAnAckAreAsDocumented() {
        byte[] b = EoWire.encode(new EoMessage.NoteAck(C, A, NoteId.sequenced(A, 300)));
        // magic, version, type 2, "c", "A", kind 0, "A", 300 = 0xAC 0x02
        assertThat(b).isEqualTo(hex("45 01 02 01 63 01 41 00 01 41 ac02"));
    }

    @Test
    void aRunOfOneServersIdsCostsTwoBytesAnId() {
        TreeSet<NoteId> k = new TreeSet<>();
        for (int i = 1; i <= 40; i++) {
            k.add(NoteId.sequenced(A, i));
        }
        EoMessage.SyncRequest r = new EoMessage.SyncRequest(A, B, C, 1, k, new TreeSet<>(), new TreeSet<>());
        byte[] b = EoWire.encode(r);
        // ... + d and removed (empty) + Strategy 2's tags (empty: one count byte)
        assertThat(b.length).isEqualTo(3 + 2 + 2 + 2 + 1 + 1 + 1 + (1 + 2 + 1) + 39 * 2 + 1 + 1 + 1);
        assertThat(EoWire.decode(b)).isEqualTo(r);
    }

    @Test
    void everyMessageVariantHasAnEncoding() {
        // A new EoMessage variant without an encoding fails here (Java 17 has no exhaustive switch).
        java.util.Set<Class<?>> covered = new java.util.HashSet<>();
        for (EoMessage m : EoWireExamples.one()) {
            assertThat(EoWire.decode(EoWire.encode(m))).isEqualTo(m);
            covered.add(m.getClass());
        }
        assertThat(covered).containsExactlyInAnyOrder(EoMessage.class.getPermittedSubclasses());
    }

    @Test
    void badMagicVersionAndType() {
        assertThat(refuse(hex("46 01 02")).field()).isEqualTo("magic");
        assertThat(refuse(hex("45 02 02")).field()).isEqualTo("version");
        InvalidMessageException t = refuse(hex("45 01 0e"));
        assertThat(t.field()).isEqualTo("type");
        assertThat(t).hasMessageContaining("14 is not a message type (1..13)");
        assertThat(refuse(hex("45 01 00")).field()).isEqualTo("type");
        assertThat(refuse(new byte[0]).field()).isEqualTo("magic");
    }

    @Test
    void truncationNamesTheFieldItStopsIn() {
        byte[] b = EoWire.encode(new EoMessage.NoteAck(C, A, NoteId.sequenced(A, 300)));
        InvalidMessageException e = refuse(java.util.Arrays.copyOf(b, b.length - 1));
        assertThat(e.field()).isEqualTo("id.seq");
        assertThat(e).hasMessageContaining("truncated");
        assertThat(refuse(java.util.Arrays.copyOf(b, 5)).field()).isEqualTo("to.length");
    }

    @Test
    void namesOutOfRangeOrWithForbiddenBytes() {
        assertThat(refuse(hex("45 01 02 00")).field()).isEqualTo("from.length"); // empty name
        assertThat(refuse(hex("45 01 02 41")).getMessage()).contains("65 is outside 1..64");
        InvalidMessageException dot = refuse(hex("45 01 02 01 2e 01 41 01 01 6e"));
        assertThat(dot.field()).isEqualTo("from");
        assertThat(dot).hasMessageContaining("offset 4").hasMessageContaining("no '.'");
        assertThat(refuse(hex("45 01 02 01 63 01 20 01 01 6e")).field()).isEqualTo("to"); // space
    }

    @Test
    void noteIdKindAndNumbers() {
        assertThat(refuse(hex("45 01 02 01 63 01 41 05 01 6e")).field()).isEqualTo("id.kind");
        // 10-byte varint with bit 63 set: out of range
        assertThat(refuse(hex("45 01 02 01 63 01 41 00 01 41 ffffffffffffffffff01")).getMessage())
                .contains("field id.seq").contains("63 bits");
        // 300 written with a redundant zero byte
        assertThat(refuse(hex("45 01 02 01 63 01 41 00 01 41 ac8200")).getMessage()).contains("shortest form");
    }

    @Test
    void bodyRules() {
        EoMessage.NoteDelivery d = new EoMessage.NoteDelivery(A, C, new Note(NoteId.global("n1"), C, "hi"));
        byte[] b = EoWire.encode(d);
        b[b.length - 1] = (byte) 0xC3; // a lead byte with no continuation
        assertThat(refuse(b).getMessage()).contains("field note.body").contains("UTF-8");
        byte[] big = hex("45 01 01 01 41 01 63 01 02 6e31 8180 01"); // length 16385 > 3*4096
        assertThat(refuse(big).field()).isEqualTo("note.body.length");
        // 4097 one-byte characters: within the byte limit, above Note.MAX_BODY
        byte[] head = hex("45 01 01 01 41 01 63 01 02 6e31 8120");
        byte[] longBody = java.util.Arrays.copyOf(head, head.length + 4097);
        java.util.Arrays.fill(longBody, head.length, longBody.length, (byte) 'x');
        assertThat(refuse(longBody).getMessage()).contains("field note.body").contains("4097 characters");
    }

    @Test
    void idSetsMustBeCanonical() {
        // sync request A->B client c round 0, k = {n2, n1}: out of order
        InvalidMessageException order = refuse(hex("45 01 05 01 41 01 42 01 63 00 00 02 01 02 6e32 01 02 6e31 00 00"));
        assertThat(order.field()).isEqualTo("k[1]");
        assertThat(order).hasMessageContaining("does not follow n2");
        assertThat(refuse(hex("45 01 05 01 41 01 42 01 63 00 00 02 01 02 6e31 01 02 6e31 00 00")).field()).isEqualTo("k[1]");
        // A.1 then A.2 written in full instead of as a delta
        assertThat(refuse(hex("45 01 05 01 41 01 42 01 63 00 00 00 02 00 01 41 01 00 01 41 02 00")).getMessage())
                .contains("field d[1]").contains("delta");
        // a delta of 0, and a delta with no sequenced id before it
        assertThat(refuse(hex("45 01 05 01 41 01 42 01 63 00 00 02 00 01 41 01 02 00 00 00")).field()).isEqualTo("k[1].delta");
        assertThat(refuse(hex("45 01 05 01 41 01 42 01 63 00 00 01 02 01 00 00")).field()).isEqualTo("k[0].kind");
        // a count above MAX_IDS
        assertThat(refuse(hex("45 01 05 01 41 01 42 01 63 00 00 81 80 04")).field()).isEqualTo("k.count");
    }

    @Test
    void anUnpairedSurrogateIsRefusedAtEncoding() {
        EoMessage.NoteDelivery d = new EoMessage.NoteDelivery(A, C, new Note(NoteId.global("n1"), C, "a\uD800b"));
        assertThatThrownBy(() -> EoWire.encode(d)).isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("field note.body").hasMessageContaining("index 1");
    }

    @Test
    void strategy456Rules() {
        // DRequest A->B client c session 0
        assertThat(refuse(hex("45 01 08 01 41 01 42 01 63 00")).field()).isEqualTo("session");
        // DSync A->B c ts 5, k = {}, d = {n1}: D not within K
        assertThat(refuse(hex("45 01 0a 01 41 01 42 01 63 05 00 01 01 02 6e31")).field()).isEqualTo("d");
        // DSync A->B c ts 5, k = {}, d = {}, the watermark seen missing
        assertThat(refuse(hex("45 01 0a 01 41 01 42 01 63 05 00 00")).field()).isEqualTo("seen");
        assertThat(EoWire.decode(hex("45 01 0a 01 41 01 42 01 63 05 00 00 07")))
                .isEqualTo(new EoMessage.DSync(A, B, C, 5, new java.util.TreeSet<>(), new java.util.TreeSet<>(), 7));
        // HistoryUpload c->A, complete byte 2
        assertThat(refuse(hex("45 01 0b 01 63 01 41 02 00 00")).field()).isEqualTo("history.complete");
        // ended {B: 3, A: 4}: not ascending
        assertThat(refuse(hex("45 01 0b 01 63 01 41 01 02 01 42 03 01 41 04 00")).field()).isEqualTo("history.ended[1]");
        // ended {A: 3}, open {A}: both
        assertThat(refuse(hex("45 01 0b 01 63 01 41 01 01 01 41 03 01 01 41")).getMessage())
                .contains("field history.open[0]").contains("not both");
    }

    @Test
    void arraySliceAndNull() {
        byte[] b = EoWire.encode(new EoMessage.PurgeAck(C, A, NoteId.global("n1")));
        byte[] padded = new byte[b.length + 4];
        System.arraycopy(b, 0, padded, 2, b.length);
        assertThat(EoWire.decode(padded, 2, b.length)).isEqualTo(new EoMessage.PurgeAck(C, A, NoteId.global("n1")));
        assertThatThrownBy(() -> EoWire.decode(padded, 3, b.length + 4)).isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("outside an array");
        assertThatThrownBy(() -> EoWire.decode(null)).isInstanceOf(InvalidMessageException.class);
    }
}
