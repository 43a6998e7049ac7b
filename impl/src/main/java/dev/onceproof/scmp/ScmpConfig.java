package dev.onceproof.scmp;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * How an {@link ScmpServer} is set up. Times are in milliseconds, the spec's time unit.
 *
 * @param scheme     how the server survives crashes (paper 2.2)
 * @param beta       increment over the clock written as latest (Fig. 2-2 "Maintaining Latest"); it
 *                   covers clock skew, the write time and the write period, so timely messages are
 *                   not refused as too early
 * @param epsilon    the clock skew bound (2.1); the monotonic scheme's too-early margin and quiet period
 * @param rhoClasses class name to that class's lifetime estimate (end of 2.4: "use different rhos for
 *                   different classes of clients ... maintain a different G.upper for each")
 * @param classifier which class a connection belongs to; must be a pure function of the id, since an
 *                   entry collected under one class must be judged against that class's upper later
 */
public record ScmpConfig(RecoveryScheme scheme, long beta, long epsilon,
                         Map<String, LifetimeEstimator> rhoClasses,
                         Function<ConnId, String> classifier) {

    /** The class of a single-class server. */
    public static final String DEFAULT_CLASS = "default";

    public ScmpConfig {
        if (scheme == null) {
            throw new IllegalArgumentException("scheme is null");
        }
        if (beta < 0) {
            throw new IllegalArgumentException("beta " + beta + " is negative");
        }
        if (epsilon < 0) {
            throw new IllegalArgumentException("epsilon " + epsilon + " is negative");
        }
        if (rhoClasses == null || rhoClasses.isEmpty()) {
            throw new IllegalArgumentException("at least one rho class is needed (2.4)");
        }
        if (classifier == null) {
            throw new IllegalArgumentException("classifier is null");
        }
        rhoClasses.forEach((name, estimator) -> {
            if (name == null || name.isEmpty() || estimator == null) {
                throw new IllegalArgumentException("rho class \"" + name + "\" needs a name and an estimator");
            }
        });
        // Insertion order is kept so garbage-collection passes visit classes deterministically.
        rhoClasses = Collections.unmodifiableMap(new LinkedHashMap<>(rhoClasses));
    }

    /** One class, {@value #DEFAULT_CLASS}, with a constant rho: the paper's Figures 2-1 and 2-2. */
    public static ScmpConfig singleClass(RecoveryScheme scheme, long beta, long epsilon, long rho) {
        return singleClass(scheme, beta, epsilon, new FixedRho(rho));
    }

    public static ScmpConfig singleClass(RecoveryScheme scheme, long beta, long epsilon,
                                         LifetimeEstimator estimator) {
        return new ScmpConfig(scheme, beta, epsilon, Map.of(DEFAULT_CLASS, estimator),
                conn -> DEFAULT_CLASS);
    }
}
