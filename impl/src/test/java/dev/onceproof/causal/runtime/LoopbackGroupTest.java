package dev.onceproof.causal.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.causal.Count;
import dev.onceproof.causal.Mode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Four nodes on real loopback UDP with 5% of datagrams dropped on receipt: causal order, once, complete. */
class LoopbackGroupTest {

    @Test
    @Timeout(60)
    void lossyLoopbackGroupDeliversEverythingInCausalOrderOnce() throws Exception {
        LoopbackGroup.Options o = new LoopbackGroup.Options(4, 400, 0.05, Mode.CAUSAL, 3, 2000, 5, 20, 20, 40_000);
        LoopbackGroup.Result r = LoopbackGroup.run(o, System.out);
        System.out.println(r.audit() + " " + r.counts() + " " + r.refusals());
        assertThat(r.audit().violations()).isEmpty();
        assertThat(r.audit().ok()).isTrue();
        assertThat(r.delivered()).isEqualTo(r.expected());
        // Loss really happened and recovery really ran.
        assertThat(r.lost()).isPositive();
        assertThat(r.counts().get(Count.RESEND_RECEIVED)).isPositive();
    }
}
