package dev.onceproof.adaptive;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.scmp.ConnId;
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

/** Two rho classes, each with its own limited horizon estimator (end of Liskov et al. 2.4). */
class SharedPassAdapterTest {

    @Test
    void eachClassUpdatesItsEstimateExactlyEverySOfItsOwnMessages() {
        SharedPassAdapter local = new SharedPassAdapter(new LimitedHorizonEstimator(2, 0, 1));
        SharedPassAdapter remote = new SharedPassAdapter(new LimitedHorizonEstimator(3, 0, 1));
        Map<String, dev.onceproof.scmp.LifetimeEstimator> classes = new LinkedHashMap<>();
        classes.put("local", local);
        classes.put("remote", remote);
        ManualInstantSource clock = new ManualInstantSource(100);
        ScmpServer server = new ScmpServer(new ScmpConfig(RecoveryScheme.NON_RESILIENT, 0, 0, classes,
                c -> c.value().startsWith("l") ? "local" : "remote"), clock, new InMemoryStableStorage());

        // local: lifetimes 3 and 2 -> its 2nd message makes it due; remote has 1 of 3.
        receive(server, "l1", 97, local, remote);
        receive(server, "r1", 80, local, remote);
        receive(server, "l2", 98, local, remote);
        assertThat(local.current()).isEqualTo(4);          // ceil(3) after S = 2 messages
        assertThat(remote.current()).isEqualTo(1);         // asked out of turn: unchanged
        assertThat(remote.outOfTurnPasses()).isEqualTo(1);
        assertThat(remote.delegate().state().ltimes()).containsExactly(20L); // its period goes on

        // The out-of-turn pass collected r1 with remote's estimate 1: upper(remote) = 80.
        assertThat(server.state().upper()).containsEntry("remote", 80L);
        receive(server, "r2", 85, local, remote);
        receive(server, "r3", 90, local, remote);
        assertThat(remote.current()).isEqualTo(32);        // ceil(20) after its S = 3 messages
        assertThat(local.current()).isEqualTo(4);
        assertThat(local.outOfTurnPasses()).isEqualTo(1);
    }

    private static void receive(ScmpServer server, String conn, long ts, SharedPassAdapter... classes) {
        assertThat(server.receive(ConnId.of(conn), Timestamp.of(ts))).isEqualTo(Verdict.ACCEPTED);
        for (SharedPassAdapter k : classes) {
            if (k.garbageCollectionDue()) {
                server.collectGarbage();
                return;
            }
        }
    }
}
