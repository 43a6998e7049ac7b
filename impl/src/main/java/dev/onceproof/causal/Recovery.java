package dev.onceproof.causal;

/** Which Reactive Error Recovery a node runs (the spec's constant Recovery). */
public enum Recovery {
    /**
     * The paper as written (5.1, 5.3): after w one request to the origin, after RTO one request to
     * the next known holder, then nothing more. TLC shows eventual delivery fails with it.
     */
    FAITHFUL("faithful"),
    /** The implemented protocol: a request after every RTO, cycling through the known holders. */
    LIVE("live");

    private final String specName;

    Recovery(String specName) {
        this.specName = specName;
    }

    public String specName() {
        return specName;
    }

    public static Recovery fromSpecName(String name) {
        for (Recovery r : values()) {
            if (r.specName.equals(name)) {
                return r;
            }
        }
        throw new IllegalArgumentException("recovery \"" + name + "\" is not one of faithful, live");
    }
}
