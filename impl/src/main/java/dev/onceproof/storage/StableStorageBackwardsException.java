package dev.onceproof.storage;

/** A write that would make stored latest go backwards: a broken contract, never an outcome. */
public final class StableStorageBackwardsException extends IllegalStateException {

    private final long attempted;
    private final long stored;

    public StableStorageBackwardsException(long attempted, long stored) {
        super("latest " + attempted + " is below stored latest " + stored
                + "; stable latest must never go backwards (paper 2.3)");
        this.attempted = attempted;
        this.stored = stored;
    }

    public long attempted() {
        return attempted;
    }

    public long stored() {
        return stored;
    }
}
