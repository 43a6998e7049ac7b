package dev.onceproof.bench.causal;

import java.util.PriorityQueue;
import org.apache.commons.rng.JumpableUniformRandomProvider;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;

/**
 * The "systematic acknowledgments" the paper's conclusion compares with, which it never defines
 * (notes 2.9, Z27). Two baselines, with the same workload, latency model, loss and RTO as RER; both
 * only make delivery reliable (their cost does not depend on the order enforced):
 * <ul>
 *   <li><b>ACK-each</b>: the receiver acknowledges every data copy it receives; the origin sends the
 *   event again every RTO until an acknowledgement arrives.</li>
 *   <li><b>ACK-cumulative</b> (TCP-like with selective acks): per (origin, receiver) stream, the
 *   receiver sends its contiguous prefix and a bitmap of what it holds above it, at most once per
 *   {@code ackDelay} after new data arrived (delayed ack); the origin sends an event again when RTO
 *   has passed since its last transmission and no acknowledgement covers it.</li>
 * </ul>
 * These are the alternatives, not onceproof protocols, so their logic lives here. Streams are
 * independent given the latencies, so each is simulated on its own. {@code dataBytes} is the size of
 * one data datagram, the same as RER's (measured on the real encoder).
 */
final class AckBaselines {

    /**
     * Totals over all (event, receiver) pairs.
     *
     * @param firstData  first transmissions of data
     * @param retransmit data sent again
     * @param acks       acknowledgement messages
     */
    record Cost(String name, long pairs, long firstData, long retransmit, long acks, long dataBytes,
            long retransmitBytes, long ackBytes) {

        long controlMessages() {
            return retransmit + acks;
        }

        long controlBytes() {
            return retransmitBytes + ackBytes;
        }
    }

    private AckBaselines() {
    }

    /** ACK-each over {@code events} events broadcast to n - 1 receivers each. */
    static Cost ackEach(int nodes, int events, LatencyModel model, double loss, double rto, int dataBytes,
            JumpableUniformRandomProvider base) {
        ContinuousSampler lat = model.sampler(base.jump());
        UniformRandomProvider lossRng = base.jump();
        long pairs = (long) events * (nodes - 1);
        long sends = 0;
        long acks = 0;
        for (long p = 0; p < pairs; p++) {
            double firstAck = Double.POSITIVE_INFINITY;
            for (int j = 0; j * rto < firstAck; j++) {
                sends++;
                if (lossRng.nextDouble() < loss) {
                    continue;
                }
                double arrival = j * rto + lat.sample();
                acks++; // every copy received is acknowledged
                if (lossRng.nextDouble() >= loss) {
                    firstAck = Math.min(firstAck, arrival + lat.sample());
                }
            }
        }
        long data = dataBytes;
        return new Cost("ACK-each", pairs, pairs, sends - pairs, acks, pairs * data, (sends - pairs) * data,
                acks * WireSize.ack());
    }

    /**
     * ACK-cumulative: {@code events} events issued round robin at global rate {@code rate}; each
     * (origin, receiver) stream carries that origin's events (one every n / rate).
     */
    static Cost ackCumulative(int nodes, int events, double rate, LatencyModel model, double loss, double rto,
            double ackDelay, int dataBytes, JumpableUniformRandomProvider base) {
        ContinuousSampler lat = model.sampler(base.jump());
        UniformRandomProvider lossRng = base.jump();
        long sends = 0;
        long acks = 0;
        long ackBytes = 0;
        long pairs = 0;
        for (int origin = 0; origin < nodes; origin++) {
            int count = (events - origin + nodes - 1) / nodes;
            if (count <= 0) {
                continue;
            }
            for (int receiver = 1; receiver < nodes; receiver++) {
                Stream s = new Stream(count, nodes / rate, origin / rate, rto, ackDelay, loss, lat, lossRng);
                s.run();
                pairs += count;
                sends += s.sends;
                acks += s.acks;
                ackBytes += s.ackBytes;
            }
        }
        long data = dataBytes;
        return new Cost("ACK-cumulative", pairs, pairs, sends - pairs, acks, pairs * data, (sends - pairs) * data,
                ackBytes);
    }

    /** One (origin, receiver) stream of the cumulative-ack baseline, as a small event simulation. */
    private static final class Stream {
        private record Ev(double time, long order, int kind, int seq, int prefix, long[] sack) {
        }

        private static final int SEND = 0;
        private static final int ARRIVE = 1;
        private static final int ACK_TIMER = 2;
        private static final int ACK_ARRIVE = 3;

        private final int count;
        private final double gap;
        private final double offset;
        private final double rto;
        private final double ackDelay;
        private final double loss;
        private final ContinuousSampler lat;
        private final UniformRandomProvider lossRng;
        private final PriorityQueue<Ev> q = new PriorityQueue<>((a, b) -> a.time != b.time
                ? Double.compare(a.time, b.time) : Long.compare(a.order, b.order));
        private long order;
        // receiver
        private final boolean[] got;
        private int prefix;
        private boolean ackPending;
        // origin
        private final boolean[] acked;
        private final double[] lastSent;
        long sends;
        long acks;
        long ackBytes;

        Stream(int count, double gap, double offset, double rto, double ackDelay, double loss, ContinuousSampler lat,
                UniformRandomProvider lossRng) {
            this.count = count;
            this.gap = gap;
            this.offset = offset;
            this.rto = rto;
            this.ackDelay = ackDelay;
            this.loss = loss;
            this.lat = lat;
            this.lossRng = lossRng;
            this.got = new boolean[count];
            this.acked = new boolean[count];
            this.lastSent = new double[count];
        }

        void run() {
            for (int s = 0; s < count; s++) {
                push(offset + s * gap, SEND, s, 0, null);
            }
            while (!q.isEmpty()) {
                Ev e = q.poll();
                switch (e.kind) {
                    case SEND -> send(e.time, e.seq);
                    case ARRIVE -> arrive(e.time, e.seq);
                    case ACK_TIMER -> ackNow(e.time);
                    default -> ackArrive(e.time, e.prefix, e.sack);
                }
            }
        }

        private void push(double t, int kind, int seq, int pre, long[] sack) {
            q.add(new Ev(t, order++, kind, seq, pre, sack));
        }

        private void send(double t, int seq) {
            if (acked[seq]) {
                return;
            }
            sends++;
            lastSent[seq] = t;
            if (lossRng.nextDouble() >= loss) {
                push(t + lat.sample(), ARRIVE, seq, 0, null);
            }
            push(t + rto, SEND, seq, 0, null); // retransmission check; a no-op once acked
        }

        private void arrive(double t, int seq) {
            got[seq] = true;
            while (prefix < count && got[prefix]) {
                prefix++;
            }
            if (!ackPending) {
                ackPending = true;
                push(t + ackDelay, ACK_TIMER, 0, 0, null);
            }
        }

        private void ackNow(double t) {
            ackPending = false;
            int top = prefix;
            for (int s = prefix; s < count; s++) {
                if (got[s]) {
                    top = s + 1;
                }
            }
            long[] sack = new long[Math.max(0, (top - prefix + 63) / 64)];
            for (int s = prefix; s < top; s++) {
                if (got[s]) {
                    sack[(s - prefix) / 64] |= 1L << ((s - prefix) % 64);
                }
            }
            acks++;
            ackBytes += WireSize.cumulativeAck(top - prefix);
            if (lossRng.nextDouble() >= loss) {
                push(t + lat.sample(), ACK_ARRIVE, 0, prefix, sack);
            }
        }

        private void ackArrive(double t, int pre, long[] sack) {
            for (int s = 0; s < pre; s++) {
                acked[s] = true;
            }
            for (int i = 0; i < sack.length * 64 && pre + i < count; i++) {
                if ((sack[i / 64] >>> (i % 64) & 1) != 0) {
                    acked[pre + i] = true;
                }
            }
        }
    }
}
