package dev.onceproof.bench.jmh;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.Timestamp;

/**
 * A deterministic stream of new messages from many senders, round-robin, on a logical clock that
 * advances one millisecond every {@code messagesPerMilli} messages. Each sender stamps its
 * messages with the clock, bumped to stay strictly increasing (paper 2.2), so every message is new
 * and both deduplicators must accept and remember it. Every {@code duplicateEvery}-th message is a
 * retransmission of the sender's previous message, which both must reject.
 *
 * <p>Single-threaded: one stream per benchmark thread.
 */
public final class MessageStream {

    private final ConnId[] senders;
    private final long[] lastTs;
    private final ManualInstantSource clock;
    private final int messagesPerMilli;
    private final int duplicateEvery;
    private final long maintainEveryMillis;
    private long counter;
    private long nextMaintain;

    public MessageStream(int senders, ManualInstantSource clock, int messagesPerMilli,
                         int duplicateEvery, long maintainEveryMillis) {
        this.senders = new ConnId[senders];
        this.lastTs = new long[senders];
        for (int i = 0; i < senders; i++) {
            this.senders[i] = ConnId.of("client-" + i);
        }
        this.clock = clock;
        this.messagesPerMilli = messagesPerMilli;
        this.duplicateEvery = duplicateEvery;
        this.maintainEveryMillis = maintainEveryMillis;
        this.nextMaintain = clock.millis() + maintainEveryMillis;
    }

    /** Feeds the next message to {@code d}; returns whether it was accepted. */
    public boolean next(Deduplicator d) {
        long n = counter++;
        if (n % messagesPerMilli == 0 && n > 0) {
            long now = clock.millis() + 1;
            clock.set(now);
            if (now >= nextMaintain) {
                d.maintain();
                nextMaintain = now + maintainEveryMillis;
            }
        }
        int s = (int) (n % senders.length);
        long ts;
        if (duplicateEvery > 0 && n % duplicateEvery == duplicateEvery - 1 && lastTs[s] > 0) {
            ts = lastTs[s];
        } else {
            ts = Math.max(clock.millis(), lastTs[s] + 1);
            lastTs[s] = ts;
        }
        return d.accept(senders[s], new Timestamp(ts));
    }

    /** The senders' ids, so a measurement can keep them alive outside what it measures. */
    public ConnId[] senders() {
        return senders;
    }
}
