package dev.onceproof.bench.causal;

import dev.onceproof.causal.Ticker;
import java.util.PriorityQueue;

/**
 * The discrete-event clock: actions run in time order, ties in the order they were scheduled, so a
 * run is a function of its seed. It is also the {@link Ticker} every simulated node reads.
 */
final class EventQueue implements Ticker {

    private record Scheduled(long time, long order, Runnable action) {
    }

    private final PriorityQueue<Scheduled> queue = new PriorityQueue<>((a, b) -> a.time != b.time
            ? Long.compare(a.time, b.time) : Long.compare(a.order, b.order));
    private long now;
    private long order;

    @Override
    public long read() {
        return now;
    }

    void at(long time, Runnable action) {
        if (time < now) {
            throw new IllegalStateException("scheduled at " + time + ", before now " + now);
        }
        queue.add(new Scheduled(time, order++, action));
    }

    /** Runs actions until none is left or the next is after {@code horizon}. */
    void runUntil(long horizon) {
        while (!queue.isEmpty() && queue.peek().time <= horizon) {
            Scheduled s = queue.poll();
            now = s.time;
            s.action.run();
        }
    }
}
