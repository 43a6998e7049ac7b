package dev.onceproof.conformance.lincheck.causal;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.JoinState;
import dev.onceproof.causal.ManualTicker;
import dev.onceproof.causal.Mode;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.VectorClock;

/**
 * The join's world (specs/causal/CausalJoin.tla) for {@link ConcurrentCausalNodeJoinLincheckTest},
 * and Lincheck's sequential specification of it on {@link CausalNode}: node n1 of four, with n3 and
 * n4 spares. n3 joined from n2 (prefix zero) and n1 has not installed that join yet ({@code
 * install}); n4 joins from n1 ({@code donate}: n1 is the donor). The messages: J = (n3, 1), n3's first
 * event, refused as excluded until n1 installs n3; K = (n2, 1), issued after n2 delivered J.
 */
public class SequentialJoin {

    static final NodeId N2 = NodeId.of(1), N3 = NodeId.of(2), N4 = NodeId.of(3);

    static CausalConfig config() {
        return CausalConfig.of(4, NodeId.of(0), Mode.CAUSAL, 5, 20, 0);
    }

    /** A member n1 with the spares out of its view. */
    static CausalNode member(CausalNode node) {
        node.spare(N3);
        node.spare(N4);
        return node;
    }

    /** Made afresh on every call (Lincheck cannot walk records held in fields). */
    static CausalMessage message(int i) {
        return i == 0
                ? new CausalMessage.Data(new Event(EventId.of(2, 1), VectorClock.of(0, 0, 1, 0), Payload.ofUtf8("J")))
                : new CausalMessage.Data(new Event(EventId.of(1, 1), VectorClock.of(0, 1, 1, 0), Payload.ofUtf8("K")));
    }

    static VectorClock zero() {
        return VectorClock.of(0, 0, 0, 0);
    }

    /** The donor's answer as a result: the prefix it handed. */
    static String handed(JoinState s) {
        return "JOIN " + s.prefix();
    }

    private final CausalNode node = member(new CausalNode(config(), new ManualTicker(0)));

    public String receive(int message) {
        return CausalWorld.result(node.handle(message(message)));
    }

    public String broadcast() {
        return CausalWorld.result(node.broadcast(Payload.EMPTY));
    }

    /** n1 installs n3's join: a second install is refused (n3 is in the view). */
    public String install() {
        try {
            return CausalWorld.result(node.installJoin(N3, N2, zero()));
        } catch (IllegalArgumentException twice) {
            return "REFUSED";
        }
    }

    /** n1 donates to n4: a second donation is refused (n4 is in the view). */
    public String donate() {
        try {
            return handed(node.join(N4));
        } catch (IllegalArgumentException twice) {
            return "REFUSED";
        }
    }
}
