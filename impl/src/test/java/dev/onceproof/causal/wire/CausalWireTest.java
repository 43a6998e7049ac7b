package dev.onceproof.causal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.VectorClock;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CausalWireTest {

    private static final Event E = new Event(EventId.of(1, 3), VectorClock.of(2, 3, 0), Payload.ofUtf8("hello"));

    private static final List<CausalMessage> ALL = List.of(
            new CausalMessage.Data(E),
            new CausalMessage.Resend(NodeId.of(2), E),
            new CausalMessage.Request(NodeId.of(0), EventId.of(1, 3)),
            new CausalMessage.Heartbeat(NodeId.of(2), VectorClock.of(7, 0, 9)));

    @Test
    void everyMessageTypeRoundTrips() {
        for (CausalMessage m : ALL) {
            byte[] b = CausalWire.encode(m);
            assertThat(CausalWire.decode(b, 0, b.length)).isEqualTo(new CausalWire.Decoded(m, null));
        }
    }

    @Test
    void everyTruncationAndEveryExtraByteIsAnErrorNamingWhere() {
        for (CausalMessage m : ALL) {
            byte[] b = CausalWire.encode(m);
            for (int len = 0; len < b.length; len++) {
                CausalWire.Decoded d = CausalWire.decode(b, 0, len);
                assertThat(d.message()).as("%s cut at %d", m, len).isNull();
                assertThat(d.error()).isNotBlank();
            }
            byte[] longer = Arrays.copyOf(b, b.length + 1);
            assertThat(CausalWire.decode(longer, 0, longer.length).error()).containsPattern("offset [0-9]+: .*(after the end|remain)");
        }
    }

    @Test
    void fieldErrorsAreNamed() {
        byte[] b = CausalWire.encode(ALL.get(0));
        b[4] = 0;
        b[5] = 2; // DATA whose sender is not its origin
        assertThat(CausalWire.decode(b, 0, b.length).error()).contains("DATA from n3 carries an event of n2");
        byte[] c = CausalWire.encode(ALL.get(3));
        c[8] = (byte) 0x80; // negative component
        assertThat(CausalWire.decode(c, 0, c.length).error()).contains("offset 8").contains("negative");
        byte[] t = CausalWire.encode(ALL.get(2));
        t[3] = 9;
        assertThat(CausalWire.decode(t, 0, t.length).error()).contains("byte 3: message type 9");
    }
}
