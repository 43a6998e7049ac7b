package dev.onceproof.scmp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ValueTypesTest {

    @Test
    void connIdIsPrintableAndBounded() {
        assertThat(ConnId.of("client-7/uid:42").value()).isEqualTo("client-7/uid:42");
        assertThatThrownBy(() -> ConnId.of("")).hasMessage("connection id length 0 is outside 1..128");
        assertThatThrownBy(() -> ConnId.of("x".repeat(129))).hasMessage("connection id length 129 is outside 1..128");
        assertThatThrownBy(() -> ConnId.of("a b")).hasMessage("connection id has non-printable character 0x20 at index 1");
        assertThatThrownBy(() -> ConnId.of("a\u00e9")).hasMessageContaining("0xe9 at index 1");
        assertThatThrownBy(() -> ConnId.of(null)).hasMessage("connection id is null");
    }

    @Test
    void connIdIsAValueOverItsBytes() {
        ConnId id = ConnId.of("client-7/uid:42");
        assertThat(id).isEqualTo(ConnId.of("client-7/uid:42")).isNotEqualTo(ConnId.of("client-7/uid:43"));
        // Same hash as its string, so tables keyed by ids spread as before the byte representation.
        assertThat(id.hashCode()).isEqualTo("client-7/uid:42".hashCode());
        assertThat(id.length()).isEqualTo(15);
        ByteBuffer out = ByteBuffer.allocate(20).put((byte) 9);
        id.writeTo(out);
        assertThat(out.position()).isEqualTo(16);
        byte[] wire = Arrays.copyOf(out.array(), 16);
        assertThat(new String(wire, 1, 15, StandardCharsets.US_ASCII)).isEqualTo("client-7/uid:42");
        assertThat(id.isAt(wire, 1, 15)).isTrue();
        assertThat(id.isAt(wire, 0, 15)).isFalse();
        assertThat(id.isAt(wire, 1, 14)).isFalse();
        assertThat(ConnId.of("client-7/uid:4").isAt(wire, 1, 14)).isTrue();
    }

    @Test
    void timestampStaysWhereClockArithmeticCannotOverflow() {
        assertThat(Timestamp.of(-3).value()).isEqualTo(-3);
        assertThat(Timestamp.of(Timestamp.LIMIT).value()).isEqualTo(1L << 62);
        assertThatThrownBy(() -> Timestamp.of(Long.MAX_VALUE)).hasMessageContaining("outside -2^62..2^62");
        assertThatThrownBy(() -> Timestamp.of(Long.MIN_VALUE)).hasMessageContaining("outside -2^62..2^62");
        assertThat(Timestamp.of(3)).isLessThan(Timestamp.of(4));
    }

    @Test
    void verdictsAndModesReadAsInTheSpec() {
        assertThat(Verdict.TOO_EARLY.specName()).isEqualTo("tooEarly");
        for (Verdict v : Verdict.values()) {
            assertThat(Verdict.fromSpecName(v.specName())).isEqualTo(v);
        }
        assertThat(RecoveryScheme.fromSpecName("nonresilient")).isEqualTo(RecoveryScheme.NON_RESILIENT);
        for (RecoveryScheme s : RecoveryScheme.values()) {
            assertThat(RecoveryScheme.fromSpecName(s.specName())).isEqualTo(s);
        }
        assertThatThrownBy(() -> Verdict.fromSpecName("late")).hasMessageContaining("unknown verdict \"late\"");
    }

    @Test
    void configValidatesItself() {
        assertThatThrownBy(() -> ScmpConfig.singleClass(RecoveryScheme.RESILIENT, -1, 0, 5))
                .hasMessage("beta -1 is negative");
        assertThatThrownBy(() -> new FixedRho(-2)).hasMessage("rho -2 is negative");
        assertThatThrownBy(() -> new ScmpConfig(RecoveryScheme.RESILIENT, 1, 1, java.util.Map.of(), c -> "k"))
                .hasMessageContaining("at least one rho class");
    }
}
