package dev.onceproof.bench.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The analytic claims pass at Table 1's base values, and they can fail: from a base point where the
 * paper's statement is false (a slow wireless link, a long connection) the checks say FAIL.
 */
class PaperClaimsTest {

    /** Simulates nothing, so only the analytic claims run. */
    static final Simulator NONE = new Simulator() {
        @Override
        public Optional<String> missing(int strategy) {
            return Optional.of("not simulated in this test");
        }

        @Override
        public double meanValue(int strategy, Params p) {
            throw new AssertionError();
        }

        @Override
        public Simulated.Estimate stochasticRatio(int strategy, Params p, long seed, int connections) {
            throw new AssertionError();
        }
    };

    @Test
    void everyAnalyticClaimPassesAtBaseValues() {
        EoExperiment.Results res = EoExperiment.run(Params.base(), NONE, 1, 0);
        assertThat(res.claims()).filteredOn(c -> c.status() != Claim.Status.NOT_RUN).hasSizeGreaterThanOrEqualTo(20)
                .allSatisfy(c -> assertThat(c.status()).as(c.id() + ": " + c.measured()).isEqualTo(Claim.Status.PASS));
        assertThat(res.claims()).filteredOn(c -> c.status() == Claim.Status.NOT_RUN)
                .extracting(Claim::id).containsExactlyInAnyOrder("meanvalue-within-2pct", "p1-p2-equal-p0",
                        "stoch-s3-12-slots", "stoch-s4-base", "stoch-s5-base", "stoch-s6-dprime15",
                        "l238-s5-starts-faster", "l252-s6-fewer-syncs", "l347-modest-storage", "l386-fig7-falls-with-Tc",
                        "l403-tr-key-factor", "l450-often-no-dearer", "table2-tu-s5", "table2-tc-s1-s3");
    }

    @Test
    void claimsFailWhereThePapersStatementsDoNotHold() {
        // D = 90: Figure 4's t_cap = 0.2 curve needs 1 + 13.5/0.875 = 16.4 slots, not "about 12"
        Map<String, Claim> b = byId(EoExperiment.run(Params.base().with("D", 90), NONE, 1, 0));
        assertThat(b.get("fig4-12-slots").status()).as(b.get("fig4-12-slots").measured()).isEqualTo(Claim.Status.FAIL);
        // t_cap = 2 s: q = 1 at D = 10 keeps 2.075/(2.075 + 1.5) = 0.58 of the throughput, not "quite large" a cost
        Map<String, Claim> c = byId(EoExperiment.run(Params.base().with("tcap", 2), NONE, 1, 0));
        assertThat(c.get("fig8-q1-costly").status()).as(c.get("fig8-q1-costly").measured()).isEqualTo(Claim.Status.FAIL);
        // T_u = 30 < T_r: with syncs every 30 s the ratio at T_r = T_u still carries the first sync's
        // chance of missing B (p_s = 0.15 at T_r = 30, ratio 0.91), so "unnoticeable at T_u" fails.
        Map<String, Claim> d = byId(EoExperiment.run(Params.base().with("Tu", 30), NONE, 1, 0));
        assertThat(d.get("fig6-unnoticeable-at-Tu").status()).as(d.get("fig6-unnoticeable-at-Tu").measured())
                .isEqualTo(Claim.Status.FAIL);
    }

    private static Map<String, Claim> byId(EoExperiment.Results res) {
        return res.claims().stream().collect(Collectors.toMap(Claim::id, Function.identity()));
    }
}
