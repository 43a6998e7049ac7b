package dev.onceproof.adaptive;

import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.Verdict;
import java.util.Arrays;

/**
 * The limited horizon algorithm (Chaudhuri, Coan and Welch 1995, Fig. 3): the asterisked lines added
 * to the standard-form skeleton (Fig. 1) that ScmpServer implements.
 *
 * <p>Garbage collection happens exactly when ltimes holds S lifetimes, that is after every S-th
 * received message (Section 3.3). The caller asks {@link #garbageCollectionDue()} after each message
 * and collects at once when it is true; recording a message into a full ltimes is a broken contract
 * and throws. The estimate follows the (H+1)-st largest lifetime of the period, so up to H transient
 * spikes in every S messages are ignored, and p is fixed, so the reaction speed does not depend on
 * how long the system has run. In a (t, X, S, H)-bounded execution the estimate ends below 2X
 * (Theorem 8) and lost/accepted tends to at most 1/p (Theorem 10).
 *
 * <p>Verdicts outside the paper's model (TOO_EARLY, RECOVERING of the resilient and monotonic
 * schemes) still put their lifetime into ltimes, as the figure's first line does for every received
 * message, but count as neither accepted nor summary-rejected.
 *
 * <p>Parameters are refused unless S > H >= 0, p >= 1 and delta = 1/p >= H/(S-H) (Assumption 3,
 * written p * H <= S - H: "p: initially some predetermined value at most (S-H)/H", Fig. 3; the
 * extracted figure reads "(S H)/H", the minus sign is lost).
 */
public final class LimitedHorizonEstimator implements LifetimeEstimator {

    private final int s;
    private final int h;
    /** p: fixed for the whole run (Fig. 3), so delta = 1/p. */
    private final long p;

    /** ltime-est: a power of two, at least 1, initially 1. */
    private long ltimeEst = 1;
    /** numacc: accepted messages, minus (p * numrej + 1) at each decrease; never negative. */
    private long numacc;
    /** numrej: summary-rejected messages since the last decrease. */
    private long numrej;
    /** maxltime: the (H+1)-st largest lifetime of the last full period. */
    private long maxltime;
    /** ltimes: this period's lifetimes, {@code count} of them in slots 0..count-1; count <= S. */
    private final long[] ltimes;
    private int count;

    public LimitedHorizonEstimator(int s, int h, long p) {
        if (h < 0) {
            throw new IllegalArgumentException("H " + h + " is negative; H counts the messages per"
                    + " S allowed above the bound X ((t, X, S, H)-bounded, Section 2)");
        }
        if (s <= h) {
            throw new IllegalArgumentException("S " + s + " is not above H " + h
                    + "; the (H+1)-st largest of S lifetimes needs S > H (Fig. 3)");
        }
        if (p < 1) {
            throw new IllegalArgumentException("p " + p + " is below 1; delta = 1/p needs a positive"
                    + " integer p (Section 3.3)");
        }
        // p * H <= S - H, written with a division so a huge p cannot overflow.
        if (h > 0 && p > (s - h) / h) {
            throw new IllegalArgumentException("delta = 1/" + p + " is below H/(S-H) = " + h + "/"
                    + (s - h) + "; Assumption 3 needs delta >= H/(S-H), i.e. p <= (S-H)/H (Fig. 3)");
        }
        this.s = s;
        this.h = h;
        this.p = p;
        this.ltimes = new long[s];
    }

    @Override
    public void onMessage(long lifetime, Verdict verdict, boolean summaryRejected) {
        if (count == s) {
            throw new IllegalStateException("ltimes already holds S = " + s + " lifetimes;"
                    + " Fig. 3 collects garbage when ltimes has exactly S entries, before the next"
                    + " message");
        }
        ltimes[count++] = lifetime; // ltimes := ltimes U {clock - stamp}
        if (verdict == Verdict.ACCEPTED) {
            numacc++;
        } else if (summaryRejected) {
            numrej++; // "if (CT[i] = nil) and (stamp <= upper) then numrej := numrej + 1"
        }
    }

    /** True exactly when the S-th message of the period has been recorded: collect now. */
    public boolean garbageCollectionDue() {
        return count == s;
    }

    /** Messages still to arrive before the next collection is due (0 when due). */
    public int messagesUntilCollection() {
        return s - count;
    }

    @Override
    public long beginGarbageCollection() {
        if (count != s) {
            throw new IllegalStateException("ltimes holds " + count + " lifetimes, not S = " + s
                    + "; Fig. 3 collects garbage only when ltimes has exactly S entries");
        }
        long[] sorted = Arrays.copyOf(ltimes, s);
        Arrays.sort(sorted);
        maxltime = sorted[s - 1 - h]; // the (H+1)-st largest element in ltimes
        count = 0; // ltimes := empty set
        if (maxltime > ltimeEst) {
            ltimeEst = PowerOfTwo.ceil(maxltime);
        } else if (numacc > Math.multiplyExact(p, numrej) && ltimeEst > maxltime && maxltime > 0) {
            ltimeEst = PowerOfTwo.ceil(maxltime);
            // The "- 1" builds a reserve of accepted messages against later surges of
            // summary-rejections (Section 3.3); it is what makes a_j = p * r_j + 1 in Theorem 10.
            numacc = numacc - p * numrej - 1;
            numrej = 0;
        }
        return ltimeEst;
    }

    @Override
    public long current() {
        return ltimeEst;
    }

    public int s() {
        return s;
    }

    public int h() {
        return h;
    }

    public long p() {
        return p;
    }

    /** Fig. 3's state variables; {@code ltimes} is a copy of this period's lifetimes so far. */
    public State state() {
        return new State(ltimeEst, p, numacc, numrej, maxltime, Arrays.copyOf(ltimes, count));
    }

    public record State(long ltimeEst, long p, long numacc, long numrej, long maxltime,
            long[] ltimes) {
        @Override
        public String toString() {
            return "State[ltimeEst=" + ltimeEst + ", p=" + p + ", numacc=" + numacc + ", numrej="
                    + numrej + ", maxltime=" + maxltime + ", ltimes=" + Arrays.toString(ltimes) + "]";
        }
    }

    @Override
    public String toString() {
        return "limited-horizon(S=" + s + ", H=" + h + ", p=" + p + ") " + state();
    }
}
