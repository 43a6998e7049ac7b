package dev.onceproof.adaptive;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.LifetimeEstimator;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.ScmpServer;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import dev.onceproof.storage.InMemoryStableStorage;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Two rho classes (end of Liskov et al. 2.4), each with its own Fig. 3 estimator, each collected on
 * its own schedule with {@code ScmpServer.collectGarbage(String)}: a class's pass runs exactly at its
 * S-th message, and the other class's estimator, entries and upper are not touched by it.
 */
class PerClassGarbageCollectionTest {

    private final LimitedHorizonEstimator local = new LimitedHorizonEstimator(2, 0, 1);
    private final LimitedHorizonEstimator remote = new LimitedHorizonEstimator(3, 0, 1);
    private final ManualInstantSource clock = new ManualInstantSource(100);
    private final ScmpServer server = server();

    @Test
    void eachClassUpdatesItsEstimateExactlyAtItsOwnSthMessage() {
        // local: lifetimes 3 and 2 -> its 2nd message makes it due; remote has 1 of 3.
        receive("l1", 97);
        receive("r1", 80);
        receive("l2", 98);
        assertThat(local.current()).isEqualTo(4);             // ceil(3) after S = 2 messages
        assertThat(remote.current()).isEqualTo(1);            // not asked
        assertThat(remote.state().ltimes()).containsExactly(20L);
        // local's pass left remote's entry and upper alone (a shared pass would have collected r1).
        assertThat(server.state().ct()).containsKey("r1");
        assertThat(server.state().upper()).containsEntry("remote", 0L);

        receive("r2", 85);
        receive("r3", 90);
        assertThat(remote.current()).isEqualTo(32);           // ceil(20) after its S = 3 messages
        assertThat(local.current()).isEqualTo(4);
        assertThat(local.state().ltimes()).isEmpty();
        assertThat(server.state().ct()).containsKeys("l1", "l2"); // 97, 98 > 100 - 4: kept
    }

    @Test
    void unknownClassIsRefusedWithoutStateChange() {
        receive("l1", 97);
        var before = server.state();
        assertThatThrownBy(() -> server.collectGarbage("nearby"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("rho class \"nearby\" is not one of [local, remote]");
        assertThat(server.state()).isEqualTo(before);
        assertThat(local.state().ltimes()).containsExactly(3L);
    }

    private void receive(String conn, long ts) {
        assertThat(server.receive(ConnId.of(conn), Timestamp.of(ts))).isEqualTo(Verdict.ACCEPTED);
        if (local.garbageCollectionDue()) {
            server.collectGarbage("local");
        }
        if (remote.garbageCollectionDue()) {
            server.collectGarbage("remote");
        }
    }

    private ScmpServer server() {
        Map<String, LifetimeEstimator> classes = new LinkedHashMap<>();
        classes.put("local", local);
        classes.put("remote", remote);
        return new ScmpServer(new ScmpConfig(RecoveryScheme.NON_RESILIENT, 0, 0, classes,
                c -> c.value().startsWith("l") ? "local" : "remote"), clock, new InMemoryStableStorage());
    }
}
