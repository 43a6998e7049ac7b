package dev.onceproof.bench.jmh;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.onceproof.scmp.ConcurrentScmpFilter;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.scmp.Verdict;
import dev.onceproof.storage.InMemoryStableStorage;
import java.time.Duration;

/**
 * The two ways to drop duplicate messages compared by the benchmarks, behind one interface so both
 * see exactly the same message stream and the same clock.
 *
 * <p>They do not promise the same thing: the Caffeine cache forgets a message id once the window
 * has passed and then accepts a late duplicate, while SCMP folds forgotten timestamps into upper and
 * keeps rejecting them (paper 2.3). The comparison is of cost, for the duplicates both catch.
 */
public interface Deduplicator {

    /** True if the message is new and should be delivered. */
    boolean accept(ConnId conn, Timestamp ts);

    /** Periodic housekeeping the caller runs: SCMP's garbage collection; nothing for Caffeine. */
    void maintain();

    /** Names used in JMH parameters, tables and JSON. */
    String SCMP = "scmp";
    String CAFFEINE = "caffeine";
    /** Caffeine with its default executor: maintenance on the common pool, off the calling thread. */
    String CAFFEINE_ASYNC = "caffeine-async";

    static Deduplicator create(String name, ManualInstantSource clock, long windowMillis) {
        return switch (name) {
            case SCMP -> new Scmp(clock, windowMillis);
            case CAFFEINE -> new CaffeineIds(clock, windowMillis, true);
            case CAFFEINE_ASYNC -> new CaffeineIds(clock, windowMillis, false);
            default -> throw new IllegalArgumentException("unknown deduplicator \"" + name
                    + "\"; the choices are " + SCMP + ", " + CAFFEINE + ", " + CAFFEINE_ASYNC);
        };
    }

    /** The concurrent SCMP filter, resilient scheme, rho = the window, latest far ahead. */
    final class Scmp implements Deduplicator {
        private final ConcurrentScmpFilter filter;

        Scmp(ManualInstantSource clock, long rho) {
            // beta is large so that no message is too early: the stream's timestamps follow the
            // clock, and latest-writing is a background job outside the per-message path.
            ScmpConfig config = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, 3_600_000L, 0, rho);
            filter = new ConcurrentScmpFilter(config, clock, new InMemoryStableStorage());
        }

        @Override
        public boolean accept(ConnId conn, Timestamp ts) {
            return filter.receive(conn, ts) == Verdict.ACCEPTED;
        }

        @Override
        public void maintain() {
            filter.collectGarbage();
        }
    }

    /** What people use today in-process: a cache of message ids that expire after the window. */
    final class CaffeineIds implements Deduplicator {
        /**
         * A message id as such caches key it: the sender and its timestamp. The hash is mixed on
         * purpose: the record's default (31 * h(conn) + h(ts)) collides whenever sender ids hash
         * to neighbouring values, as "client-1", "client-2" do, and turned the cache's bins into
         * trees; a baseline must not lose to a bad hash.
         */
        record MessageId(ConnId conn, long ts) {
            @Override
            public int hashCode() {
                long h = (conn.hashCode() * 0x9E3779B97F4A7C15L) ^ (ts * 0xC2B2AE3D27D4EB4FL);
                return (int) (h ^ (h >>> 32));
            }
        }

        private final Cache<MessageId, Boolean> seen;

        CaffeineIds(ManualInstantSource clock, long windowMillis, boolean sameThread) {
            Ticker ticker = () -> clock.millis() * 1_000_000L;
            Caffeine<Object, Object> builder = Caffeine.newBuilder()
                    .expireAfterWrite(Duration.ofMillis(windowMillis)).ticker(ticker);
            // Same thread: maintenance cost is counted, not hidden on another core, just as SCMP's
            // garbage collection is counted through maintain(). The async variant shows the
            // calling thread's share when the default executor takes maintenance elsewhere.
            seen = (sameThread ? builder.executor(Runnable::run) : builder).build();
        }

        @Override
        public boolean accept(ConnId conn, Timestamp ts) {
            return seen.asMap().putIfAbsent(new MessageId(conn, ts.value()), Boolean.TRUE) == null;
        }

        @Override
        public void maintain() {
            // Caffeine evicts expired entries itself, amortized over writes.
        }
    }
}
