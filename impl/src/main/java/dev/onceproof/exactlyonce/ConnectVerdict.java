package dev.onceproof.exactlyonce;

/** What a Strategy 4-6 client's connect attempt did (see {@link ConnectStep}). */
public enum ConnectVerdict {
    /** Connected; carry out the step's effects in order. */
    CONNECTED("connected"),
    /** Strategy 5: refused, T_r has not passed since the last connection ended (L221); no change. */
    TOO_SOON("tooSoon");

    private final String specName;

    ConnectVerdict(String specName) {
        this.specName = specName;
    }

    public String specName() {
        return specName;
    }
}
