package dev.onceproof.causal.runtime;

import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.wire.ViewMessage;
import dev.onceproof.steplog.StepLog;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

/**
 * How a {@link CausalUdpNode} takes part in view changes (specs/causal/CausalMembership.tla). Every
 * node is a member that reports, forwards and installs when the coordinator asks; the node whose id
 * is {@code coordinator} also coordinates (as JGroups' coordinator, one member; its own removal is
 * not handled: the spec has one coordinator that never fails).
 *
 * @param coordinator the member that coordinates
 * @param suspectable the members the coordinator's failure detector may suspect (the spec's
 *     Suspectable); {@link CausalUdpNode#suspect} may name any other member
 * @param suspectAfter nanoseconds without a datagram from a suspectable member before it is
 *     suspected; 0 turns the detector off
 * @param retry nanoseconds between resends of an unanswered view-change message
 * @param coordinatorLog the coordinator's step log ({@code ViewChange.stepLogHeader}); OFF for none
 * @param hold view-change messages this node drops on receipt: a test's network that loses one
 *     kind of message for a while (the protocol resends it); {@code m -> false} for none
 */
public record ViewOptions(NodeId coordinator, Set<NodeId> suspectable, long suspectAfter, long retry,
        StepLog coordinatorLog, Predicate<ViewMessage> hold) {

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
        return new ViewOptions(NodeId.of(0), Set.of(), 0, retry, StepLog.OFF, m -> false);
    }

    public ViewOptions withDetector(Set<NodeId> suspectable, long suspectAfter) {
        return new ViewOptions(coordinator, suspectable, suspectAfter, retry, coordinatorLog, hold);
    }

    public ViewOptions withCoordinatorLog(StepLog log) {
        return new ViewOptions(coordinator, suspectable, suspectAfter, retry, log, hold);
    }

    public ViewOptions withHold(Predicate<ViewMessage> hold) {
        return new ViewOptions(coordinator, suspectable, suspectAfter, retry, coordinatorLog, hold);
    }
}
