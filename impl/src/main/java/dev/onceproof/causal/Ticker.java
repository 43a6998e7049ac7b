package dev.onceproof.causal;

/**
 * The core's only view of time: a monotonic reading in whatever unit the caller chose (nanoseconds
 * in the UDP runtime, model time units in a simulation), the same unit as the configured w, RTO and
 * heartbeat interval. Injected, in the manner of Caffeine's Ticker, so that the core never reads a
 * clock itself and a simulation or a trace replay controls time exactly.
 */
@FunctionalInterface
public interface Ticker {

    long read();
}
