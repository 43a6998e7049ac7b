package dev.onceproof.scmp;

import java.util.Collections;
import java.util.TreeMap;
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
 *
 * <p>A final class with record-style accessors rather than a record: it holds stateful estimators,
 * so value equality would mislead, and Lincheck 2.39 cannot walk a record class that has a
 * reference-typed static field (Unsafe.staticFieldBase refuses records), as DEFAULT_CLASS is.
 */
public final class ScmpConfig {

    /** The class of a single-class server. */
    public static final String DEFAULT_CLASS = "default";

    private final RecoveryScheme scheme;
    private final long beta;
    private final long epsilon;
    private final Map<String, LifetimeEstimator> rhoClasses;
    private final Function<ConnId, String> classifier;

    public ScmpConfig(RecoveryScheme scheme, long beta, long epsilon,
                      Map<String, LifetimeEstimator> rhoClasses,
                      Function<ConnId, String> classifier) {
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
        this.scheme = scheme;
        this.beta = beta;
        this.epsilon = epsilon;
        // Sorted by name so garbage-collection passes visit classes deterministically.
        this.rhoClasses = Collections.unmodifiableMap(new TreeMap<>(rhoClasses));
        this.classifier = classifier;
    }

    public RecoveryScheme scheme() {
        return scheme;
    }

    public long beta() {
        return beta;
    }

    public long epsilon() {
        return epsilon;
    }

    public Map<String, LifetimeEstimator> rhoClasses() {
        return rhoClasses;
    }

    public Function<ConnId, String> classifier() {
        return classifier;
    }

    @Override
    public String toString() {
        return "ScmpConfig[scheme=" + scheme + ", beta=" + beta + ", epsilon=" + epsilon
                + ", rhoClasses=" + rhoClasses + "]";
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
