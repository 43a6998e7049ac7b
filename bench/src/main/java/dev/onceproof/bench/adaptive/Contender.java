package dev.onceproof.bench.adaptive;

import dev.onceproof.adaptive.LimitedHorizonEstimator;
import dev.onceproof.adaptive.UnlimitedHorizonEstimator;
import dev.onceproof.scmp.FixedRho;
import dev.onceproof.scmp.LifetimeEstimator;
import java.util.function.Supplier;

/**
 * One lifetime estimator under test, made fresh for every run.
 *
 * @param name            how the tables, JSON and plots call it
 * @param factory         a new estimator per run (estimators carry history)
 * @param adaptive        whether its estimate must be a power of two >= 1 (Figs. 2 and 3)
 */
public record Contender(String name, Supplier<LifetimeEstimator> factory, boolean adaptive) {

    /** Fig. 2 in the proof of Theorem 6's reading (p grows only when the estimate decreases). */
    public static Contender unlimited() {
        return new Contender("unlimited", UnlimitedHorizonEstimator::new, true);
    }

    /** Fig. 2 as printed: a collection that rounds to the same estimate still increments p. */
    public static Contender unlimitedLiteral() {
        return new Contender("unlimited-literal-fig2",
                () -> new UnlimitedHorizonEstimator(UnlimitedHorizonEstimator.Reading.LITERAL), true);
    }

    public static Contender limited(int s, int h, long p) {
        // Built once here so bad parameters fail before any run (Assumption 3).
        new LimitedHorizonEstimator(s, h, p);
        return new Contender("limited(S=" + s + ",H=" + h + ",p=" + p + ")",
                () -> new LimitedHorizonEstimator(s, h, p), true);
    }

    public static Contender fixed(long rho) {
        return new Contender("fixed-rho=" + rho, () -> new FixedRho(rho), false);
    }
}
