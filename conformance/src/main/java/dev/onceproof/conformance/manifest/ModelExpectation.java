package dev.onceproof.conformance.manifest;

import dev.onceproof.conformance.tlc.CfgFile;
import dev.onceproof.conformance.tlc.Outcome;
import dev.onceproof.conformance.tlc.TlcRequest;
import dev.onceproof.conformance.tlc.TlcResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Checks a TLC result against the model's manifest entry: the outcome, and the distinct-state count
 * and depth, so that a spec change shows up as a changed number someone has to confirm.
 */
public final class ModelExpectation {

    private ModelExpectation() {
    }

    public static TlcRequest request(Repo repo, ModelEntry m, Duration timeout) {
        TlcRequest r = TlcRequest.modelCheck(repo.specs().resolve(m.module()), repo.specs().resolve(m.cfg()),
                repo.familyDir(m.family()), m.checkDeadlock(), timeout);
        if (m.simulated()) {
            return r.withArgs(m.simulate().tlcArgs());
        }
        return finalLivenessCheckOnly(repo, m) ? r.withArgs(List.of("-lncheck", "final")) : r;
    }

    /**
     * A ci model expected to pass that has temporal properties checks them once, on the complete
     * graph ({@code -lncheck final}). By default TLC also checks the graph built so far at its first
     * progress report (a few seconds in) and every minute after; for a model that passes, that
     * check is repeated in full at the end, so it is waste: causal-live-crash spent 10 s of its 99
     * (wall, load 7) in a periodic check of 408 of its 512 states, and took 33.2 s of user CPU with
     * final-only against 38.5 s without (load 7 to 14). The counts and the verdict do not change
     * (the search is the same). Not for mutants, whose violation a periodic check can find long
     * before the search ends, nor for deep models, where a broken spec should fail early.
     */
    static boolean finalLivenessCheckOnly(Repo repo, ModelEntry m) {
        if (m.mode() != ModelEntry.Mode.CI || !m.expectsPass()) {
            return false;
        }
        try {
            return !CfgFile.read(repo.specs().resolve(m.cfg())).properties().isEmpty();
        } catch (RuntimeException e) {
            return false; // the run itself reports a broken cfg
        }
    }

    /**
     * How long a model is expected to take, in units of a safety model's distinct state, only to
     * estimate the seconds of a model never timed ({@link #expectedSeconds}). Liveness checking costs
     * several times more per state (TLC builds the behaviour graph and searches it for fair cycles).
     * A rough guess, and far off for the causal liveness models (causal-live-crash, 512 states, is
     * the slowest ci model): hence the recorded seconds come first.
     */
    public static double cost(Repo repo, ModelEntry m) {
        boolean liveness;
        try {
            liveness = !CfgFile.read(repo.specs().resolve(m.cfg())).properties().isEmpty();
        } catch (RuntimeException e) {
            liveness = false; // the run itself reports a broken cfg
        }
        return m.distinctStates() * (liveness ? LIVENESS_FACTOR : 1.0);
    }

    static final double LIVENESS_FACTOR = 4.0;

    /** Seconds per unit of {@link #cost} when no model has recorded seconds. */
    private static final double DEFAULT_RATE = 1e-4;
    /** A TLC run's start and parse, added to an estimate. */
    private static final double START_SECONDS = 1.5;

    /**
     * How long each model is expected to take, in seconds: its recorded {@code seconds} (written by
     * {@code ./onceproof models time}), else an estimate from {@link #cost} at the rate of the timed
     * models. What the schedulers order by (longest first) and the shards balance on. Ordering by
     * {@link #cost} alone started causal-live-crash (512 states, the longest ci model at 30 s) 91st of
     * 162, with 81 s of recorded work after it for two cores, where a late long model can end the
     * models' phase alone on one core.
     */
    public static ToDoubleFunction<ModelEntry> expectedSeconds(Repo repo, Manifest manifest) {
        double secs = 0;
        double cost = 0;
        for (ModelEntry m : manifest.models()) {
            if (m.seconds() != null) {
                secs += Math.max(0, m.seconds() - START_SECONDS);
                cost += cost(repo, m);
            }
        }
        double rate = cost > 0 && secs > 0 ? secs / cost : DEFAULT_RATE;
        return m -> m.seconds() != null ? m.seconds() : START_SECONDS + rate * cost(repo, m);
    }

    /**
     * The cfgs of the models small enough to start TLC with only the client compiler (see
     * TlcJvm.withSmallModels): fewer than {@link #SMALL_STATES} distinct states by the manifest,
     * liveness models included (see {@link #SMALL_STATES} for why they are no longer left out). It
     * changes no result, only CPU time. Under {@code ./onceproof} and the ci-models execution
     * (ONCEPROOF_TLC_FORK=auto) these runs also go in-process.
     */
    public static List<Path> smallModelCfgs(Repo repo, List<ModelEntry> models) {
        List<Path> out = new ArrayList<>();
        for (ModelEntry m : models) {
            if (m.distinctStates() < SMALL_STATES) {
                out.add(repo.specs().resolve(m.cfg()));
            }
        }
        return out;
    }

    /**
     * Where C2 starts to pay for its compiling, measured as TLC's user+sys CPU seconds with both
     * compilers against C1 only (two runs each, one TLC at a time, load 14-20 on the shared 2-core
     * machine): exactlyonce-s4-safety (41,507 states) 10.3/14.3 against 8.1/8.3; exactlyonce-s3-safety
     * (58,894) 15.5/16.9 against 15.2/12.6; rpc-safety (70,034) 17.6/18.9 against 15.3/14.9;
     * adaptive-inductive (80,640) 9.7/9.7 against 4.6/5.3; but exactlyonce-s5-safety (174,795) 33.4
     * against 39.7.
     *
     * <p>Liveness models were left out until stop 29: then C1 halved exactlyonce-s5-liveness (15.9/14.2
     * against 8.6/7.3) but doubled causal-live-crash (39.8/32.8 against 68.6/70.5), whose time is in
     * the liveness graph, not in the states the manifest counts. The causal liveness models have
     * since moved to WeakFairSpec (a much smaller tableau), and measured again side by side they
     * gain: {@code ./onceproof verify --models-only --family F}, the build that forks them with C2
     * against the one that runs them in-process with C1, alternating old-new-new-old on the shared
     * 2-core machine (load 15-28, 2026-11-27), user+sys CPU of the whole command: causal 85.9 s
     * against 42.2 s (2.0x; wall 239 s against 133 s), rpc 32.6 against 25.0 (1.3x), scmp 24.9
     * against 26.9 and adaptive 22.3 against 21.4 (the same within the noise: few liveness models).
     * Same verdicts, states and depths throughout.
     */
    static final long SMALL_STATES = 100_000;

    /** @return one sentence per disagreement; empty when TLC found what the manifest says */
    public static List<String> problems(ModelEntry m, TlcResult r) {
        List<String> out = new ArrayList<>();
        String found = r.verdict();
        if (!found.equals(m.expect())) {
            boolean checked = r.outcome() == Outcome.PASS || r.outcome().isViolation();
            String msg = "manifest says " + m.expect() + ", TLC found " + (checked ? found : r.summary());
            if (!m.expectsPass() && r.outcome() == Outcome.PASS) {
                msg += ": the mutant is not refuted, so the check it stands for would not catch the bug";
            } else if (checked) {
                msg += ": update the manifest if the spec change was intended";
            }
            out.add(msg);
            return out;
        }
        if (r.outcome() == Outcome.TEMPORAL_PROPERTY_VIOLATED) {
            // TLC looks for a liveness violation in the part of the graph built so far, at moments
            // set by the clock, so the states it has when it finds one vary from run to run with
            // one worker too (seen: 312 and 264 for one causal mutant on one idle machine). The
            // outcome is what such a model shows; its counts are not compared.
            return out;
        }
        if (m.simulated()) {
            return simulationProblems(m, r);
        }
        if (r.distinctStates() != m.distinctStates()) {
            out.add("manifest says " + m.distinctStates() + " distinct states, TLC found " + r.distinctStates()
                    + ": update the manifest if the spec change was intended");
        }
        if (r.depth() != m.depth()) {
            out.add("manifest says depth " + m.depth() + ", TLC found " + r.depth()
                    + ": update the manifest if the spec change was intended");
        }
        return out;
    }

    /**
     * A seeded simulation with one worker draws the same behaviours on every run, so what it found is
     * compared as a model's counts are: for a pass, the states TLC checked (all its behaviours'); for
     * a violation, the length of the behaviour it reports. Not the states checked when it stopped at a
     * violation: TLC 2.18 reads that count while its worker is still running (two runs of one seeded
     * mutant said 651,319 and 651,292).
     */
    private static List<String> simulationProblems(ModelEntry m, TlcResult r) {
        List<String> out = new ArrayList<>();
        if (r.outcome() == Outcome.PASS) {
            if (r.statesGenerated() != m.distinctStates()) {
                out.add("manifest says the simulation checks " + m.distinctStates() + " states, TLC checked "
                        + r.statesGenerated() + ": update the manifest if the spec change was intended");
            }
            return out;
        }
        int length = r.counterexample().size() - 1;
        if (length != m.depth()) {
            out.add("manifest says the simulation's violating behaviour has " + m.depth() + " steps, TLC's has "
                    + length + ": update the manifest if the spec change was intended");
        }
        return out;
    }
}
