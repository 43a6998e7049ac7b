package dev.onceproof.causal.wire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.SeqSet;
import dev.onceproof.causal.VectorClock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class CausalWireTest {

    private static final Event E = new Event(EventId.of(1, 3), VectorClock.of(2, 3, 0), Payload.ofUtf8("hello"));

    private static final List<CausalMessage> ALL = List.of(
            new CausalMessage.Data(E),
            new CausalMessage.Resend(NodeId.of(2), E),
            new CausalMessage.Request(NodeId.of(0), EventId.of(1, 3)),
            new CausalMessage.Heartbeat(NodeId.of(2), VectorClock.of(7, 0, 9)));

    private static final SeqSet SEQS = new SeqSet(4, new TreeSet<>(List.of(6L, 9L)));

    private static final List<ViewMessage> VIEW = List.of(
            new ViewMessage.Flush(NodeId.of(0), NodeId.of(2)),
            new ViewMessage.Report(NodeId.of(1), NodeId.of(2), SEQS),
            new ViewMessage.Decide(NodeId.of(0), NodeId.of(2), SEQS,
                    new TreeMap<>(Map.of(NodeId.of(0), SEQS, NodeId.of(1), SeqSet.EMPTY))),
            new ViewMessage.Forwarded(NodeId.of(1), NodeId.of(2)),
            new ViewMessage.Installed(NodeId.of(1), NodeId.of(2)),
            // A restart's decision: the interrupted change's n4 and the coordinator n1 removed together.
            new ViewMessage.Decide(NodeId.of(1), new TreeMap<>(Map.of(NodeId.of(0), SEQS, NodeId.of(3), SeqSet.EMPTY)),
                    new TreeMap<>(Map.of(NodeId.of(1), new TreeMap<>(Map.of(NodeId.of(0), SEQS, NodeId.of(3), SeqSet.EMPTY)),
                            NodeId.of(2), new TreeMap<>(Map.of(NodeId.of(0), SeqSet.EMPTY, NodeId.of(3), SeqSet.EMPTY))))),
            new ViewMessage.Ended(NodeId.of(1), new TreeSet<>(List.of(NodeId.of(0), NodeId.of(3)))));

    @Test
    void everyViewChangeTypeRoundTripsAndEveryCutIsAnError() {
        for (ViewMessage m : VIEW) {
            byte[] b = CausalWire.encode(m);
            assertThat(CausalWire.decode(b, 0, b.length)).isEqualTo(new CausalWire.Decoded(null, m, null));
            for (int len = 0; len < b.length; len++) {
                CausalWire.Decoded d = CausalWire.decode(b, 0, len);
                assertThat(d.view()).as("%s cut at %d", m, len).isNull();
                assertThat(d.error()).containsPattern("(offset|byte|bytes|datagram of) [0-9]");
            }
            byte[] longer = Arrays.copyOf(b, b.length + 1);
            assertThat(CausalWire.decode(longer, 0, longer.length).error()).contains("bytes after the end");
        }
    }

    @Test
    void viewChangeFieldErrorsAreNamed() {
        byte[] r = CausalWire.encode(VIEW.get(1));
        r[10] = (byte) 0x80; // report prefix negative
        assertThat(CausalWire.decode(r, 0, r.length).error()).isEqualTo("offset 10: report prefix -9223372036854775804 is negative");
        byte[] a = CausalWire.encode(VIEW.get(1));
        a[35] = 5; // the second seq above the prefix (9) becomes 5, below the first (6)
        assertThat(CausalWire.decode(a, 0, a.length).error()).startsWith("offset 28: report seq 5 is not above 6");
        byte[] d = CausalWire.encode(VIEW.get(2));
        int second = 6 + 4 + 26 + 2 + 2 + 26; // header, targets, agreed, count, first node and its report
        d[second + 1] = 0; // the second report's node is n1 again
        assertThat(CausalWire.decode(d, 0, d.length).error()).startsWith("offset " + second + ": report 1's node index 0");
        byte[] t = CausalWire.encode(VIEW.get(0));
        t[8] = 0x7F; // target above MAX_NODES
        assertThat(CausalWire.decode(t, 0, t.length).error()).startsWith("offset 8: target 0's node index 32514 is not above the previous one (-1) and below MAX_NODES");
        byte[] e = CausalWire.encode(VIEW.get(6));
        e[11] = 0; // the Ended's second target (n4) becomes n1 again
        assertThat(CausalWire.decode(e, 0, e.length).error()).startsWith("offset 10: target 1's node index 0 is not above");
    }

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
        t[3] = 16;
        assertThat(CausalWire.decode(t, 0, t.length).error()).contains("byte 3: message type 16 is not 1..15");
    }
}
