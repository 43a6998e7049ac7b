package dev.onceproof.conformance.lincheck.causal;

import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.ConcurrentCausalNode;
import dev.onceproof.causal.ManualTicker;
import org.jetbrains.kotlinx.lincheck.annotations.Operation;
import org.jetbrains.kotlinx.lincheck.annotations.Param;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.paramgen.IntGen;

/**
 * The view change's steps on {@link ConcurrentCausalNode} (specs/causal/CausalMembership.tla), for
 * the real class and its racy control: node n3 receives n2's first event A (deliverable on arrival,
 * or its recovered copy) while the view change removing n2 runs on other threads: its report
 * (FlushReport: freeze n2 and return the seqs of n2 it delivered), the decision (DecideView, agreed
 * set {1}) and the install (InstallView). A report and a delivery of A must be ordered: either A
 * was delivered before the report (and the report names it) or it is held back after it.
 */
@Param(name = "copy", gen = IntGen.class, conf = "0:1")
public abstract class MembershipLincheckBase {

    final CausalWorld world = new CausalWorld();
    final CausalWorld.Application application = new CausalWorld.Application();
    final CausalNode core = new CausalNode(world.config, new ManualTicker(0));
    private final ConcurrentCausalNode node = build(core, application);

    abstract ConcurrentCausalNode build(CausalNode core, CausalWorld.Application app);

    /** A's data copy (0) or the copy n1 recovered for n3 (1). */
    @Operation
    public String receive(@Param(name = "copy") int copy) {
        return CausalWorld.result(node.handle(world.message(copy == 0 ? 0 : 3)));
    }

    @Operation
    public String report() {
        try {
            return "REPORT " + node.flushReport(SequentialMembership.X).seqs();
        } catch (IllegalStateException refused) {
            return "REFUSED"; // a second report: one view change at a time
        }
    }

    @Operation
    public String decide() {
        return CausalWorld.result(node.decideView(SequentialMembership.X, SequentialMembership.AGREED));
    }

    @Operation
    public String install() {
        return CausalWorld.result(node.installView(SequentialMembership.X));
    }

    @Validate
    public void applicationSawCausalOrderOnce() {
        application.validate();
    }
}
