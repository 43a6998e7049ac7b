package dev.onceproof.scmp;

/** How a server survives crashes (paper 2.2). */
public enum RecoveryScheme {
    /** Figure 2-1: does not survive crashes; after a crash nothing is promised. */
    NON_RESILIENT("nonresilient"),
    /** Figure 2-2: latest on stable storage bounds every accepted timestamp and seeds upper. */
    RESILIENT("resilient"),
    /**
     * Monotonic-clock alternative: too early above clock + epsilon, refuse epsilon after a crash.
     * Its safety assumes the server clock never goes back (SCMP.tla, MonotonicMeansNoJump).
     */
    MONOTONIC("monotonic");

    private final String specName;

    RecoveryScheme(String specName) {
        this.specName = specName;
    }

    /** The spec's {@code Mode} string. */
    public String specName() {
        return specName;
    }

    public static RecoveryScheme fromSpecName(String name) {
        for (RecoveryScheme s : values()) {
            if (s.specName.equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown mode \"" + name
                + "\"; the spec's modes are nonresilient, resilient, monotonic");
    }
}
