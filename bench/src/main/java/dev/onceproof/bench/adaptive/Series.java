package dev.onceproof.bench.adaptive;

import java.util.ArrayList;
import java.util.List;

/** What one run measured, sampled over time, plus its totals. */
public final class Series {

    /** One sample: server time, estimate, connection-table size, accepted and lost so far. */
    public record Sample(long t, long estimate, int table, long accepted, long lost) {
    }

    private final String contender;
    private final List<Sample> samples = new ArrayList<>();

    public Series(String contender) {
        this.contender = contender;
    }

    public void sample(Driver d) {
        samples.add(new Sample(d.now(), d.estimate(), d.tableSize(), d.accepted(), d.lost()));
    }

    public String contender() {
        return contender;
    }

    public List<Sample> samples() {
        return samples;
    }

    /** The largest estimate sampled at or after time {@code from}. */
    public long maxEstimateFrom(long from) {
        return samples.stream().filter(s -> s.t() >= from).mapToLong(Sample::estimate).max().orElse(-1);
    }

    /** The first sampled time from which every later sample's estimate is below {@code bound}. */
    public long convergedAt(long bound) {
        long at = -1;
        for (Sample s : samples) {
            if (s.estimate() >= bound) {
                at = -1;
            } else if (at < 0) {
                at = s.t();
            }
        }
        return at;
    }

    /** Lost over accepted between the samples nearest to the two times (interval L/A). */
    public double lossRatioBetween(long from, long to) {
        Sample a = at(from);
        Sample b = at(to);
        long acc = b.accepted() - a.accepted();
        return acc == 0 ? Double.NaN : (double) (b.lost() - a.lost()) / acc;
    }

    /** The last sample at or before time t (the first sample if none). */
    public Sample at(long t) {
        Sample best = samples.get(0);
        for (Sample s : samples) {
            if (s.t() <= t) {
                best = s;
            }
        }
        return best;
    }

    public double meanTable() {
        return samples.stream().mapToInt(Sample::table).average().orElse(0);
    }
}
