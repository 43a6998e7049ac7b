package dev.onceproof.scmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.sim.SimNetwork;
import dev.onceproof.steplog.StepLog;
import dev.onceproof.storage.InMemoryStableStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A deterministic simulation of one SCMP server, its clients and a network that loses, duplicates,
 * reorders and delays (paper 2.1), driven by a list of {@link Step}s. After every acceptance it
 * checks the spec's NoDuplicateAccepted and NoOutOfOrderAccept against the history of every accepted
 * message, across crashes; for the non-resilient scheme (Fig. 2-1 does not survive crashes) the
 * history starts again at each crash.
 *
 * <p>With {@link #logSteps} the world writes a step log of SCMP.tla's actions (the format of
 * {@link ConcurrentScmpFilter}'s, with the world's own steps: Tick, ClockJump, Send, Crash), one line
 * right after each step, from the inputs and the core's state after it; the world runs one step at a
 * time, so that is the step's linearization point. Conformance validates it against
 * specs/scmp/TraceScmp.tla (ScmpWorldValidationTest).
 */
final class ScmpWorld {

    record Message(ConnId conn, long ts) {
    }

    final RecoveryScheme scheme;
    final ManualInstantSource clock;
    final InMemoryStableStorage storage = new InMemoryStableStorage();
    final ScmpServer server;
    final List<ConnId> conns = new ArrayList<>();
    final Map<ConnId, TimestampSource> sources = new HashMap<>();
    final Map<ConnId, Long> skew = new HashMap<>();
    /** The shared simulated network: no partitions (one server), and any delay (no lifetime bound). */
    final SimNetwork<Message> net = SimNetwork.plain();
    /** conn -> last accepted timestamp, across crashes (within one epoch for non-resilient). */
    final Map<ConnId, Long> lastAccepted = new LinkedHashMap<>();
    final List<String> log = new ArrayList<>();
    long now;
    boolean up = true;
    int accepted;
    private StepLog steps = StepLog.OFF;

    /** Builds the server under test: the real core, or a broken one to show the checks can fail. */
    interface ServerFactory {
        ScmpServer make(ScmpConfig config, ManualInstantSource clock, InMemoryStableStorage storage);
    }

    ScmpWorld(ScmpConfig config, long start, long[] skews) {
        this(config, start, skews, ScmpServer::new);
    }

    ScmpWorld(ScmpConfig config, long start, long[] skews, ServerFactory factory) {
        this.scheme = config.scheme();
        this.now = start;
        this.clock = new ManualInstantSource(start);
        this.server = factory.make(config, clock, storage);
        for (int i = 0; i < skews.length; i++) {
            ConnId c = ConnId.of("c" + (i + 1));
            conns.add(c);
            // SCMP.tla's Init: as if the client had sent just before its clock read its first value.
            sources.put(c, new TimestampSource(start + skews[i] - 1));
            skew.put(c, skews[i]);
        }
    }

    void run(List<Step> steps) {
        for (Step step : steps) {
            apply(step);
        }
    }

    /** Logs this world's steps from now on, starting with the server's Init at the current clock. */
    ScmpWorld logSteps(StepLog log) {
        this.steps = log;
        line("Init").field("clock", clock.millis()).end();
        return this;
    }

    private StepLog line(String action) {
        return steps.step(action);
    }

    void apply(Step step) {
        log.add(step + " at clock " + clock.millis());
        if (step instanceof Step.Tick t) {
            now += t.millis();
            clock.advance(t.millis());
            if (steps.on()) {
                line("Tick").field("now", now).field("clock", clock.millis()).end();
            }
        } else if (step instanceof Step.ClockJump j) {
            // The monotonic scheme's safety assumes a monotonic clock (2.2, "If the server's clock is
            // known to be monotonic"); SCMP.tla's MonotonicMeansNoJump. So it gets no jumps.
            if (scheme != RecoveryScheme.MONOTONIC) {
                clock.advance(j.millis());
                if (steps.on()) {
                    line("ClockJump").field("clock", clock.millis()).end();
                }
            }
        } else if (step instanceof Step.Send s) {
            ConnId c = conns.get(s.conn() % conns.size());
            Message m = new Message(c, sources.get(c).next(now + skew.get(c)).value());
            net.send(m, now);
            if (steps.on()) {
                line("Send").field("conn", c.value()).field("ts", m.ts()).end();
            }
        } else if (step instanceof Step.Deliver d) {
            if (up && !net.isEmpty()) {
                Message m = net.take(d.message(), d.keep()).orElseThrow();
                Verdict v = server.receive(m.conn(), Timestamp.of(m.ts()));
                if (steps.on()) {
                    StepLog l = line("Receive").field("conn", m.conn().value()).field("ts", m.ts())
                            .field("verdict", v.specName());
                    if (v == Verdict.ACCEPTED) {
                        l.field("ct", m.conn().value(), m.ts());
                    }
                    l.field("clock", clock.millis()).end();
                }
                log.add("  " + m + " -> " + v);
                if (v == Verdict.ACCEPTED) {
                    record(m);
                }
            }
        } else if (step instanceof Step.Lose l) {
            net.lose(l.message());
        } else if (step instanceof Step.CollectOne g) {
            if (up) {
                ScmpState before = server.state();
                server.collectGarbage(conns.get(g.conn() % conns.size()));
                logCollections(before);
            }
        } else if (step instanceof Step.CollectAll) {
            if (up) {
                ScmpState before = server.state();
                server.collectGarbage();
                logCollections(before);
            }
        } else if (step instanceof Step.WriteLatest) {
            if (up && scheme == RecoveryScheme.RESILIENT) {
                long stable = server.state().stableLatest();
                server.writeLatest();
                ScmpState after = server.state();
                if (steps.on() && after.stableLatest() != stable) {
                    line("WriteLatest").field("clock", clock.millis()).field("latest", after.latest())
                            .field("stableLatest", after.stableLatest()).end();
                }
            }
        } else if (step instanceof Step.Crash) {
            if (up) {
                server.crash();
                up = false;
                if (steps.on()) {
                    line("Crash").end();
                }
                if (scheme == RecoveryScheme.NON_RESILIENT) {
                    lastAccepted.clear();
                }
            }
        } else if (step instanceof Step.Recover) {
            if (!up) {
                server.recover();
                up = true;
                if (steps.on()) {
                    ScmpState after = server.state();
                    StepLog l = line("Recover").field("clock", clock.millis());
                    if (scheme == RecoveryScheme.RESILIENT) {
                        l.longs("upper", after.upper()).field("latest", after.latest())
                                .field("stableLatest", after.stableLatest());
                    } else if (scheme == RecoveryScheme.MONOTONIC) {
                        l.field("refuseUntil", after.refuseUntil()).field("recovering", after.recovering());
                    }
                    l.end();
                }
            }
        } else if (step instanceof Step.FinishRecovery) {
            if (up && server.inRecovery() && clock.millis() >= server.refuseUntil()) {
                server.finishRecovery();
                if (steps.on()) {
                    line("FinishRecovery").field("clock", clock.millis()).longs("upper", server.state().upper())
                            .field("recovering", false).end();
                }
            }
        }
        checkStateInvariants();
    }

    /**
     * One CollectGarbage line per entry a collection removed (SCMP.tla collects one connection per
     * step); a class's upper after the last of its removals, which is where the collection left it.
     */
    private void logCollections(ScmpState before) {
        if (!steps.on()) {
            return;
        }
        ScmpState after = server.state();
        List<ConnId> removed = conns.stream().filter(c -> before.ct().containsKey(c.value())
                && !after.ct().containsKey(c.value())).toList();
        for (int i = 0; i < removed.size(); i++) {
            ConnId c = removed.get(i);
            String k = server.config().classifier().apply(c);
            boolean lastOfClass = removed.subList(i + 1, removed.size()).stream()
                    .noneMatch(d -> server.config().classifier().apply(d).equals(k));
            StepLog l = line("CollectGarbage").field("conn", c.value()).field("clock", clock.millis());
            if (lastOfClass) {
                l.field("upper", k, after.upper().get(k));
            }
            l.end();
        }
    }

    private void record(Message m) {
        accepted++;
        Long previous = lastAccepted.get(m.conn());
        assertThat(previous == null || previous < m.ts())
                .as("%s accepted after %s on that connection (NoDuplicateAccepted, NoOutOfOrderAccept)\n%s",
                        m, previous, String.join("\n", log))
                .isTrue();
        lastAccepted.put(m.conn(), m.ts());
        if (scheme == RecoveryScheme.RESILIENT) {
            // SCMP.tla AcceptedBelowStable: plan item 1 of 2.2.
            assertThat(m.ts()).as("accepted above stable latest").isLessThanOrEqualTo(storage.read().getAsLong());
        }
    }

    private void checkStateInvariants() {
        ScmpState s = server.state();
        if (scheme == RecoveryScheme.RESILIENT) {
            assertThat(s.latest()).as("LatestBelowStable").isLessThanOrEqualTo(s.stableLatest());
            assertThat(storage.read()).hasValue(s.stableLatest());
        }
        if (!s.up()) {
            assertThat(s.ct()).as("a crashed server has no table").isEmpty();
        }
    }
}
