package dev.onceproof.adaptive;

import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.Verdict;
import java.util.Objects;

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
 * <p>Two readings of the second branch ({@link Reading}). Printed, its guard is {@code ltime-est >
 * maxltime > 0}, so a collection whose largest lifetime is, say, 50 while the estimate is 64 takes
 * the branch, sets ltime-est to 2^6 = 64 again, and still subtracts p * numrej, resets numrej and
 * increments p ({@link Reading#LITERAL}). The proof of Theorem 6 counts intervals that end when the
 * estimate decreases ("At this time, numrej and numacc are reset and p is incremented"), so the
 * default, {@link Reading#DECREASE}, takes the branch only when the rounded maxltime is below the
 * estimate. Both are standard-form algorithms (specs/adaptive/AdaptiveUnlimited.tla, constant
 * Reading, checks both); under the literal one p grows by about one per collection period of a
 * steady workload, so after a later burst of summary-rejections a real decrease needs p times as
 * many accepted messages. The harness (bench adaptive) reports both.
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

    /** Which reading of Fig. 2's second branch; the spec's constant Reading. */
    public enum Reading {
        /** The proof of Theorem 6: only a collection that lowers the estimate resets and bumps p. */
        DECREASE("decrease"),
        /** The figure as printed: any collection with ltime-est > maxltime > 0 does. */
        LITERAL("literal");

        private final String specName;

        Reading(String specName) {
            this.specName = specName;
        }

        public String specName() {
            return specName;
        }

        /** The reading the spec's constant names; an unknown name is an error naming it. */
        public static Reading ofSpecName(String name) {
            for (Reading r : values()) {
                if (r.specName.equals(name)) {
                    return r;
                }
            }
            throw new IllegalArgumentException("Fig. 2 reading \"" + name + "\" is neither \"decrease\" nor \"literal\"");
        }
    }

    private final Reading reading;

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

    /** The default reading, {@link Reading#DECREASE} (the proof of Theorem 6). */
    public UnlimitedHorizonEstimator() {
        this(Reading.DECREASE);
    }

    public UnlimitedHorizonEstimator(Reading reading) {
        this.reading = Objects.requireNonNull(reading, "reading");
    }

    public Reading reading() {
        return reading;
    }

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
        } else if (numacc > Math.multiplyExact(p, numrej) && ltimeEst > maxltime && maxltime > 0
                && (reading == Reading.LITERAL || PowerOfTwo.ceil(maxltime) < ltimeEst)) {
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
        return "unlimited-horizon(" + reading.specName() + ") " + state();
    }
}
