package dev.onceproof.exactlyonce;

/**
 * The seven exactly-once strategies of the paper: 0-3 are client-centric (3.1-3.2: the client
 * judges every note against what it remembers), 4-6 server-centric (3.3: servers gather what was
 * delivered and hand notes over with aDeliver). A strategy and its parameters
 * ({@link StrategyConfig}, from {@link #config}) build the server and client cores, so a runtime,
 * a test world or a replayer never chooses the core classes itself.
 */
public enum Strategy {
    S0, S1, S2, S3, S4, S5, S6;

    /** The paper's number of the strategy (0-6). */
    public int number() {
        return ordinal();
    }

    /** Strategies 4-6: the server gathers D and delivers with aDeliver (3.3.2). */
    public boolean gathers() {
        return this == S4 || this == S5 || this == S6;
    }

    /** Strategies 1-2 number the notes of a server's stream; the others take the caller's unique id. */
    public boolean numbersNotes() {
        return this == S1 || this == S2;
    }

    /** Strategies 4-6, in order. */
    public static java.util.List<Strategy> gathering() {
        return java.util.List.of(S4, S5, S6);
    }

    /** Strategy {@code n} (0-6), or an error naming the number. */
    public static Strategy of(int n) {
        if (n < 0 || n >= values().length) {
            throw new IllegalArgumentException("strategy " + n + ": the paper's strategies are 0-6");
        }
        return values()[n];
    }

    /** The parameters of this strategy for one client and its servers, the others at their defaults. */
    public StrategyConfig config(ClientId client, java.util.SortedSet<ServerId> servers, long te) {
        return new StrategyConfig(this, client, servers, te);
    }

    /** What a server of this strategy that has never run holds on stable storage. */
    public DurableState initialState() {
        return gathers() ? GatherDurableState.initial() : ServerDurableState.initial();
    }
}
