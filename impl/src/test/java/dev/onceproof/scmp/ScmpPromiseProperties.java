package dev.onceproof.scmp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.storage.InMemoryStableStorage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;

/**
 * The paper's promise, the other half of correctness: which messages SCMP accepts (SCMP.tla
 * PromiseNoCrash and PromiseAfterCrash). Safety alone would be met by a server that rejects
 * everything.
 */
class ScmpPromiseProperties {

    /**
     * 2.2: "Since G.upper <= G.time - rho and since rho is large enough that the client message is
     * highly likely to arrive within that interval, we rule out ... the chance of incorrectly
     * flagging a message as a duplicate". With no crash, clients within epsilon (2.1) and a delay
     * below rho - epsilon (2.4: rho >= epsilon + delta), every new message is accepted, in every
     * scheme, whatever garbage collection does meanwhile. Beta >= epsilon and a latest written
     * every tick keep the resilient server from calling it too early (2.2: beta "would be based on
     * the clock skew epsilon ... and the frequency of writing").
     */
    @Property(tries = 300)
    void timelyNewMessageIsAcceptedWithoutCrash(@ForAll RecoveryScheme scheme,
                                                @ForAll @IntRange(min = 0, max = 10) int epsilon,
                                                @ForAll @IntRange(min = 0, max = 20) int betaOverEpsilon,
                                                @ForAll @IntRange(min = 2, max = 40) int rho1OverEpsilon,
                                                @ForAll @IntRange(min = 2, max = 40) int rho2OverEpsilon,
                                                @ForAll @Size(min = 1, max = 4) List<@IntRange(min = -50, max = 50) Integer> skewSeeds,
                                                @ForAll long seed) {
        long[] rho = {epsilon + rho1OverEpsilon, epsilon + rho2OverEpsilon};
        ScmpConfig config = new ScmpConfig(scheme, epsilon + betaOverEpsilon, epsilon,
                Map.of("k1", new FixedRho(rho[0]), "k2", new FixedRho(rho[1])),
                c -> c.value().equals("c1") ? "k1" : "k2");
        ManualInstantSource clock = new ManualInstantSource(1000);
        ScmpServer server = new ScmpServer(config, clock, new InMemoryStableStorage());
        Random random = new Random(seed);
        List<ConnId> conns = new ArrayList<>();
        Map<ConnId, Long> skew = new HashMap<>();
        Map<ConnId, TimestampSource> sources = new HashMap<>();
        Map<ConnId, long[]> outstanding = new HashMap<>();   // conn -> {ts, deliverAt}
        for (int i = 0; i < skewSeeds.size(); i++) {
            ConnId c = ConnId.of("c" + (i + 1));
            conns.add(c);
            skew.put(c, (long) (skewSeeds.get(i) % (epsilon + 1)));   // |skew| <= epsilon
            sources.put(c, new TimestampSource());
        }
        int delivered = 0;
        for (long now = 1000; now < 1400; now++) {
            clock.set(now);
            if (scheme == RecoveryScheme.RESILIENT) {
                server.writeLatest();
            }
            for (ConnId c : conns) {
                long[] m = outstanding.get(c);
                if (m != null && now >= m[1]) {
                    assertThat(server.receive(c, Timestamp.of(m[0])))
                            .as("(%s, %d) sent with skew %d, received at %d", c, m[0], skew.get(c), now)
                            .isEqualTo(Verdict.ACCEPTED);
                    outstanding.remove(c);
                    delivered++;
                }
                if (!outstanding.containsKey(c) && random.nextInt(3) == 0) {
                    long classRho = rho[c.value().equals("c1") ? 0 : 1];
                    long delay = 1 + random.nextInt((int) (classRho - epsilon - 1));   // < rho - epsilon
                    outstanding.put(c, new long[] {sources.get(c).next(now + skew.get(c)).value(), now + delay});
                }
            }
            int gc = random.nextInt(6);
            if (gc == 0) {
                server.collectGarbage();
            } else if (gc == 1) {
                server.collectGarbage(conns.get(random.nextInt(conns.size())));
            }
        }
        Statistics.label("delivered").collect(delivered >= 50 ? "50+" : "<50");
    }

    /**
     * 2.4: "even in the worst case we will accept all messages sent after t_cr + beta" (resilient
     * scheme; t_cr is the server clock at the crash). Whatever happened before the crash, after
     * recovery every new message with a timestamp above t_cr + beta that is not too early is
     * accepted.
     */
    @Property(tries = 300)
    void messagesSentAfterCrashPlusBetaAreAccepted(@ForAll @IntRange(min = 0, max = 30) int beta,
                                                   @ForAll @IntRange(min = 1, max = 50) int rho,
                                                   @ForAll @IntRange(min = 0, max = 300) int beforeCrash,
                                                   @ForAll @IntRange(min = 0, max = 300) int downtime,
                                                   @ForAll long seed) {
        ManualInstantSource clock = new ManualInstantSource(1000);
        InMemoryStableStorage storage = new InMemoryStableStorage();
        ScmpServer server = new ScmpServer(ScmpConfig.singleClass(RecoveryScheme.RESILIENT, beta, 0, rho),
                clock, storage);
        Random random = new Random(seed);
        List<ConnId> conns = List.of(ConnId.of("c1"), ConnId.of("c2"), ConnId.of("c3"));
        long now = 1000;
        for (int step = 0; step < beforeCrash; step++) {
            switch (random.nextInt(4)) {
                case 0 -> clock.set(++now);
                case 1 -> server.writeLatest();
                case 2 -> server.collectGarbage();
                default -> server.receive(conns.get(random.nextInt(3)),
                        Timestamp.of(now - 2 * rho + random.nextInt(2 * rho + beta + 5)));
            }
        }
        long crashClock = clock.millis();
        server.crash();
        clock.set(crashClock + downtime);
        server.recover();
        long latest = server.state().latest();
        Map<ConnId, Long> next = new HashMap<>();
        conns.forEach(c -> next.put(c, crashClock + beta + 1 + random.nextInt(3)));
        for (int i = 0; i < 30; i++) {
            ConnId c = conns.get(random.nextInt(3));
            long ts = next.get(c);
            if (ts > latest) {
                continue;
            }
            assertThat(server.receive(c, Timestamp.of(ts)))
                    .as("(%s, %d) after a crash at %d with beta %d", c, ts, crashClock, beta)
                    .isEqualTo(Verdict.ACCEPTED);
            next.put(c, ts + 1 + random.nextInt(5));
        }
    }

    /**
     * 2.2, monotonic alternative: after refusing for epsilon the server "sets G.upper to G.time and
     * begins normal processing"; every new message above that clock and not too early is accepted.
     */
    @Property(tries = 200)
    void monotonicServerAcceptsEverythingAboveTheRecoveryClock(@ForAll @IntRange(min = 0, max = 20) int epsilon,
                                                               @ForAll @LongRange(min = 0, max = 100) long extraWait,
                                                               @ForAll long seed) {
        ManualInstantSource clock = new ManualInstantSource(1000);
        ScmpServer server = new ScmpServer(ScmpConfig.singleClass(RecoveryScheme.MONOTONIC, 0, epsilon, 30),
                clock, new InMemoryStableStorage());
        Random random = new Random(seed);
        ConnId c1 = ConnId.of("c1");
        for (int i = 0; i < 20; i++) {
            server.receive(c1, Timestamp.of(990 + random.nextInt(15 + epsilon)));
        }
        server.crash();
        server.recover();
        clock.set(1000 + epsilon + extraWait);
        server.finishRecovery();
        long finished = clock.millis();
        for (long ts = finished + 1; ts <= finished + epsilon; ts += 1 + random.nextInt(3)) {
            assertThat(server.receive(c1, Timestamp.of(ts))).isEqualTo(Verdict.ACCEPTED);
        }
    }
}
