package dev.onceproof.rpc.core;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.storage.InMemoryStableStorage;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Worker threads sharing one server: every copy of a call races, exactly one starts it. */
class SynchronizedRpcServerTest {

    @Test
    void concurrentCopiesOfACallStartItOnce() throws Exception {
        ManualInstantSource clock = new ManualInstantSource(1_000);
        SynchronizedRpcServer server = new SynchronizedRpcServer(new RpcServerCore(
                ScmpConfig.singleClass(RecoveryScheme.RESILIENT, 10_000, 5, 100), clock, new InMemoryStableStorage(), 100));
        int threads = 4;
        int calls = 2_000;
        ConcurrentLinkedQueue<ServerEffect.Execute> started = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        for (int t = 0; t < threads; t++) {
            pool.submit(() -> {
                go.await();
                for (int i = 0; i < calls; i++) {
                    RpcMessage.Call call = new RpcMessage.Call(ConnId.of("c" + (i % 16)), Timestamp.of(1_000 + i),
                            Payload.EMPTY);
                    for (ServerEffect e : server.receive(call).effects()) {
                        if (e instanceof ServerEffect.Execute x) {
                            started.add(x);
                            server.complete(x.conn(), x.ts(), Payload.EMPTY);
                        }
                    }
                }
                return null;
            });
        }
        go.countDown();
        pool.shutdown();
        assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        List<String> ids = started.stream().map(x -> x.conn() + "/" + x.ts()).toList();
        assertThat(ids).doesNotHaveDuplicates();
        // Per connection, a call overtaken by a later one on another thread is flagged, never run.
        assertThat(ids.size()).isBetween(16, calls);
    }
}
