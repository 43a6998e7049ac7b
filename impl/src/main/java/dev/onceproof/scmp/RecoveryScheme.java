package dev.onceproof.scmp;

/** How a server survives crashes (paper 2.2). */
public enum RecoveryScheme {
    /** Figure 2-1: does not survive crashes; after a crash nothing is promised. */
    NON_RESILIENT,
    /** Figure 2-2: latest on stable storage bounds every accepted timestamp and seeds upper. */
    RESILIENT,
    /** Monotonic-clock alternative: too early above clock + epsilon, refuse epsilon after a crash. */
    MONOTONIC
}
