package dev.onceproof.bench.jmh;

import dev.onceproof.scmp.ManualInstantSource;
import java.lang.ref.Reference;

/**
 * Retained heap per sender: {@code senders} senders each send {@code messagesPerSender} new
 * messages within one window, then the heap in use after full collections is compared with the
 * heap in use before the deduplicator was built. The senders' ids exist before the first reading,
 * so they are charged to neither side. No JOL: the used heap after repeated System.gc() is exact
 * enough when the difference is megabytes, and run with -XX:+UseParallelGC it is a stop-the-world
 * full collection every time.
 */
public final class DedupMemoryHarness {

    private DedupMemoryHarness() {
    }

    /** Bytes of heap retained per sender by a freshly filled deduplicator. */
    public static double bytesPerSender(String impl, int senders, int messagesPerSender) {
        long windowMillis = 1_000;
        // All messages land within half a window, so none has expired or been collected.
        int total = senders * messagesPerSender;
        int perMilli = Math.max(1, total / (int) (windowMillis / 2));
        ManualInstantSource clock = new ManualInstantSource(1_000_000_000L);
        MessageStream stream = new MessageStream(senders, clock, perMilli, 0, Long.MAX_VALUE / 4);
        long before = usedAfterGc();
        Deduplicator dedup = Deduplicator.create(impl, clock, windowMillis);
        for (int i = 0; i < total; i++) {
            if (!stream.next(dedup)) {
                throw new IllegalStateException(impl + " rejected new message " + i
                        + " of the stream; the harness only feeds new messages");
            }
        }
        long after = usedAfterGc();
        Reference.reachabilityFence(dedup);
        Reference.reachabilityFence(stream);
        return (after - before) / (double) senders;
    }

    /** Heap in use once repeated full collections stop freeing anything. */
    static long usedAfterGc() {
        Runtime rt = Runtime.getRuntime();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 10; i++) {
            System.gc();
            long now = rt.totalMemory() - rt.freeMemory();
            if (now >= used) {
                return Math.min(now, used);
            }
            used = now;
        }
        return used;
    }
}
