package dev.onceproof.causal.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.JoinState;
import dev.onceproof.causal.ManualTicker;
import dev.onceproof.causal.Mode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.VectorClock;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The join's datagrams and the donor's state as bytes (JoinWire), round trip and field errors. */
class JoinWireTest {

    private static final NodeId N1 = NodeId.of(0);
    private static final NodeId N3 = NodeId.of(2);

    @Test
    void joinMessagesRoundTrip() {
        List<ViewMessage> all = List.of(new ViewMessage.JoinAsk(N3, 4),
                new ViewMessage.JoinRefused(N1, N3, "n3 was removed"),
                new ViewMessage.JoinInstall(N1, N3, VectorClock.of(5, 0, 7)),
                new ViewMessage.JoinInstalled(NodeId.of(1), N3));
        for (ViewMessage m : all) {
            byte[] b = CausalWire.encode(m);
            assertThat(CausalWire.decode(b, 0, b.length).view()).isEqualTo(m);
        }
        ViewMessage.JoinChunk c = new ViewMessage.JoinChunk(N1, N3, 1, 3, new byte[] {1, 2, 3});
        byte[] b = CausalWire.encode(c);
        ViewMessage.JoinChunk d = (ViewMessage.JoinChunk) CausalWire.decode(b, 0, b.length).view();
        assertThat(List.of(d.from(), d.joiner(), d.index(), d.total())).isEqualTo(List.of(N1, N3, 1, 3));
        assertThat(d.bytes()).containsExactly(1, 2, 3);
    }

    @Test
    void fieldErrorsAreNamed() {
        byte[] b = CausalWire.encode(new ViewMessage.JoinChunk(N1, N3, 1, 3, new byte[] {1, 2, 3}));
        byte[] cut = Arrays.copyOf(b, b.length - 1);
        assertThat(CausalWire.decode(cut, 0, cut.length).error()).contains("join chunk 1 of 3 with 3 bytes (2 remain)");
        byte[] ask = CausalWire.encode(new ViewMessage.JoinAsk(N3, 0));
        ask[7] = 0; // the joiner named is n1, the sender n3
        assertThat(CausalWire.decode(ask, 0, ask.length).error()).contains("join ask from n3 for n1");
    }

    /** A donor's real state, larger than one chunk (its store holds 6 events of 3 KB), back unchanged. */
    @Test
    void aDonorsStateRoundTripsAcrossChunks() {
        CausalNode donor = new CausalNode(CausalConfig.of(3, N1, Mode.CAUSAL, 5, 20, 20), new ManualTicker(0));
        donor.spare(N3);
        for (int i = 0; i < 6; i++) {
            donor.broadcast(Payload.of(new byte[3 * 1024]));
        }
        JoinState s = donor.join(N3);
        byte[] bytes = JoinWire.encodeState(s);
        assertThat(bytes.length).isGreaterThan(2 * JoinWire.CHUNK);
        JoinState t = JoinWire.decodeState(bytes);
        assertThat(List.of(t.donor(), t.joiner(), t.prefix())).isEqualTo(List.of(N1, N3, VectorClock.of(6, 0, 0)));
        assertThat(t.store()).hasSize(6).containsExactlyInAnyOrderElementsOf(s.store());
        for (int k = 0; k < 3; k++) {
            assertThat(t.inView(k)).isEqualTo(s.inView(k));
            assertThat(t.row(k)).isEqualTo(s.row(k));
            assertThat(t.agreed(k)).isEqualTo(s.agreed(k));
        }
        assertThatThrownBy(() -> JoinWire.decodeState(Arrays.copyOf(bytes, bytes.length - 1)))
                .hasMessageContaining("stored event 5 has a payload of 3072 bytes, 3071 remain");
    }
}
