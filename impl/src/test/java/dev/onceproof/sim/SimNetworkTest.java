package dev.onceproof.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SimNetworkTest {

    /** A message "a>b:k": from a to b, named k. */
    private static SimNetwork.Ends ends(String m) {
        return new SimNetwork.Ends(m.substring(0, 1), m.substring(2, 3));
    }

    @Test
    void indicesWrapSoAnyDrawIsAChoiceAndACopyStaysWhereItWas() {
        SimNetwork<String> net = SimNetwork.plain();
        net.send("x", 0);
        net.send("y", 0);
        net.send("z", 0);
        assertThat(net.take(4, true)).contains("y");
        assertThat(net.messages()).containsExactly("x", "y", "z");
        assertThat(net.take(-1, false)).contains("z");
        net.duplicate(0);
        assertThat(net.messages()).containsExactly("x", "y", "x");
        net.lose(7);
        assertThat(net.messages()).containsExactly("x", "x");
        assertThat(net.takeFirst(m -> m.equals("x"))).contains("x");
        assertThat(net.messages()).containsExactly("x");
    }

    @Test
    void nothingInFlightIsNoDeliveryAndNoLoss() {
        SimNetwork<String> net = SimNetwork.plain();
        assertThat(net.take(3, false)).isEmpty();
        net.lose(3);
        net.duplicate(3);
        assertThat(net.isEmpty()).isTrue();
        assertThatThrownBy(() -> net.peek(0)).hasMessageContaining("no message in flight");
    }

    /**
     * The boundary as the timed specs' Tick draws it ({@code now - sent < Te} stays): age
     * lifetime - 1 is still deliverable, age lifetime is gone. The comparison before stop 32
     * ({@code now - born > lifetime}) kept "old" at age 5 and fails the second assertion.
     */
    @Test
    void aMessageLivesFewerThanTheLifetimeGoneAtAgeLifetime() {
        SimNetwork<String> net = new SimNetwork<>(5, null);
        net.send("old", 0);
        net.send("young", 3);
        net.expire(4);
        assertThat(net.messages()).as("age 4 = lifetime - 1: deliverable").containsExactly("old", "young");
        assertThat(net.take(0, false)).contains("old");
        assertThat(net.oldestTaken()).isEqualTo(4);
        net.send("old", 0);
        net.expire(5);
        assertThat(net.messages()).as("age 5 = lifetime: gone").containsExactly("young");
        net.expire(7);
        assertThat(net.messages()).as("young at age 4 stays").containsExactly("young");
        net.expire(8);
        assertThat(net.messages()).isEmpty();
    }

    @Test
    void lifetimeOneLeavesNothingAliveAcrossATick() {
        SimNetwork<String> net = new SimNetwork<>(1, null);
        net.send("m", 3);
        net.expire(3);
        assertThat(net.messages()).containsExactly("m");
        net.expire(4);
        assertThat(net.messages()).isEmpty();
    }

    @Test
    void aCutDropsWhatCrossesItUntilHealedAndAnIsolatedNodeStaysCut() {
        SimNetwork<String> net = new SimNetwork<>(SimNetwork.FOREVER, SimNetworkTest::ends);
        net.cut("B", "A");
        net.send("A>B:1", 0);
        net.send("B>C:2", 0);
        net.send("A>B:3", 0);
        assertThat(net.take(0, true)).as("a copy left behind a cut is not delivered either").isEmpty();
        assertThat(net.take(0, false)).isEmpty();
        assertThat(net.take(0, false)).contains("B>C:2");
        net.heal();
        assertThat(net.take(0, false)).contains("A>B:3");
        net.isolate("C");
        net.heal();
        net.send("B>C:4", 0);
        assertThat(net.take(0, false)).isEmpty();
        assertThat(net.isCut("A", "B")).isFalse();
    }

    @Test
    void aNetworkWithoutEndsRefusesPartitions() {
        SimNetwork<String> net = SimNetwork.plain();
        assertThatThrownBy(() -> net.cut("A", "B")).hasMessageContaining("no partitions");
    }
}
