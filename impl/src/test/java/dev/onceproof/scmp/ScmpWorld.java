package dev.onceproof.scmp;

import static org.assertj.core.api.Assertions.assertThat;

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
    final List<Message> net = new ArrayList<>();
    /** conn -> last accepted timestamp, across crashes (within one epoch for non-resilient). */
    final Map<ConnId, Long> lastAccepted = new LinkedHashMap<>();
    final List<String> log = new ArrayList<>();
    long now;
    boolean up = true;
    int accepted;

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
            sources.put(c, new TimestampSource());
            skew.put(c, skews[i]);
        }
    }

    void run(List<Step> steps) {
        for (Step step : steps) {
            apply(step);
        }
    }

    void apply(Step step) {
        log.add(step + " at clock " + clock.millis());
        if (step instanceof Step.Tick t) {
            now += t.millis();
            clock.advance(t.millis());
        } else if (step instanceof Step.ClockJump j) {
            // The monotonic scheme's safety assumes a monotonic clock (2.2, "If the server's clock is
            // known to be monotonic"); SCMP.tla's MonotonicMeansNoJump. So it gets no jumps.
            if (scheme != RecoveryScheme.MONOTONIC) {
                clock.advance(j.millis());
            }
        } else if (step instanceof Step.Send s) {
            ConnId c = conns.get(s.conn() % conns.size());
            net.add(new Message(c, sources.get(c).next(now + skew.get(c)).value()));
        } else if (step instanceof Step.Deliver d) {
            if (up && !net.isEmpty()) {
                int i = d.message() % net.size();
                Message m = net.get(i);
                if (!d.keep()) {
                    net.remove(i);
                }
                Verdict v = server.receive(m.conn(), Timestamp.of(m.ts()));
                log.add("  " + m + " -> " + v);
                if (v == Verdict.ACCEPTED) {
                    record(m);
                }
            }
        } else if (step instanceof Step.Lose l) {
            if (!net.isEmpty()) {
                net.remove(l.message() % net.size());
            }
        } else if (step instanceof Step.CollectOne g) {
            if (up) {
                server.collectGarbage(conns.get(g.conn() % conns.size()));
            }
        } else if (step instanceof Step.CollectAll) {
            if (up) {
                server.collectGarbage();
            }
        } else if (step instanceof Step.WriteLatest) {
            if (up && scheme == RecoveryScheme.RESILIENT) {
                server.writeLatest();
            }
        } else if (step instanceof Step.Crash) {
            if (up) {
                server.crash();
                up = false;
                if (scheme == RecoveryScheme.NON_RESILIENT) {
                    lastAccepted.clear();
                }
            }
        } else if (step instanceof Step.Recover) {
            if (!up) {
                server.recover();
                up = true;
            }
        } else if (step instanceof Step.FinishRecovery) {
            if (up && server.inRecovery() && clock.millis() >= server.refuseUntil()) {
                server.finishRecovery();
            }
        }
        checkStateInvariants();
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
