package dev.onceproof.conformance.crash;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.Ticker;
import dev.onceproof.steplog.StepLog;

/**
 * The SIGKILL view-change run's control ({@link CausalViewSigkillTest}): {@link CausalViewNodeMain}
 * over a core without the freeze, broken through the {@code heldBack} seam (MutNoFreeze's defect),
 * which goes on delivering the suspect's events after its report. A main on the test classpath,
 * which the child JVM shares.
 */
public final class NoFreezeCausalViewNodeMain {

    private NoFreezeCausalViewNodeMain() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(CausalViewNodeMain.run(args, NoFreezeNode::new));
    }

    private static final class NoFreezeNode extends CausalNode {
        NoFreezeNode(CausalConfig c, Ticker t, StepLog log) {
            super(c, t, log);
        }

        @Override
        protected boolean heldBack(Event e) {
            return false;
        }
    }
}
