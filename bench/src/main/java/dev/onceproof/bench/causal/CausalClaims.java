package dev.onceproof.bench.causal;

import dev.onceproof.bench.claims.PaperClaim;
import dev.onceproof.bench.claims.PaperClaim.Basis;
import java.util.List;
import java.util.Map;

/**
 * The causal bench's checks as claims.json rows (issue 18): what each rests on and what the paper
 * says, in one table. Every line here is measured on a seeded simulation of the real
 * {@code CausalNode} (or evaluates an equation at the paper's numbers), so every one can fail.
 */
final class CausalClaims {

    private CausalClaims() {
    }

    /** Every source folder the causal numbers depend on. */
    static final List<String> INPUTS = List.of(
            "bench/src/main/java/dev/onceproof/bench/causal",
            "bench/src/main/java/dev/onceproof/bench/claims",
            "impl/src/main/java/dev/onceproof/causal",
            "bench/pom.xml",
            "impl/pom.xml",
            "pom.xml");

    private record Label(Basis basis, String expected) {
    }

    private static final Label SIM = new Label(Basis.SIMULATION, "the equation inside the simulated interval");

    private static final Map<String, Label> LABELS = Map.ofEntries(
            Map.entry("eq6-worked-example", new Label(Basis.CLOSED_FORM, "t(p) = 22.66, window 680 events (sec. 4.3)")),
            Map.entry("eq1-unordered", SIM),
            Map.entry("eq7-fifo", SIM),
            Map.entry("eq2-unordered", SIM),
            Map.entry("eq8-causal", SIM),
            Map.entry("eq11-fig1", new Label(Basis.SIMULATION, "Eq. 11 inside every Clopper-Pearson interval")),
            Map.entry("eq12-max", new Label(Basis.SIMULATION, "3/32 e^(-w) at rho = ln 2, nothing significantly above")),
            Map.entry("eq13-rto", new Label(Basis.SIMULATION, "P(round trip > RTO) as the latency model gives")),
            Map.entry("fp-whole-group", new Label(Basis.SIMULATION, "at most 3/32 e^(-w) false positives per pair")),
            Map.entry("rer-heartbeat-delivers-once", new Label(Basis.SIMULATION, "0 pairs undelivered, 0 twice")),
            Map.entry("rer-paper-eventual-delivery", new Label(Basis.SIMULATION, "0 pairs never delivered")));

    private static final Label COST = new Label(Basis.SIMULATION,
            "baseline/RER >= 10 at the highest rate for every loss (an order of magnitude)");

    static PaperClaim toPaperClaim(Check c) {
        // eq7-fifo-worked-example and the like: one label per equation, whatever the workload
        String family = c.id().replaceFirst("^(eq7-fifo|eq8-causal)-(worked-example|mixture)$", "$1");
        Label l = LABELS.getOrDefault(family, c.id().startsWith("cost-") ? COST : null);
        if (l == null) {
            throw new IllegalStateException("check " + c.id() + " has no basis in CausalClaims; add it to the table");
        }
        return PaperClaim.of(c.id(), c.paper(), c.claim(), PaperClaim.Verdict.valueOf(c.status().name()), c.measured(),
                l.expected(), l.basis(), c.reason());
    }
}
