package dev.onceproof.storage;

/** A snapshot write whose generation does not exceed the stored one: a broken contract. */
public final class SnapshotBackwardsException extends IllegalStateException {

    public SnapshotBackwardsException(String where, long attempted, long stored) {
        super(where + ": snapshot generation " + attempted + " is not above stored generation " + stored
                + "; stable storage must never go backwards");
    }
}
