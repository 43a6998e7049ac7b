package dev.onceproof.causal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.causal.NodeId;
import org.junit.jupiter.api.Test;

/**
 * The view change over real UDP (issue 19 item 3; specs/causal/CausalMembership.tla), with 5% of
 * the datagrams lost on receipt, the view change's own included: a crashed node is suspected by the
 * coordinator's failure detector and removed after the flush, a live node suspected falsely is
 * removed all the same and its later events refused; in both the survivors deliver the same events
 * of the removed node, exactly the agreed ones (RemovedAgreement, ExcludedNotDelivered), keep causal
 * order and once, and empty their stores (GcContinues: the removed row no longer holds the stable
 * prefix). The outcome does not depend on timing: only n3 can be suspected, and the run waits for
 * the end (its deadline only stops a broken run).
 */
class ViewChangeOverUdpTest {

    @Test
    void aCrashedNodeIsRemovedAfterTheFlushAndCollectionGoesOn() throws Exception {
        ViewChangeRun.Result r = ViewChangeRun.run(ViewChangeRun.Options.of(true, 0.05, 1, 12, 12), null);
        System.out.println("crash: " + r);
        assertThat(r.problems()).isEmpty();
        assertThat(r.ended()).isTrue();
        assertThat(r.audit().violations()).isEmpty();
        assertThat(r.ok()).isTrue();
        assertThat(r.agreed().seqs()).isNotEmpty();
        assertThat(r.collected()).isPositive();
    }

    @Test
    void aFalselySuspectedLiveNodeIsExcludedAndItsLaterEventsRefused() throws Exception {
        ViewChangeRun.Result r = ViewChangeRun.run(ViewChangeRun.Options.of(false, 0.05, 2, 12, 12), null);
        System.out.println("false suspicion: " + r);
        assertThat(r.problems()).isEmpty();
        assertThat(r.ok()).isTrue();
        assertThat(r.excludedRefusals()).isPositive();
        // Each survivor delivered exactly the events of x the flush agreed on, none of the later ones
        // it refused. (It asserted fewer than all of x's events before: on a fast run the suspicion
        // came after x's last broadcast reached everyone, the flush agreed on all 27, and the check
        // failed on a correct run, seen once in a fresh-clone build at stop 32.)
        for (NodeId s : r.deliveredOfX().keySet()) {
            assertThat(r.deliveredOfX().get(s)).as("%s's deliveries of x", s)
                    .isEqualTo(new java.util.ArrayList<>(r.agreed().seqs()));
        }
        assertThat(r.deliveredOfX()).isNotEmpty();
    }

    /**
     * Excluded for ever: once the crashed n3 is removed, a new process under n3's id (a fresh core,
     * its seqs from 1 again) broadcasts the agreed number of events and five more. The survivors
     * deliver none of them: those under an agreed seq are taken for the old events (duplicates:
     * reusing the id would lose them silently, which is why a node comes back only under a new id,
     * a join the spec and the runtime leave out), the others and its heartbeats are refused as
     * excluded; each survivor still delivered exactly the agreed events of the old n3.
     */
    @Test
    void aNodeBackUnderItsOldIdIsRefused() throws Exception {
        ViewChangeRun.Result r = ViewChangeRun.run(new ViewChangeRun.Options(true, true, 0.05, 3, 12, 12, 20_000, true), null);
        System.out.println("back under its old id: " + r);
        assertThat(r.ok()).isTrue();
        assertThat(r.problems()).isEmpty();
        assertThat(r.excludedRefusals()).isPositive();
        assertThat(r.deliveredOfX().get(NodeId.of(1))).isEqualTo(new java.util.ArrayList<>(r.agreed().seqs()));
    }

    /**
     * The control of the stores' check: the same crash with nobody suspecting n3. Its row stays in
     * every survivor's view, stuck at what n3 delivered before it died, so what the survivors
     * broadcast after the crash is never stable and never collected, however long the run: the
     * check that the stores empty fails. (The 3-second deadline only ends the wait; the stores
     * could never empty.)
     */
    @Test
    void withoutTheRemovalTheCrashedNodesRowStopsCollection() throws Exception {
        ViewChangeRun.Result r = ViewChangeRun.run(new ViewChangeRun.Options(true, false, 0.05, 1, 12, 12, 3_000, false), null);
        System.out.println("crash, no removal: " + r);
        assertThat(r.ended()).isFalse();
        assertThat(r.audit().orderOk()).isTrue();
        assertThat(r.problems()).anyMatch(p -> p.matches("n[12] still stores [0-9]+ events"));
        assertThat(r.stored().values()).allMatch(v -> v >= 12);
    }
}
