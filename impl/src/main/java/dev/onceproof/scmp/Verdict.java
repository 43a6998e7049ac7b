package dev.onceproof.scmp;

/** What the server decided about one received message; the spec's {@code verdict} strings. */
public enum Verdict {
    /** New message: deliver it (Fig. 2-1 rules 1b/2b, Fig. 2-2 rules 2b/3b). */
    ACCEPTED("accepted"),
    /** Possibly a duplicate: timestamp not above the connection's entry or the class's upper. */
    DUPLICATE("duplicate"),
    /** Timestamp above latest (Fig. 2-2 rule 1) or above clock + epsilon (monotonic scheme). */
    TOO_EARLY("tooEarly"),
    /** Monotonic scheme right after a crash: "refuses all messages for a period of epsilon". */
    RECOVERING("recovering");

    private final String specName;

    Verdict(String specName) {
        this.specName = specName;
    }

    /** The string the TLA+ spec and the traces use. */
    public String specName() {
        return specName;
    }

    public static Verdict fromSpecName(String name) {
        for (Verdict v : values()) {
            if (v.specName.equals(name)) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown verdict \"" + name
                + "\"; the spec's verdicts are accepted, duplicate, tooEarly, recovering");
    }
}
