package dev.onceproof.bench.exactlyonce;

/**
 * One point of a figure: the parameters, the closed form's ratio p_i/p_0 (clamped, with the
 * unclamped value kept), and the simulated ratios.
 */
public record Point(int strategy, double x, Params params, ClosedForms.Throughput analytic, Simulated simulated) {
}
