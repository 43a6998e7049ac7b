package dev.onceproof.causal;

/**
 * Which order a node enforces before handing an event to the application (paper 2.1, 4.1, 4.2,
 * 5.2). In every mode the messages carry the full vector clock, which is what Reactive Error
 * Recovery reads to find missing events; the mode only changes the delivery guard and, for FIFO,
 * which missing events are detected.
 */
public enum Mode {
    /**
     * Deliver on receipt; use the metadata for recovery only (the system of paper 5.2's last
     * sentence, for which 3/32 e^-w is stated). Missing events are those of the whole causal past.
     */
    UNORDERED("unordered"),
    /** Deliver event (k, s) only after (k, 1..s-1) (paper 2.1, L133); detect gaps per sender only. */
    FIFO("fifo"),
    /** Deliver only after the whole causal past (paper 2.1; the vector-clock guard). */
    CAUSAL("causal");

    private final String specName;

    Mode(String specName) {
        this.specName = specName;
    }

    /** The value of the spec's constant Mode. */
    public String specName() {
        return specName;
    }

    public static Mode fromSpecName(String name) {
        for (Mode m : values()) {
            if (m.specName.equals(name)) {
                return m;
            }
        }
        throw new IllegalArgumentException("mode \"" + name + "\" is not one of unordered, fifo, causal");
    }
}
