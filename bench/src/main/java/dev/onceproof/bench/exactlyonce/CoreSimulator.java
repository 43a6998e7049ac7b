package dev.onceproof.bench.exactlyonce;

import java.util.Optional;

/** The simulator of the circle network running the real cores (being written). */
public final class CoreSimulator implements Simulator {

    @Override
    public Optional<String> missing(int strategy) {
        if (strategy >= 4) {
            return Optional.of("no Java core for Strategy " + strategy + " yet (a later issue)");
        }
        return Optional.of("the cores of Strategies 0-3 are not merged into this branch yet");
    }

    @Override
    public double meanValue(int strategy, Params p) {
        throw new UnsupportedOperationException(missing(strategy).orElseThrow());
    }

    @Override
    public Simulated.Estimate stochasticRatio(int strategy, Params p, long seed, int connections) {
        throw new UnsupportedOperationException(missing(strategy).orElseThrow());
    }
}
