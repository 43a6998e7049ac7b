package dev.onceproof.causal;

import dev.onceproof.steplog.StepLog;
import java.util.ArrayList;
import java.util.List;

/**
 * The step log lines of a {@link CausalNode} (trace validation, DESIGN.md link 5): one line per
 * step of specs/causal/Causal.tla the node takes, named after the spec action, with its parameters
 * as the spec's {@code lastAction} records them and a summary of the variables it changed. The node
 * calls these only after testing {@link StepLog#on()}, so with {@link StepLog#OFF} a step costs
 * nothing here.
 *
 * <p>Lines carry no time: Causal.tla is untimed (a timer step is enabled whenever its phase holds).
 * The variables: Broadcast the event's metadata (the spec's Stamp); Receive the message's and, for a
 * buffered copy, how many ids the node now tracks as missing (what RER step R1 revealed);
 * ReceiveHeartbeat the same count; Deliver the node's new prefix of the origin ({@code vc} at that
 * key only); CollectGarbage how many events the store keeps. Each is written inside the core's
 * step, so before the step's datagrams leave: the caller sends what the step returns.
 */
final class CausalStepLog {

    private CausalStepLog() {
    }

    /** The header: spec Causal, its Mode, this node, and the constants the run fixes. */
    static StepLog.Header header(CausalConfig c) {
        List<String> nodes = new ArrayList<>();
        for (int k = 0; k < c.nodes(); k++) {
            nodes.add(NodeId.of(k).specName());
        }
        return new StepLog.Header("Causal", c.mode().specName(), c.self().specName())
                .strings("Nodes", nodes)
                .constant("Recovery", c.recovery().specName())
                .constant("MaxBuffered", c.maxBuffered())
                .constant("MaxStored", c.maxStored())
                .constant("MaxMissing", c.maxMissing());
    }

    static void broadcast(StepLog log, NodeId self, Event e) {
        synchronized (log) {
            vc(log.step("Broadcast").field("node", self.specName()).field("seq", e.seq()), "vc", e.vc()).end();
        }
    }

    /** Receive(i, e) of a data or resend copy; {@code missing} only for a buffered one (-1 otherwise). */
    static void receive(StepLog log, NodeId self, CausalMessage m, Event e, String outcome, int missing) {
        synchronized (log) {
            StepLog l = log.step("Receive").field("node", self.specName()).field("from", m.from().specName())
                    .field("type", m instanceof CausalMessage.Data ? "data" : "resend")
                    .field("origin", e.origin().specName()).field("seq", e.seq());
            vc(l, "vc", e.vc()).field("outcome", outcome);
            if (missing >= 0) {
                l.field("missing", missing);
            }
            l.end();
        }
    }

    static void deliver(StepLog log, NodeId self, Event e, long prefix) {
        synchronized (log) {
            log.step("Deliver").field("node", self.specName()).field("origin", e.origin().specName())
                    .field("seq", e.seq()).field("vc", e.origin().specName(), prefix).end();
        }
    }

    static void serveRequest(StepLog log, NodeId self, CausalMessage.Request q, String outcome) {
        synchronized (log) {
            log.step("ServeRequest").field("node", self.specName()).field("from", q.from().specName())
                    .field("origin", q.id().origin().specName()).field("seq", q.id().seq()).field("outcome", outcome)
                    .end();
        }
    }

    static void receiveHeartbeat(StepLog log, NodeId self, CausalMessage.Heartbeat h, int missing) {
        synchronized (log) {
            vc(log.step("ReceiveHeartbeat").field("node", self.specName()).field("from", h.from().specName()),
                    "vc", h.vc()).field("missing", missing).end();
        }
    }

    /** ExpireWait or ExpireRto: the request for {@code d} went to {@code to}. */
    static void expire(StepLog log, String action, NodeId self, EventId d, NodeId to) {
        synchronized (log) {
            log.step(action).field("node", self.specName()).field("origin", d.origin().specName())
                    .field("seq", d.seq()).field("to", to.specName()).end();
        }
    }

    static void sendHeartbeat(StepLog log, NodeId self, VectorClock vc) {
        synchronized (log) {
            vc(log.step("SendHeartbeat").field("node", self.specName()), "vc", vc).end();
        }
    }

    static void collectGarbage(StepLog log, NodeId self, int stored) {
        synchronized (log) {
            log.step("CollectGarbage").field("node", self.specName()).field("stored", stored).end();
        }
    }

    /**
     * A step of the view change (CausalMembership.tla) with the seqs of the target's events it is
     * about: FlushReport (what this node delivered, its report), DecideView (the agreed set), and
     * FlushForward (the copies sent to {@code to}; null for the others).
     */
    static void membership(StepLog log, String action, NodeId self, NodeId target, NodeId to,
                           Iterable<Long> seqs) {
        synchronized (log) {
            StepLog l = log.step(action).field("node", self.specName()).field("target", target.specName());
            if (to != null) {
                l.field("to", to.specName());
            }
            l.numbers("seqs", seqs).end();
        }
    }

    /**
     * FlushReport or InstallView on one target of a view change that removes {@code targets}
     * (CausalMembershipRestart.tla: flushing is a set, and a restart asks for a report on a larger
     * one): the line of {@link #membership} or {@link #plain} with the whole set, in the order the
     * node writes one line per target, so TraceCausalMembershipRestart takes the spec's one step at
     * the first and CausalMerge knows the round (the set) a line belongs to. {@code seqs} null for
     * InstallView.
     */
    static void ofRound(StepLog log, String action, NodeId self, NodeId target, Iterable<Long> seqs,
                        java.util.Collection<NodeId> targets) {
        synchronized (log) {
            StepLog l = log.step(action).field("node", self.specName()).field("target", target.specName());
            if (seqs != null) {
                l.numbers("seqs", seqs);
            }
            List<String> names = new ArrayList<>();
            targets.forEach(x -> names.add(x.specName()));
            l.strings("targets", names).end();
        }
    }

    /** Crash, and InstallView (CausalMembership.tla): node and target. */
    static void plain(StepLog log, String action, NodeId self, NodeId target) {
        synchronized (log) {
            StepLog l = log.step(action).field("node", self.specName());
            if (target != null) {
                l.field("target", target.specName());
            }
            l.end();
        }
    }

    /**
     * Join(d, j) at the donor (CausalJoin.tla): the joiner and the prefix handed to it (the spec's
     * vc[j] and joinStart[j] after the step; the rest of j's state is the donor's, which the spec
     * reads).
     */
    static void join(StepLog log, NodeId self, NodeId j, VectorClock prefix) {
        synchronized (log) {
            vc(log.step("Join").field("node", self.specName()).field("target", j.specName()), "vc", prefix).end();
        }
    }

    /** InstallJoin(i, j) at a member: the joiner and the row it starts from there (the spec's known[i][j]). */
    static void installJoin(StepLog log, NodeId self, NodeId j, VectorClock row) {
        synchronized (log) {
            vc(log.step("InstallJoin").field("node", self.specName()).field("target", j.specName()), "row", row)
                    .end();
        }
    }

    private static StepLog vc(StepLog l, String name, VectorClock vc) {
        java.util.Map<String, Long> m = new java.util.TreeMap<>();
        for (int k = 0; k < vc.size(); k++) {
            m.put(NodeId.of(k).specName(), vc.get(k));
        }
        return l.longs(name, m);
    }
}
