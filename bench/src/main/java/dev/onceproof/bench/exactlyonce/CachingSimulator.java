package dev.onceproof.bench.exactlyonce;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link Simulator} that runs each stochastic point once: several claims read the same point (the
 * base values, for one), and a point costs seconds. Deterministic: the answer is the delegate's for
 * the same arguments.
 */
final class CachingSimulator implements Simulator {

    private final Simulator inner;
    private final Map<String, Simulated.Estimate> ratios = new ConcurrentHashMap<>();

    CachingSimulator(Simulator inner) {
        this.inner = inner;
    }

    @Override
    public Optional<String> missing(int strategy) {
        return inner.missing(strategy);
    }

    @Override
    public Optional<String> missingAt(int strategy, Params p) {
        return inner.missingAt(strategy, p);
    }

    @Override
    public double meanValue(int strategy, Params p) {
        return inner.meanValue(strategy, p);
    }

    @Override
    public Simulated.Estimate stochasticRatio(int strategy, Params p, long seed, int connections) {
        String key = strategy + "|" + EoReport.describe(p) + "|" + seed + "|" + connections;
        Simulated.Estimate e = ratios.get(key);
        if (e == null) {
            e = inner.stochasticRatio(strategy, p, seed, connections);
            ratios.put(key, e);
        }
        return e;
    }
}
