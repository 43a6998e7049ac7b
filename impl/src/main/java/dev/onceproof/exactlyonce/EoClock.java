package dev.onceproof.exactlyonce;

/**
 * The time a core sees, in ticks of the spec's {@code now} (the caller picks the tick length, e.g.
 * milliseconds, and gives T_e in the same unit). Injected so cores never read a wall clock; a
 * trace replay moves a {@link ManualEoClock} as the trace's time variable says.
 *
 * <p>Contract: never decreases while a core uses it.
 */
@FunctionalInterface
public interface EoClock {

    long now();
}
