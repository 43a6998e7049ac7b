package dev.onceproof.causal;

import dev.onceproof.steplog.StepLog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The coordinator of a view change with flush (specs/causal/CausalMembership.tla: its variables
 * {@code members}, {@code flushing}, {@code reported}, {@code report}, {@code agreed}), sans-IO like
 * the node: the caller carries its requests and answers between it and the survivors' {@link
 * CausalNode}s. One view change at a time: {@link #suspect} starts one, each survivor's {@link
 * CausalNode#flushReport} answer goes to {@link #report}, {@link #decide} fixes the agreed set once
 * every survivor reported (the union: what one survivor delivered, all deliver), {@link #forwards}
 * says what one survivor sends another, and {@link #installed} ends the change when the last
 * survivor installed. A removed node never returns under its id: {@link #suspect} refuses it.
 *
 * <p>Not thread-safe. Outcomes are return values; a call out of turn throws, since it is a broken
 * contract of the caller, not input from the network.
 *
 * <p>With {@link #logSteps} the coordinator writes its own step log (trace validation,
 * specs/causal/TraceCausalMembership.tla), one line per step it takes, inside the step: Suspect
 * (the suspecting node and the target), FlushReport as the coordinator receives a survivor's
 * report (that survivor and the seqs it reported; the spec's FlushReport(i) is both sides at once),
 * and DecideView (the agreed seqs), written before the caller tells the survivors of it.
 */
public final class ViewChange {

    private final int n;
    private final Set<NodeId> members = new TreeSet<>();
    private final Set<NodeId> gone = new TreeSet<>();
    private NodeId flushing;
    private final TreeMap<NodeId, SeqSet> report = new TreeMap<>();
    private final TreeMap<NodeId, SeqSet> agreed = new TreeMap<>();
    private final Set<NodeId> installed = new HashSet<>();
    /** {@link StepLog#OFF} unless {@link #logSteps} set one. */
    private StepLog log = StepLog.OFF;

    public ViewChange(int n) {
        this.n = n;
        for (int k = 0; k < n; k++) {
            members.add(NodeId.of(k));
        }
    }

    /** Logs this coordinator's steps to {@code log} (its own process; header {@link #stepLogHeader}). Returns this. */
    public ViewChange logSteps(StepLog log) {
        this.log = Objects.requireNonNull(log, "log");
        return this;
    }

    /**
     * The coordinator's log header: spec Causal in the group's mode, process "coordinator", and the
     * group's constants (those of its nodes' headers, with which the validator checks they agree).
     */
    public static StepLog.Header stepLogHeader(CausalConfig group) {
        List<String> nodes = new ArrayList<>();
        for (int k = 0; k < group.nodes(); k++) {
            nodes.add(NodeId.of(k).specName());
        }
        return new StepLog.Header("Causal", group.mode().specName(), "coordinator").strings("Nodes", nodes)
                .constant("Recovery", group.recovery().specName());
    }

    /** Spec Suspect(i, x): {@code by} suspects {@code x} (maybe falsely). False if a change runs or x is not a member. */
    public boolean suspect(NodeId by, NodeId x) {
        if (flushing != null || !members.contains(x) || !members.contains(by) || by.equals(x)) {
            return false;
        }
        flushing = x;
        if (log.on()) {
            synchronized (log) {
                log.step("Suspect").field("node", by.specName()).field("target", x.specName()).end();
            }
        }
        return true;
    }

    /** The survivors: the members but the node being removed. */
    public SortedSet<NodeId> survivors() {
        TreeSet<NodeId> s = new TreeSet<>(members);
        if (flushing != null) {
            s.remove(flushing);
        }
        return s;
    }

    /** Spec FlushReport(i), the coordinator's side: survivor i's delivered seqs of the node being removed. */
    public void report(NodeId i, SeqSet seqs) {
        require(flushing != null && !decided(), "no flush awaits reports");
        require(survivors().contains(i), i + " is not a survivor of the removal of " + flushing);
        require(!report.containsKey(i), i + " already reported");
        report.put(i, Objects.requireNonNull(seqs, "seqs"));
        if (log.on()) {
            synchronized (log) {
                log.step("FlushReport").field("node", i.specName()).field("target", flushing.specName())
                        .numbers("seqs", seqs.seqs()).end();
            }
        }
    }

    /** Spec DecideView: every survivor reported; the agreed set is the union of the reports. Empty until then. */
    public Optional<SeqSet> decide() {
        if (flushing == null || decided() || !report.keySet().equals(survivors())) {
            return Optional.empty();
        }
        SeqSet union = SeqSet.EMPTY;
        for (SeqSet s : report.values()) {
            union = union.union(s);
        }
        agreed.put(flushing, union);
        if (log.on()) {
            synchronized (log) {
                log.step("DecideView").field("target", flushing.specName()).numbers("seqs", union.seqs()).end();
            }
        }
        members.remove(flushing);
        gone.add(flushing);
        return Optional.of(union);
    }

    /** Spec FlushForward(j, i): the agreed seqs j reported and i did not (j sends the copies it holds). */
    public SortedSet<Long> forwards(NodeId j, NodeId i) {
        require(decided(), "nothing decided to forward");
        SeqSet fromJ = report.get(j);
        SeqSet atI = report.get(i);
        TreeSet<Long> out = new TreeSet<>();
        if (fromJ != null && atI != null) {
            for (long s : atI.missingFrom(fromJ)) {
                if (agreed.get(flushing).contains(s)) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    /** Spec InstallView(i), the coordinator's side: i installed; the last survivor ends the change. */
    public void installed(NodeId i) {
        require(decided() && members.contains(i), i + " installs no decided view");
        installed.add(i);
        if (installed.containsAll(members)) {
            flushing = null;
            report.clear();
            installed.clear();
        }
    }

    private boolean decided() {
        return flushing != null && !members.contains(flushing);
    }

    public Optional<NodeId> flushing() {
        return Optional.ofNullable(flushing);
    }

    public Set<NodeId> members() {
        return Collections.unmodifiableSet(members);
    }

    public Set<NodeId> gone() {
        return Collections.unmodifiableSet(gone);
    }

    public Set<NodeId> reported() {
        return Collections.unmodifiableSet(report.keySet());
    }

    public SeqSet reportOf(NodeId i) {
        return report.getOrDefault(i, SeqSet.EMPTY);
    }

    public SeqSet agreedOf(NodeId x) {
        return agreed.getOrDefault(x, SeqSet.EMPTY);
    }

    public int size() {
        return n;
    }

    private static void require(boolean ok, String why) {
        if (!ok) {
            throw new IllegalStateException(why);
        }
    }
}
