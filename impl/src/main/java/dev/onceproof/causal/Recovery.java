package dev.onceproof.causal;

/** Which Reactive Error Recovery a node runs (the spec's constant Recovery). */
public enum Recovery {
    /**
     * The paper as written (5.1, 5.3): after w one request to the origin, after RTO one request to
     * the next known holder, then nothing more. TLC shows eventual delivery fails with it.
     */
    FAITHFUL("faithful"),
    /**
     * The paper with L240 read literally, "when the message B arrives at N3, it is seen that the
     * message A is not there yet. At this point, a waiting time timer (w) is started": as FAITHFUL,
     * but a message that shows a gap whose single retry has run out starts the wait for it again (a
     * gap whose timer still runs keeps it, or a steady flow of messages would postpone the request for
     * ever). Only a lost copy no later message reveals stays missing. The spec's Recovery =
     * "restart" (Causal.tla, Restarted), with its mutant and trace; the causal bench uses it to tell
     * the two causes of FAITHFUL's losses apart.
     */
    RESTART("restart"),
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
        throw new IllegalArgumentException("recovery \"" + name + "\" is not one of faithful, restart, live");
    }
}
