package dev.onceproof.scmp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class TimestampSourceTest {

    @Test
    void strictlyIncreasingWhenClockStallsOrJumpsBack() {
        // 2.2: "the client can maintain a counter for use as the low bits of the timestamp when
        // necessary, e.g., if it attempts to send multiple messages within one tick of its clock".
        TimestampSource s = new TimestampSource();
        List<Long> got = new ArrayList<>();
        for (long reading : new long[] {100, 100, 100, 90, 103, 103, 200}) {
            got.add(s.next(reading).value());
        }
        assertThat(got).containsExactly(100L, 101L, 102L, 103L, 104L, 105L, 200L);
    }

    @Test
    void firstTimestampIsAboveResumePoint() {
        assertThat(new TimestampSource().next(-5).value()).isEqualTo(1);
        // The spec's initial lastSent is skew - 1, so a client behind real time starts below zero.
        assertThat(new TimestampSource(-2).next(-1).value()).isEqualTo(-1);
        assertThat(new TimestampSource(50).next(10).value()).isEqualTo(51);
    }

    @Test
    void atomicSourceNeverHandsOutOneTimestampTwice() throws Exception {
        AtomicTimestampSource s = new AtomicTimestampSource();
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        int threads = 4;
        int each = 10_000;
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> workers = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                long previous = Long.MIN_VALUE;
                for (int n = 0; n < each; n++) {
                    long ts = s.next(n / 100).value();   // a coarse clock: many sends per tick
                    if (ts <= previous || !seen.add(ts)) {
                        synchronized (problems) {
                            problems.add("timestamp " + ts + " after " + previous);
                        }
                    }
                    previous = ts;
                }
            });
            workers.add(t);
            t.start();
        }
        start.countDown();
        for (Thread t : workers) {
            t.join();
        }
        assertThat(problems).isEmpty();
        assertThat(seen).hasSize(threads * each);
        assertThat(s.lastSent()).isEqualTo(threads * each);
    }
}
