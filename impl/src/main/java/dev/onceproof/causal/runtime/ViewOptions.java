package dev.onceproof.causal.runtime;

import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.wire.ViewMessage;
import dev.onceproof.steplog.StepLog;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * How a {@link CausalUdpNode} takes part in view changes (specs/causal/CausalMembership.tla and
 * CausalMembershipRestart.tla). Every node is a member that reports, forwards and installs when the
 * coordinator asks; the node whose id is {@code coordinator} coordinates first (as JGroups'
 * coordinator, one member); when it is suspected the next survivor in ring order from it takes over.
 *
 * @param coordinator the member that coordinates first
 * @param suspectable the members a failure detector may suspect (the spec's Suspectable): the
 *     coordinator's watches these, every other member's watches the coordinator if it is among them;
 *     {@link CausalUdpNode#suspect} may name any other member
 * @param suspectAfter nanoseconds without a datagram from a suspectable member before it is
 *     suspected; 0 turns the detector off
 * @param retry nanoseconds between resends of an unanswered view-change message
 * @param coordinatorLog this node's coordinator steps ({@code ViewChange.stepLogHeader}): the first
 *     coordinator's, or, on another node, those it takes once it took over; OFF for none
 * @param hold view-change messages this node drops on receipt: a test's network that loses one
 *     kind of message for a while (the protocol resends it); {@code m -> false} for none
 * @param restart a suspicion during a flush restarts it, and a survivor takes over from a suspected
 *     coordinator (CausalMembershipRestart); false only for the control runs that show what the
 *     runtime without it does (a flush whose coordinator or awaited survivor died never ends)
 */
public record ViewOptions(NodeId coordinator, Set<NodeId> suspectable, long suspectAfter, long retry,
        StepLog coordinatorLog, Predicate<ViewMessage> hold, boolean restart) {

    public ViewOptions {
        Objects.requireNonNull(coordinator, "coordinator");
        suspectable = Set.copyOf(suspectable);
        Objects.requireNonNull(coordinatorLog, "coordinatorLog");
        Objects.requireNonNull(hold, "hold");
        if (suspectAfter < 0 || retry <= 0) {
            throw new IllegalArgumentException("need suspectAfter >= 0 and retry > 0; got " + suspectAfter + ", " + retry);
        }
    }

    /** n1 coordinates, no failure detector (only {@link CausalUdpNode#suspect}), resends every {@code retry}. */
    public static ViewOptions manual(long retry) {
        return new ViewOptions(NodeId.of(0), Set.of(), 0, retry, StepLog.OFF, m -> false, true);
    }

    public ViewOptions withDetector(Set<NodeId> suspectable, long suspectAfter) {
        return new ViewOptions(coordinator, suspectable, suspectAfter, retry, coordinatorLog, hold, restart);
    }

    public ViewOptions withCoordinatorLog(StepLog log) {
        return new ViewOptions(coordinator, suspectable, suspectAfter, retry, log, hold, restart);
    }

    public ViewOptions withCoordinator(NodeId first) {
        return new ViewOptions(first, suspectable, suspectAfter, retry, coordinatorLog, hold, restart);
    }

    /** The defect issue 19 item 3 names, for controls: no restart of a flush, no takeover from a failed coordinator. */
    public ViewOptions withoutRestart() {
        return new ViewOptions(coordinator, suspectable, suspectAfter, retry, coordinatorLog, hold, false);
    }

    public ViewOptions withHold(Predicate<ViewMessage> hold) {
        return new ViewOptions(coordinator, suspectable, suspectAfter, retry, coordinatorLog, hold, restart);
    }
}
