package dev.onceproof.bench.causal;

import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.Count;
import dev.onceproof.causal.Counters;
import java.util.Arrays;

/**
 * What one {@link GroupSim} run recorded. Rows are events (in workload order), columns nodes, as in
 * Algorithm 1's matrices; NaN where something never happened. A "pair" is an (event, remote node)
 * cell: the unit costs and rates are given per pair, i.e. per event delivered at a node other than
 * its origin.
 */
final class SimRun {

    enum Kind { DATA, REQUEST, RESEND, HEARTBEAT }

    final SimSpec spec;
    final int events;
    final int n;
    final double[] issue;
    final int[] origin;
    final double[][] reception;
    final double[][] delivery;
    final double[][] dataArrival;
    final double[][] firstRequest;
    final double[][] firstResend;
    final boolean[][] dataLost;
    final long[] sent = new long[Kind.values().length];
    final long[] bytes = new long[Kind.values().length];
    /**
     * Heartbeats sent after the last issue (counted in {@link #sent} as well: they are what recovers
     * a lost last event, so RER pays for them; issue 18).
     */
    long idleHeartbeats;
    long lostMessages;
    long duplicates;
    long deliveredTwice;
    long refusals;
    final java.util.Map<String, Long> refusalsByReason = new java.util.TreeMap<>();

    SimRun(SimSpec spec, int events) {
        this.spec = spec;
        this.events = events;
        this.n = spec.nodes();
        issue = new double[events];
        origin = new int[events];
        reception = nan(events, n);
        delivery = nan(events, n);
        dataArrival = nan(events, n);
        firstRequest = nan(events, n);
        firstResend = nan(events, n);
        dataLost = new boolean[events][n];
    }

    private static double[][] nan(int rows, int cols) {
        double[][] a = new double[rows][cols];
        for (double[] row : a) {
            Arrays.fill(row, Double.NaN);
        }
        return a;
    }

    void issued(int g, int o, double t) {
        issue[g] = t;
        origin[g] = o;
        reception[g][o] = t;
    }

    void dataArrived(int g, int to, double t) {
        first(dataArrival, g, to, t);
        first(reception, g, to, t);
    }

    void resendArrived(int g, int to, double t) {
        first(firstResend, g, to, t);
        first(reception, g, to, t);
    }

    void requested(int g, int from, double t) {
        first(firstRequest, g, from, t);
    }

    void delivered(int g, int at, double t) {
        if (!Double.isNaN(delivery[g][at])) {
            deliveredTwice++; // the core promises once; the simulator counts what it sees
        }
        first(delivery, g, at, t);
    }

    void dataLost(int g, int to) {
        dataLost[g][to] = true;
    }

    static Kind kind(CausalMessage m) {
        return m instanceof CausalMessage.Data ? Kind.DATA : m instanceof CausalMessage.Request ? Kind.REQUEST
                : m instanceof CausalMessage.Resend ? Kind.RESEND : Kind.HEARTBEAT;
    }

    void sent(CausalMessage m, int size, boolean lost, double t) {
        Kind k = kind(m);
        if (k == Kind.HEARTBEAT && t > spec.workload().last()) {
            idleHeartbeats++;
        }
        sent[k.ordinal()]++;
        bytes[k.ordinal()] += size;
        if (lost) {
            lostMessages++;
        }
    }

    void addCounters(Counters c) {
        duplicates += c.get(Count.DUPLICATE);
        refusals += c.refusedTotal();
        c.refusals().forEach((why, k) -> refusalsByReason.merge(why.name(), k, Long::sum));
    }

    private static void first(double[][] a, int g, int k, double t) {
        if (Double.isNaN(a[g][k])) {
            a[g][k] = t;
        }
    }

    boolean remote(int g, int k) {
        return origin[g] != k;
    }

    /** Pairs whose event was requested at the node although its data copy was not lost and came first. */
    boolean blue(int g, int k) {
        return !Double.isNaN(firstRequest[g][k]) && !dataLost[g][k] && !Double.isNaN(dataArrival[g][k])
                && (Double.isNaN(firstResend[g][k]) || dataArrival[g][k] < firstResend[g][k]);
    }

    /** Pairs recovered by a resend before a data copy that was not lost (a latency gain, Fig. 1 red). */
    boolean red(int g, int k) {
        return !Double.isNaN(firstRequest[g][k]) && !dataLost[g][k] && !Double.isNaN(firstResend[g][k])
                && (Double.isNaN(dataArrival[g][k]) || firstResend[g][k] < dataArrival[g][k]);
    }

    boolean requested(int g, int k) {
        return !Double.isNaN(firstRequest[g][k]);
    }

    long count(Kind k) {
        return sent[k.ordinal()];
    }

    long bytes(Kind k) {
        return bytes[k.ordinal()];
    }
}
