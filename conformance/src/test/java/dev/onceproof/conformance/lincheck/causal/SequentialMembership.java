package dev.onceproof.conformance.lincheck.causal;

import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.ManualTicker;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Outcome;
import dev.onceproof.causal.SeqSet;
import dev.onceproof.causal.Step;
import java.util.TreeSet;

/** Lincheck's sequential specification of {@link MembershipLincheckBase}: the same steps on {@link CausalNode}. */
public class SequentialMembership {

    /** The node being removed: n2, the origin of A. */
    static final NodeId X = NodeId.of(1);
    /** The decision: every survivor delivers n2's event 1 (A). */
    static final SeqSet AGREED = new SeqSet(1, new TreeSet<>());

    private final CausalWorld world = new CausalWorld();
    private final CausalNode node = new CausalNode(world.config, new ManualTicker(0));

    public String receive(int copy) {
        return CausalWorld.result(node.handle(world.message(copy == 0 ? 0 : 3)));
    }

    public String report() {
        Step s = node.flushReport(X);
        return s.outcome() == Outcome.ACCEPTED ? "REPORT " + node.deliveredOf(X).seqs() : "REFUSED";
    }

    /** As ConcurrentCausalNode.decideView: the decision, then every delivery it releases. */
    public String decide() {
        StringBuilder r = new StringBuilder(CausalWorld.result(node.decideView(X, AGREED)));
        node.deliverAll().delivered().forEach(e -> r.append(' ').append(e.id()));
        return r.toString();
    }

    public String install() {
        return CausalWorld.result(node.installView(X));
    }
}
