package dev.onceproof.bench.causal;

import dev.onceproof.causal.CausalConfig;
import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.CausalNode;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Outcome;
import dev.onceproof.causal.Outgoing;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.Step;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.commons.rng.JumpableUniformRandomProvider;
import org.apache.commons.rng.UniformRandomProvider;
import org.apache.commons.rng.sampling.distribution.ContinuousSampler;
import org.apache.commons.rng.simple.RandomSource;

/**
 * A discrete-event simulation of one group of real {@link CausalNode}s (the core trace replay
 * validates; no protocol logic here): it issues the workload's events, carries every datagram a
 * step returns over a lossy network with latencies from the model, fires each node's timers at its
 * {@code nextDeadline}, and records when each event reached and was delivered at each node.
 *
 * <p>Random streams (Commons RNG, XoShiRo256++, jumped apart, 2^128 draws each): one for latencies,
 * one for losses.
 */
final class GroupSim {

    /** Simulated time resolution: ticks per model time unit (the core counts time in ticks). */
    static final long TICKS = 1_000_000;

    private final SimSpec spec;
    private final int n;
    private final EventQueue clock = new EventQueue();
    private final CausalNode[] nodes;
    private final long[] pendingPoll;
    private final int[] sizes = new int[SimRun.Kind.values().length];
    private final ContinuousSampler latency;
    private final UniformRandomProvider lossRng;
    private final Payload payload;
    private final Map<EventId, Integer> index = new HashMap<>();
    private final SimRun run;

    /** Makes the node under test; production runs use the real {@link CausalNode} as it is. */
    @FunctionalInterface
    interface NodeFactory {
        CausalNode create(CausalConfig config, dev.onceproof.causal.Ticker ticker);
    }

    static final NodeFactory REAL = CausalNode::new;

    private GroupSim(SimSpec spec, JumpableUniformRandomProvider base, NodeFactory factory) {
        this.spec = spec;
        this.n = spec.nodes();
        this.latency = spec.latency().sampler(base.jump());
        this.lossRng = base.jump();
        this.payload = Payload.of(new byte[spec.payloadBytes()]);
        this.nodes = new CausalNode[n];
        this.pendingPoll = new long[n];
        Arrays.fill(pendingPoll, Long.MAX_VALUE);
        long w = Double.isInfinite(spec.w()) ? Long.MAX_VALUE / 4 : ticks(spec.w());
        for (int k = 0; k < n; k++) {
            CausalConfig cfg = CausalConfig.of(n, NodeId.of(k), spec.mode(), w, Math.max(1, ticks(spec.rto())),
                    ticks(spec.heartbeat())).withRecovery(spec.recovery());
            nodes[k] = factory.create(cfg, clock);
        }
        this.run = new SimRun(spec, spec.workload().size());
    }

    /** Runs the whole workload and the drain; the result holds every time and count. */
    static SimRun run(SimSpec spec) {
        return run(spec, streams(spec.seed()), REAL);
    }

    /** A run on nodes from {@code factory}: how the tests show that a broken core fails the checks. */
    static SimRun run(SimSpec spec, NodeFactory factory) {
        return run(spec, streams(spec.seed()), factory);
    }

    /** The seeded generator whose jumps give every run its streams. */
    static JumpableUniformRandomProvider streams(long seed) {
        return (JumpableUniformRandomProvider) RandomSource.XO_SHI_RO_256_PP.create(seed);
    }

    /**
     * Runs with streams jumped off {@code base} (two jumps: latencies, losses), so that many short runs
     * take disjoint parts of one seeded sequence; {@code spec.seed()} is not used.
     */
    static SimRun run(SimSpec spec, JumpableUniformRandomProvider base, NodeFactory factory) {
        GroupSim sim = new GroupSim(spec, base, factory);
        SimSpec.Workload wl = spec.workload();
        for (int i = 0; i < wl.size(); i++) {
            int g = i;
            sim.clock.at(ticks(wl.times()[i]), () -> sim.issue(g, wl.origins()[g]));
        }
        sim.clock.runUntil(ticks(wl.last() + spec.drain()));
        for (CausalNode node : sim.nodes) {
            sim.run.addCounters(node.counters());
        }
        return sim.run;
    }

    static long ticks(double t) {
        return Math.round(t * TICKS);
    }

    private double now() {
        return (double) clock.read() / TICKS;
    }

    private void issue(int g, int origin) {
        Step s = nodes[origin].broadcast(payload);
        if (s.outcome() != Outcome.ACCEPTED) {
            throw new IllegalStateException("node " + origin + " refused to broadcast event " + g + ": " + s.detail());
        }
        index.put(s.delivered().get(0).id(), g);
        run.issued(g, origin, now());
        apply(origin, s);
    }

    private void arrive(int to, CausalMessage m) {
        double t = now();
        if (m instanceof CausalMessage.Data d) {
            run.dataArrived(index.get(d.event().id()), to, t);
        } else if (m instanceof CausalMessage.Resend r) {
            run.resendArrived(index.get(r.event().id()), to, t);
        }
        apply(to, nodes[to].handle(m));
    }

    private void poll(int k, long at) {
        if (pendingPoll[k] != at) {
            return; // superseded by an earlier deadline that was scheduled later
        }
        pendingPoll[k] = Long.MAX_VALUE;
        apply(k, nodes[k].poll());
    }

    /** The encoded size; constant per message kind within a run (same n, mode, payload), so measured once. */
    private int size(CausalMessage m) {
        int kind = SimRun.kind(m).ordinal();
        if (sizes[kind] == 0) {
            sizes[kind] = WireSize.of(m);
        }
        return sizes[kind];
    }

    private void apply(int k, Step s) {
        double t = now();
        for (Event e : s.delivered()) {
            run.delivered(index.get(e.id()), k, t);
        }
        for (Outgoing o : s.sends()) {
            CausalMessage m = o.message();
            int to = o.to().index();
            if (m instanceof CausalMessage.Request q) {
                run.requested(index.get(q.id()), k, t);
            }
            boolean lost = spec.loss() > 0 && lossRng.nextDouble() < spec.loss();
            run.sent(m, size(m), lost, t);
            if (lost) {
                if (m instanceof CausalMessage.Data d) {
                    run.dataLost(index.get(d.event().id()), to);
                }
                continue;
            }
            clock.at(clock.read() + Math.max(1, ticks(latency.sample())), () -> arrive(to, m));
        }
        OptionalLong next = nodes[k].nextDeadline();
        if (next.isPresent() && next.getAsLong() < pendingPoll[k]) {
            long at = Math.max(next.getAsLong(), clock.read());
            pendingPoll[k] = at;
            clock.at(at, () -> poll(k, at));
        }
    }
}
