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
 * <p>Mutation seam: {@link #restartKeepsReports} (package-private), so a conformance test can build
 * a coordinator whose restart keeps the old round's reports and show that trace validation catches
 * it; production code must not override it.
 *
 * <p>Not thread-safe. Outcomes are return values; a call out of turn throws, since it is a broken
 * contract of the caller, not input from the network.
 *
 * <p>With {@link #logSteps} the coordinator writes its own step log (trace validation,
 * specs/causal/TraceCausalMembership.tla), one line per step it takes, inside the step: Suspect
 * (the suspecting node, the target, the set being removed after it and whether it restarted a
 * running flush), FlushReport as the coordinator receives a survivor's report (that survivor and
 * the seqs it reported; the spec's FlushReport(i) is both sides at once), and DecideView (the agreed
 * seqs), written before the caller tells the survivors of it. A log opened with {@link
 * #restartStepLogHeader} is checked against CausalMembershipRestart (TraceCausalMembershipRestart),
 * restarts included; one opened with {@link #stepLogHeader} against CausalMembership, which knows
 * one removed node at a time.
 */
public class ViewChange {

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

    /**
     * The group's view-change state as a survivor taking over the coordinator's role knows it
     * (CausalMembershipRestart: the coordinator is suspected and the next survivor in ring order
     * takes over): {@code members} is its installed view, {@code flushing} the nodes of the
     * interrupted change (some may have left its view already: their decision is taken again; empty
     * if that change ended). The new coordinator then calls {@link #suspect} on the coordinator it
     * suspected, which restarts the round (logged as such). The old coordinator's reports are lost
     * with it: the round starts with none, as the spec's Suspect clears them. Every other id is gone.
     */
    public static ViewChange resume(int n, Set<NodeId> members, Set<NodeId> flushing) {
        ViewChange v = new ViewChange(n);
        for (NodeId k : List.copyOf(v.members)) {
            if (!members.contains(k) && !flushing.contains(k)) {
                v.members.remove(k);
                v.gone.add(k);
            }
        }
        v.flushing.addAll(flushing);
        require(!v.survivors().isEmpty() && flushing.stream().allMatch(x -> x.index() < n),
                "a taken-over flush needs survivors and nodes of the group; got members "
                + members + ", flushing " + flushing);
        return v;
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
     * The coordinator's log header for a run whose view change may restart (a second suspicion
     * mid-flush, the coordinator's included): {@link #stepLogHeader} naming the membership spec its
     * lines are checked against, CausalMembershipRestart (its trace module
     * TraceCausalMembershipRestart; without it a log is checked against CausalMembership, which
     * knows one removed node at a time).
     */
    public static StepLog.Header restartStepLogHeader(CausalConfig group) {
        return stepLogHeader(group).constant("Membership", "CausalMembershipRestart");
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
        boolean restart = !flushing.isEmpty();
        flushing.add(x);
        if (restartKeepsReports()) {
            report.remove(x);
        } else {
            report.clear();
        }
        installed.clear();
        if (log.on()) {
            // With the set it makes and whether it restarted a running flush (CausalMembershipRestart's
            // Suspect: the round a survivor's report answers is named by that set).
            List<String> set = new ArrayList<>();
            flushing.forEach(f -> set.add(f.specName()));
            synchronized (log) {
                log.step("Suspect").field("node", by.specName()).field("target", x.specName())
                        .strings("flushing", set).field("restart", restart).end();
            }
        }
        return true;
    }

    /**
     * Mutation seam (MutRestartKeepsReports' defect; production code must not override it): a
     * restart that keeps the reports the survivors made to the superseded round (but the new
     * suspect's), so the new round decides from reports that say nothing of the node it adds. The
     * real restart drops them all and every survivor reports again (CausalMembershipRestart's
     * Suspect); trace validation rejects the broken coordinator at its decision.
     */
    boolean restartKeepsReports() {
        return false;
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
                union = union.union(r.getOrDefault(x, SeqSet.EMPTY)); // a key is missing only under the seam
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
            for (long s : atI.getOrDefault(x, SeqSet.EMPTY).missingFrom(fromJ.getOrDefault(x, SeqSet.EMPTY))) {
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
