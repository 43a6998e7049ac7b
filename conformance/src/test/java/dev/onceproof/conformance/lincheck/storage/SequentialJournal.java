package dev.onceproof.conformance.lincheck.storage;

/** The journal's sequential specification: sequence numbers from one counter; the rest returns nothing. */
public class SequentialJournal {

    private long last;

    public void prelude() {
    }

    public long append(int op) {
        return ++last;
    }

    public long appendAndCommit(int op) {
        return ++last;
    }

    public void commit() {
    }

    public void checkpoint() {
    }
}
