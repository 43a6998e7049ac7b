package dev.onceproof.conformance.lincheck;

import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.storage.InMemoryStableStorage;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;

/**
 * What a Lincheck test of a concurrent server holds besides the server: the injected clock, stable
 * storage that survives restarts, and the two rules the harness imposes on the world.
 *
 * <ul>
 *   <li>A crash is the death of the process: every thread's step either finished before it or starts
 *       after the recovery, so {@link #restart} runs exclusively. Without that an old instance could
 *       still accept a message after the new one was built, which no real process does.</li>
 *   <li>The clock holds still during the steps that read it more than once (WriteLatest, a full
 *       garbage-collection pass): both classes document that with a clock moving meanwhile those
 *       steps are safe but not linearizable against the core's atomic action, so the harness keeps
 *       ticks out of them instead of reporting that documented behaviour. Single receives and
 *       single-entry collections read the clock once, inside their section, and race ticks freely.</li>
 * </ul>
 */
final class ProcessWorld {

    final ManualInstantSource clock;
    final InMemoryStableStorage storage = new InMemoryStableStorage();
    private final ReentrantReadWriteLock process = new ReentrantReadWriteLock();
    private final ReentrantReadWriteLock clockStill = new ReentrantReadWriteLock();

    ProcessWorld(long startClock) {
        this.clock = new ManualInstantSource(startClock);
    }

    /** A step of the running process. */
    <T> T step(Supplier<T> body) {
        process.readLock().lock();
        try {
            return body.get();
        } finally {
            process.readLock().unlock();
        }
    }

    /** A step that reads the clock more than once: no tick runs meanwhile. */
    <T> T stillClockStep(Supplier<T> body) {
        clockStill.readLock().lock();
        try {
            return step(body);
        } finally {
            clockStill.readLock().unlock();
        }
    }

    /** Crash then recover, with no other step of the process in between. */
    void restart(Runnable recover) {
        process.writeLock().lock();
        try {
            recover.run();
        } finally {
            process.writeLock().unlock();
        }
    }

    void tick() {
        clockStill.writeLock().lock();
        try {
            clock.advance(1);
        } finally {
            clockStill.writeLock().unlock();
        }
    }

    /** Stable storage's latest, for the AcceptedBelowStable check. */
    long stableLatest() {
        return storage.read().orElse(Long.MIN_VALUE);
    }
}
