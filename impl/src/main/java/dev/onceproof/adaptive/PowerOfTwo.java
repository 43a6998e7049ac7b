package dev.onceproof.adaptive;

/**
 * The rounding both adaptive figures use: {@code ltime-est := 2^j, where j = min{k : 2^k >= maxltime}}
 * (Chaudhuri, Coan and Welch, Figs. 2 and 3). Estimates are powers of two "in order to reduce the
 * number of step increases needed" (Section 3.2): each increase at least doubles the estimate, which
 * is what bounds the number of sub-intervals by ceil(log X) + 1 in Lemma 5.
 */
public final class PowerOfTwo {

    /** 2^62, the largest power of two a long holds. */
    public static final long MAX = 1L << 62;

    private PowerOfTwo() {
    }

    /**
     * The smallest power of two at least {@code x}. The figures call this only with
     * {@code maxltime > 0} (an increase needs maxltime > ltime-est >= 1; a decrease needs
     * maxltime > 0), so j >= 0 and the result is at least 1.
     */
    public static long ceil(long x) {
        if (x < 1) {
            throw new IllegalArgumentException("lifetime " + x
                    + " is below 1; the figures round only positive maxltime (Assumption 5)");
        }
        if (x > MAX) {
            throw new IllegalArgumentException("lifetime " + x + " is above 2^62, the largest"
                    + " power-of-two estimate a long holds");
        }
        return x == 1 ? 1 : Long.highestOneBit(x - 1) << 1;
    }

    /** True when {@code x} is 2^k for some k >= 0: the type of ltime-est in Figs. 2 and 3. */
    public static boolean is(long x) {
        return x >= 1 && Long.bitCount(x) == 1;
    }
}
