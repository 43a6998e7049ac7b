package dev.onceproof.causal;

import dev.onceproof.steplog.StepLog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The coordinator of a view change with flush (specs/causal/CausalMembership.tla and, for a suspicion
 * during a flush, CausalMembershipRestart.tla: its variables {@code members}, {@code flushing},
 * {@code reported}, {@code report}, {@code agreed}), sans-IO like the node: the caller carries its
 * requests and answers between it and the survivors' {@link CausalNode}s. {@link #suspect} starts a
 * view change, each survivor's {@link CausalNode#flushReport} answer goes to {@link #report}, {@link
 * #decide} fixes the agreed sets once every survivor reported (the union: what one survivor
 * delivered, all deliver), {@link #forwards} says what one survivor sends another, and {@link
 * #installed} ends the change when the last survivor installed. A removed node never returns under
 * its id: {@link #suspect} refuses it.
 *
 * <p>A suspicion during a running change restarts it for the larger set (CausalMembershipRestart):
 * the coordinator is the first survivor ({@link #coordinator}; JGroups' oldest member), so when it
 * is the one suspected the next survivor takes over, and the reports are collected again, a
 * decision already taken included (it is taken again). This object is the group's view of that
 * state, as the spec's variables are; which process holds it is the caller's business.
 *
 * <p>Not thread-safe. Outcomes are return values; a call out of turn throws, since it is a broken
 * contract of the caller, not input from the network.
 *
 * <p>With {@link #logSteps} the coordinator writes its own step log (trace validation,
 * specs/causal/TraceCausalMembership.tla), one line per step it takes, inside the step: Suspect
 * (the suspecting node and the target), FlushReport as the coordinator receives a survivor's
 * report (that survivor and the seqs it reported; the spec's FlushReport(i) is both sides at once),
 * and DecideView (the agreed seqs), written before the caller tells the survivors of it. A restart
 * is logged for one removed node at a time only (TraceCausalMembership knows no restart yet).
 */
public final class ViewChange {

    private final int n;
    private final Set<NodeId> members = new TreeSet<>();
    private final Set<NodeId> gone = new TreeSet<>();
    /** The nodes the running change removes; empty when none runs. */
    private final TreeSet<NodeId> flushing = new TreeSet<>();
    /** This round's reports: survivor -> removed node -> the seqs of it the survivor delivered. */
    private final TreeMap<NodeId, TreeMap<NodeId, SeqSet>> report = new TreeMap<>();
    private final TreeMap<NodeId, SeqSet> agreed = new TreeMap<>();
    private final Set<NodeId> installed = new HashSet<>();
    /**
     * The members that have not installed the last join yet (spec: i \in members with members not
     * a subset of view[i]); empty when none is pending. No suspicion starts a change until it is
     * empty (CausalJoin's JSuspect).
     */
    private final Set<NodeId> joinPending = new TreeSet<>();
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

    /**
     * Spec Suspect(i, x): survivor {@code by} suspects survivor {@code x} (maybe falsely). With no change
     * running it starts one; during one it restarts it for the nodes being removed and x
     * (CausalMembershipRestart): the round's reports are dropped, as the old coordinator's state is
     * when it is the one that failed, and every survivor reports again. False if either is not a
     * survivor, or while a member has not installed the last join ({@link #joinPending}): the caller
     * suspects again once it has. Without that wait a member that never installed the join would
     * install the view without the suspect and without the joiner, and if the suspect is the donor
     * nobody left counts the joiner's row (MutJoinSuspectBeforeInstalled).
     */
    public boolean suspect(NodeId by, NodeId x) {
        SortedSet<NodeId> s = survivors();
        if (!s.contains(x) || !s.contains(by) || by.equals(x) || !joinPending.isEmpty()) {
            return false;
        }
        flushing.add(x);
        report.clear();
        installed.clear();
        if (log.on()) {
            synchronized (log) {
                log.step("Suspect").field("node", by.specName()).field("target", x.specName()).end();
            }
        }
        return true;
    }

    /**
     * Spec Spare (CausalJoin.tla): j is an id never used yet, out of the membership until it {@link
     * #join}s. Called before any change runs.
     */
    public void spare(NodeId j) {
        if (j.index() >= n) {
            throw new IllegalArgumentException("spare " + j + " is not in the group of " + n + " nodes");
        }
        members.remove(j);
    }

    /**
     * Spec Join(d, j), the membership's side: the spare j joins from the member {@code donor}
     * ({@link CausalNode#join} on the donor, {@link CausalNode#joining} for j), and every other member
     * has the join to install ({@link CausalNode#installJoin}, then {@link #joinInstalled}). Only while
     * no change runs and no join is pending (the donor has installed the last view, so its prefix
     * holds every agreed event), and never for a removed id: a node removed by mistake comes back only
     * under a new one. False if refused.
     */
    public boolean join(NodeId donor, NodeId j) {
        if (!flushing.isEmpty() || !joinPending.isEmpty() || !members.contains(donor) || members.contains(j)
                || gone.contains(j) || j.index() >= n) {
            return false;
        }
        joinPending.addAll(members);
        joinPending.remove(donor);
        members.add(j);
        return true;
    }

    /** Spec InstallJoin(i, j), the coordinator's side: member i installed the last join. */
    public void joinInstalled(NodeId i) {
        require(joinPending.remove(i), i + " has no join to install (pending: " + joinPending + ")");
    }

    /** The members that have not installed the last join yet. */
    public Set<NodeId> joinPending() {
        return Collections.unmodifiableSet(joinPending);
    }

    /** The survivors: the members but the nodes being removed. */
    public SortedSet<NodeId> survivors() {
        TreeSet<NodeId> s = new TreeSet<>(members);
        s.removeAll(flushing);
        return s;
    }

    /** Spec Coord: the first survivor, who collects the reports and decides. */
    public NodeId coordinator() {
        return survivors().first();
    }

    /** Spec FlushReport(i), the coordinator's side, when one node is removed: {@link #report(NodeId, Map)}. */
    public void report(NodeId i, SeqSet seqs) {
        require(!flushing.isEmpty() && !decided(), "no flush awaits reports");
        require(flushing.size() == 1, "the flush removes " + flushing + ", not one node: report per node");
        report(i, Map.of(flushing.first(), Objects.requireNonNull(seqs, "seqs")));
    }

    /** Spec FlushReport(i), the coordinator's side: survivor i's delivered seqs of each node being removed. */
    public void report(NodeId i, Map<NodeId, SeqSet> seqs) {
        require(!flushing.isEmpty() && !decided(), "no flush awaits reports");
        require(survivors().contains(i), i + " is not a survivor of the removal of " + flushing);
        require(!report.containsKey(i), i + " already reported");
        require(seqs.keySet().equals(flushing), i + " reported on " + seqs.keySet() + ", the flush removes " + flushing);
        report.put(i, new TreeMap<>(seqs));
        if (log.on()) {
            synchronized (log) {
                for (NodeId x : flushing) {
                    log.step("FlushReport").field("node", i.specName()).field("target", x.specName())
                            .numbers("seqs", seqs.get(x).seqs()).end();
                }
            }
        }
    }

    /**
     * Spec DecideView: every survivor reported; each removed node's agreed set is the union of the
     * reports, and the nodes leave the membership. Empty until then.
     */
    public Optional<SortedMap<NodeId, SeqSet>> decide() {
        if (flushing.isEmpty() || decided() || !report.keySet().equals(survivors())) {
            return Optional.empty();
        }
        TreeMap<NodeId, SeqSet> out = new TreeMap<>();
        for (NodeId x : flushing) {
            SeqSet union = SeqSet.EMPTY;
            for (TreeMap<NodeId, SeqSet> r : report.values()) {
                union = union.union(r.get(x));
            }
            out.put(x, union);
        }
        agreed.putAll(out);
        if (log.on()) {
            synchronized (log) {
                out.forEach((x, seqs) -> log.step("DecideView").field("target", x.specName())
                        .numbers("seqs", seqs.seqs()).end());
            }
        }
        members.removeAll(flushing);
        gone.addAll(flushing);
        return Optional.of(Collections.unmodifiableSortedMap(out));
    }

    /** Spec FlushForward(j, i) when one node is removed: {@link #forwards(NodeId, NodeId, NodeId)}. */
    public SortedSet<Long> forwards(NodeId j, NodeId i) {
        require(flushing.size() == 1, "the flush removes " + flushing + ", not one node: forward per node");
        return forwards(j, i, flushing.first());
    }

    /** Spec FlushForward(j, i): the agreed seqs of x that j reported this round and i did not. */
    public SortedSet<Long> forwards(NodeId j, NodeId i, NodeId x) {
        require(decided(), "nothing decided to forward");
        require(flushing.contains(x), x + " is not among the removed " + flushing);
        TreeMap<NodeId, SeqSet> fromJ = report.get(j);
        TreeMap<NodeId, SeqSet> atI = report.get(i);
        TreeSet<Long> out = new TreeSet<>();
        if (fromJ != null && atI != null) {
            for (long s : atI.get(x).missingFrom(fromJ.get(x))) {
                if (agreed.get(x).contains(s)) {
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
            flushing.clear();
            report.clear();
            installed.clear();
        }
    }

    private boolean decided() {
        return !flushing.isEmpty() && Collections.disjoint(flushing, members);
    }

    /** The nodes the running change removes (empty when none runs). */
    public SortedSet<NodeId> flushing() {
        return Collections.unmodifiableSortedSet(flushing);
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

    /** What i reported this round on the one node being removed (empty if it did not). */
    public SeqSet reportOf(NodeId i) {
        require(flushing.size() <= 1, "the flush removes " + flushing + ", not one node");
        return flushing.isEmpty() ? SeqSet.EMPTY : reportOf(i, flushing.first());
    }

    /** What i reported this round on x (empty if it did not). */
    public SeqSet reportOf(NodeId i, NodeId x) {
        TreeMap<NodeId, SeqSet> r = report.get(i);
        return r == null ? SeqSet.EMPTY : r.getOrDefault(x, SeqSet.EMPTY);
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
