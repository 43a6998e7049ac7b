package dev.onceproof.bench.adaptive;

/** Totals of one run and its samples. */
public record RunResult(String contender, long accepted, long lost, long lostNotSummary, long copies,
        long copiesAccepted, long violations, long badEstimates, long collections, long finalEstimate,
        double meanTable, Series series) {

    static RunResult of(Contender c, Driver d, Series s) {
        return new RunResult(c.name(), d.accepted(), d.lost(), d.lostNotSummary(), d.copies(),
                d.copiesAccepted(), d.violations(), d.badEstimates(), d.collections(), d.estimate(),
                s.meanTable(), s);
    }

    /** L/A over the whole run (L_u/A_u at the end, Section 2). */
    public double lossRatio() {
        return accepted == 0 ? Double.NaN : (double) lost / accepted;
    }
}
