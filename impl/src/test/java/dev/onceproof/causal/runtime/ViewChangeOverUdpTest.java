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
        ViewChangeRun.Result r = ViewChangeRun.run(new ViewChangeRun.Options(true, 0.05, 1, 12, 12, 20_000), null);
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
        ViewChangeRun.Result r = ViewChangeRun.run(new ViewChangeRun.Options(false, 0.05, 2, 12, 12, 20_000), null);
        System.out.println("false suspicion: " + r);
        assertThat(r.problems()).isEmpty();
        assertThat(r.ok()).isTrue();
        assertThat(r.excludedRefusals()).isPositive();
        assertThat(r.deliveredOfX().get(NodeId.of(0))).hasSizeLessThan(24);
    }
}
