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
import dev.onceproof.storage.StableStorage;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link ConcurrentRpcServer#writeLatest} beside receives, as the runtime runs it: the durable write
 * (an fsync, milliseconds) does not stall receives, latest rises only once its value is durable, and
 * concurrent writers never move stable storage backwards. Lincheck leaves WriteLatest out (see
 * ConcurrentScmpFilter), so these are its concurrency tests.
 */
class ConcurrentRpcServerLatestWriterTest {

    static final ScmpConfig CONFIG = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, 10_000, 5, 100);

    /** A stable storage whose writes, once armed, block until released (a slow fsync). */
    private static final class BlockingStorage implements StableStorage {
        final InMemoryStableStorage inner = new InMemoryStableStorage();
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean armed;

        @Override
        public OptionalLong read() {
            return inner.read();
        }

        @Override
        public void write(long latest) {
            if (armed) {
                entered.countDown();
                try {
                    if (!release.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("never released");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            inner.write(latest);
        }
    }

    @Test
    void receiveIsNotBlockedBehindADurableWriteAndLatestRisesOnlyAfterIt() throws Exception {
        ManualInstantSource clock = new ManualInstantSource(1_000);
        BlockingStorage storage = new BlockingStorage();
        ConcurrentRpcServer server = new ConcurrentRpcServer(CONFIG, clock, storage, 100);
        assertThat(server.state().scmp().latest()).isEqualTo(11_000);
        clock.set(2_000);
        storage.armed = true;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<Long> writer = pool.submit(server::writeLatest);
            assertThat(storage.entered.await(10, TimeUnit.SECONDS)).isTrue();
            // The write is in progress: a receive completes meanwhile (on another thread, bounded).
            Future<ServerStep> step = pool.submit(() -> server.receive(
                    new RpcMessage.Call(ConnId.of("c"), Timestamp.of(1_500), Payload.EMPTY)));
            assertThat(step.get(10, TimeUnit.SECONDS).outcome()).isEqualTo(ServerOutcome.EXECUTE);
            // latest has not risen before the value is durable, so 11_500 is still too early. (Not read
            // through state(), which waits for the writer to read stableLatest consistently.)
            assertThat(storage.read()).hasValue(11_000);
            assertThat(server.receive(new RpcMessage.Call(ConnId.of("d"), Timestamp.of(11_500), Payload.EMPTY))
                    .outcome()).isEqualTo(ServerOutcome.TOO_EARLY);
            assertThat(writer.isDone()).isFalse();
            storage.release.countDown();
            assertThat(writer.get(10, TimeUnit.SECONDS)).isEqualTo(12_000);
            assertThat(server.state().scmp().latest()).isEqualTo(12_000);
            assertThat(storage.read()).hasValue(12_000);
        } finally {
            storage.release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void concurrentLatestWritesNeverGoBackwards() throws Exception {
        ManualInstantSource clock = new ManualInstantSource(1_000);
        InMemoryStableStorage storage = new InMemoryStableStorage();
        ConcurrentRpcServer server = new ConcurrentRpcServer(CONFIG, clock, storage, 100);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Object>> done = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            done.add(pool.submit(() -> {
                go.await();
                for (int i = 0; i < 2_000; i++) {
                    clock.advance(1);
                    long latest = server.writeLatest();
                    assertThat(storage.read().getAsLong()).isGreaterThanOrEqualTo(latest);
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<Object> f : done) {
            f.get(60, TimeUnit.SECONDS); // a backwards write would throw here
        }
        pool.shutdown();
        assertThat(server.state().scmp().latest()).isEqualTo(storage.read().getAsLong()).isEqualTo(19_000);
    }
}
