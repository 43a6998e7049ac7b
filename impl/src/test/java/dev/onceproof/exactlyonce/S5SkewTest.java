package dev.onceproof.exactlyonce;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Strategy 5's freshness window allows for clock skew (footnote 3, L219-225; notes M5-d): a sync is
 * fresh only if its send stamp is after {@code now - (T_r - 2ε - T_e)} on the receiver's clock. The
 * schedule is Example 5 case (ii) with the clocks at the edges of ε = 1: A runs one tick ahead,
 * B and the client one tick behind. A syncs (stamp 101 on A's clock, D_A without n1), then delivers
 * n1 at true time 100; the client's connection ends at 99 on its clock, it waits T_r = 6 on that
 * clock and connects to B at true time 106, when B reads 105.
 * <ul>
 *   <li>the real core: the window is 6 - 2 - 1 = 3, A's stamp 101 is not after 105 - 3, so A is
 *       stale, B pulls D_A and delivers nothing;</li>
 *   <li>the control ({@link GatherConfig#withSkewLeftOutOfFreshness()}, the 2ε left out): the window
 *       is 5, 101 is after 105 - 5, A's sync reads as fresh, B skips the pull and delivers n1 a
 *       second time.</li>
 * </ul>
 * A deployment that declares ε = 0 while its clocks drift cannot hit the same duplicate: a stale
 * sync reads as fresh only if the sender's clock is more than T_e ahead of the receiver's, and
 * then the sync arrives (within T_e) stamped later than the receiver's clock, which the core
 * refuses as a future stamp, naming the field.
 */
class S5SkewTest {

    /** Offsets: A +1, B -1, client -1. */
    private static final long[] EDGES = {1, -1, -1};

    static GatherWorld world() {
        return new GatherWorld(Strategy.S5, GatherWorld.Primitive.ATOMIC, EDGES, ClientHistory.unknown());
    }

    /** Up to A's sync reaching B: n1 created, the client at A in delivery, A's sync in flight. */
    private static GatherWorld upToTheSync(GatherWorld world) {
        world.create(0);
        assertThat(world.connect(0)).as("the fresh client connects to A").isTrue();
        world.session();   // gather: B is stale (never synced), so A asks it
        world.drain();
        world.session();   // the gather ends: delivery
        assertThat(world.connectedPhase()).isEqualTo(GatherServer.Phase.DELIVER);
        world.sync(0, 1);  // A's periodic sync, D_A without n1, stamped 101
        return world;
    }

    /** Also logged and validated against ExactlyOnceS5Msg by conformance's GatherTimedWorldValidationTest. */
    static GatherWorld exampleFiveWithSync(GatherWorld world) {
        upToTheSync(world).drain();
        world.session();   // aDeliver(n1) at A
        world.reportOutcomes();
        world.disconnect();
        assertThat(world.connectWhenAllowed(1)).as("the client reaches B after T_r").isTrue();
        for (int k = 0; k < 6; k++) {
            world.session();
            world.drain();
            world.reportOutcomes();
        }
        assertThat(world.processed).as("the client processed n1").containsKey("n1");
        return world;
    }

    @Test
    void theWindowAllowingForSkewMakesBPullFromA() {
        GatherWorld world = exampleFiveWithSync(world());
        assertThat(world.duplicates()).isEmpty();
        assertThat(world.reattempts).isEmpty();
    }

    @Test
    void skewLeftOutOfTheWindowDeliversTwice() {
        GatherWorld world = exampleFiveWithSync(world().withSkewLeftOutOfFreshness());
        assertThat(world.duplicates()).containsExactly("n1 x2");
    }

    @Test
    void aDeploymentDeclaringNoSkewRefusesTheSyncAsAFutureStamp() {
        GatherWorld world = upToTheSync(world().declaringSkew(0));
        assertThatThrownBy(world::drain).isInstanceOf(InvalidMessageException.class)
                .hasMessageContaining("ts").hasMessageContaining("later than this server's clock");
    }
}
