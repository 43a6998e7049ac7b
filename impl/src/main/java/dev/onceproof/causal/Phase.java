package dev.onceproof.causal;

/** Recovery phase of one missing event at one node (the spec's {@code phase[i][d]}). */
public enum Phase {
    /** Not tracked (not missing, or not yet known to be missing). */
    NONE("none"),
    /** Known missing; timer w running (paper 5.1: it may still arrive on its own, the green arrow). */
    WAITING("waiting"),
    /** Requested; timer RTO running (paper 5.3). */
    ASKED("asked"),
    /** Recovery FAITHFUL only: the paper's one retry was sent; nothing more will be (paper 5.3). */
    RETRIED("retried");

    private final String specName;

    Phase(String specName) {
        this.specName = specName;
    }

    public String specName() {
        return specName;
    }
}
