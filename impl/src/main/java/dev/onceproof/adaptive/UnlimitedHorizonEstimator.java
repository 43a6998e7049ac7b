package dev.onceproof.adaptive;

import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.Verdict;

/**
 * The unlimited horizon algorithm (Chaudhuri, Coan and Welch 1995, Fig. 2): the lines marked with an
 * asterisk, added to the standard-form skeleton (Fig. 1) that ScmpServer implements.
 *
 * <p>Garbage collection may happen at any time as long as consecutive collections are at most G
 * apart (Section 3.2); the caller's timer decides, so this class has no schedule of its own.
 * With H = 0 and delta = 0 it meets Condition 2 (Theorem 4: the estimate ends below 2X in a
 * (t, X)-bounded execution) and Condition 3 (Theorem 6: lost/accepted tends to 0). The price is the
 * history: p grows by one per decrease, so the longer the run, the more accepted messages a decrease
 * needs ("the more reluctant the server is to reduce its estimate", Section 1).
 *
 * <p>Read literally, as here: the second branch's guard is {@code ltime-est > maxltime > 0}, not
 * "the rounded maxltime is below ltime-est". So a collection whose largest lifetime is, say, 50
 * while the estimate is 64 takes the branch, sets ltime-est to 2^6 = 64 again, and still subtracts
 * p * numrej, resets numrej and increments p. In a steady workload p then grows by about one per
 * collection period, and after a later burst of summary-rejections a real decrease needs p times
 * as many accepted messages: the dependence on history Section 1 describes, amplified. Theorems 4
 * and 6 do not depend on which reading is taken; the harness (bench adaptive) measures the effect.
 *
 * <p>ltimes: Fig. 2 keeps the multiset of this period's lifetimes but reads only its maximum; the
 * paper's footnote (dagger) says an efficient implementation keeps just that maximum, which is what
 * {@code maxInPeriod} is: max(ltimes U {0}), reset at every collection exactly where Fig. 2 empties
 * ltimes.
 *
 * <p>Verdicts outside the paper's model (TOO_EARLY, RECOVERING of the resilient and monotonic
 * schemes) still put their lifetime into ltimes, as the figure's first line does for every received
 * message, but count as neither accepted nor summary-rejected.
 *
 * <p>Not thread-safe, like every core part (the caller serializes calls).
 */
public final class UnlimitedHorizonEstimator implements LifetimeEstimator {

    /** ltime-est: a power of two, at least 1, initially 1 (Fig. 2 state variables). */
    private long ltimeEst = 1;
    /** p: initially 1, incremented at every decrease; the p-th decrease needs numacc > p * numrej. */
    private long p = 1;
    /** numacc: accepted messages since the last decrease, minus p * numrej at each decrease. */
    private long numacc;
    /** numrej: summary-rejected messages since the last decrease. */
    private long numrej;
    /** maxltime as computed at the last collection (Fig. 2 keeps it as a state variable). */
    private long maxltime;
    /** max(ltimes U {0}) for the current garbage-collection period; >= 0. */
    private long maxInPeriod;

    @Override
    public void onMessage(long lifetime, Verdict verdict, boolean summaryRejected) {
        // ltimes := ltimes U {clock - stamp}, for every received message whatever its fate.
        maxInPeriod = Math.max(maxInPeriod, lifetime);
        if (verdict == Verdict.ACCEPTED) {
            numacc++;
        } else if (summaryRejected) {
            // "if (CT[i] = nil) and (stamp <= upper) then numrej := numrej + 1"
            numrej++;
        }
    }

    @Override
    public long beginGarbageCollection() {
        maxltime = maxInPeriod; // the largest element in (ltimes U {0})
        if (maxltime > ltimeEst) {
            ltimeEst = PowerOfTwo.ceil(maxltime);
        } else if (numacc > Math.multiplyExact(p, numrej) && ltimeEst > maxltime && maxltime > 0) {
            ltimeEst = PowerOfTwo.ceil(maxltime);
            numacc -= p * numrej;
            numrej = 0;
            p++;
        }
        maxInPeriod = 0; // ltimes := empty set
        return ltimeEst;
    }

    @Override
    public long current() {
        return ltimeEst;
    }

    /** The figure's variables, for tests, the harness and diagnostics. */
    public State state() {
        return new State(ltimeEst, p, numacc, numrej, maxltime, maxInPeriod);
    }

    /**
     * Fig. 2's state variables; {@code periodMax} is max(ltimes U {0}) so far in this period.
     */
    public record State(long ltimeEst, long p, long numacc, long numrej, long maxltime,
            long periodMax) {
    }

    @Override
    public String toString() {
        return "unlimited-horizon " + state();
    }
}
