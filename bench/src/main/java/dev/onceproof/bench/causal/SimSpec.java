package dev.onceproof.bench.causal;

import dev.onceproof.causal.Mode;
import dev.onceproof.causal.Recovery;
import java.util.Objects;

/**
 * One simulated group: n real {@code CausalNode}s over a network with the given latency model and
 * independent loss, running a workload. Times are model time units (1/lambda is the mean latency).
 *
 * @param nodes        group size n
 * @param mode         the order every node enforces
 * @param latency      one-way latency of every message on every link (paper 4.6)
 * @param loss         probability that a message (data, request, resend, heartbeat) is lost, in [0, 1)
 * @param w            RER wait before a request (paper 5.1); infinite turns recovery off
 * @param rto          wait for a requested copy before asking the next holder (Eq. 13)
 * @param heartbeat    idle interval after which a node sends its delivered prefix; 0 = off (the paper)
 * @param payloadBytes application bytes per event
 * @param workload     who issues when
 * @param drain        time after the last issue during which the run goes on (recovery, heartbeats)
 * @param seed         every random draw derives from it
 * @param recovery     LIVE (retry every RTO through every holder, the implemented protocol) or FAITHFUL
 *                     (the paper's single retry)
 */
record SimSpec(int nodes, Mode mode, LatencyModel latency, double loss, double w, double rto, double heartbeat,
        int payloadBytes, Workload workload, double drain, long seed, Recovery recovery) {

    /** The implemented protocol's recovery (LIVE). */
    SimSpec(int nodes, Mode mode, LatencyModel latency, double loss, double w, double rto, double heartbeat,
            int payloadBytes, Workload workload, double drain, long seed) {
        this(nodes, mode, latency, loss, w, rto, heartbeat, payloadBytes, workload, drain, seed, Recovery.LIVE);
    }

    SimSpec {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(latency, "latency");
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(recovery, "recovery");
        Params.require("nodes", nodes, nodes >= 2, "must be >= 2");
        Params.require("loss", loss, loss >= 0 && loss < 1, "must be in [0, 1)");
        Params.require("w", w, w >= 0, "must be >= 0 (infinite turns recovery off)");
        Params.require("rto", rto, rto > 0 && Double.isFinite(rto), "must be finite and > 0");
        Params.require("heartbeat", heartbeat, heartbeat >= 0 && Double.isFinite(heartbeat), "must be finite and >= 0");
        Params.require("payloadBytes", payloadBytes, payloadBytes >= 0, "must be >= 0");
        Params.require("drain", drain, drain >= 0 && Double.isFinite(drain), "must be finite and >= 0");
        for (int o : workload.origins()) {
            Params.require("workload origin", o, o >= 0 && o < nodes, "must be a node index below " + nodes);
        }
    }

    /**
     * Who issues when: the i-th event is issued by {@code origins[i]} at {@code times[i]} (ascending).
     */
    record Workload(double[] times, int[] origins) {
        Workload {
            Params.require("workload length", origins.length, times.length == origins.length,
                    "must equal the number of times " + times.length);
            for (int i = 1; i < times.length; i++) {
                Params.require("workload time " + i, times[i], times[i] >= times[i - 1], "must not go back");
            }
        }

        /**
         * The workload of Eqs. 7 and 8: events evenly spaced at global rate r, issued round robin
         * (notes Z8), the i-th at i / r by node i mod n.
         */
        static Workload roundRobin(int nodes, double rate, int events) {
            Params.require("rate", rate, rate > 0 && Double.isFinite(rate), "must be finite and > 0");
            Params.require("events", events, events >= 1, "must be >= 1");
            double[] t = new double[events];
            int[] o = new int[events];
            for (int i = 0; i < events; i++) {
                t[i] = i / rate;
                o[i] = i % nodes;
            }
            return new Workload(t, o);
        }

        int size() {
            return times.length;
        }

        double last() {
            return times.length == 0 ? 0 : times[times.length - 1];
        }
    }
}
