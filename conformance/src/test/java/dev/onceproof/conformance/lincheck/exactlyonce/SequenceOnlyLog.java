package dev.onceproof.conformance.lincheck.exactlyonce;

import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerOp;
import dev.onceproof.storage.Journal;
import dev.onceproof.storage.OperationLog;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The operation log of the Lincheck server: it numbers what is appended and keeps nothing else.
 * Lincheck checks the wrapper's steps against the sequential core, not the store (replay and the
 * test worlds check that); and its model checking walks every object reachable from the test
 * instance, which fails on the records that the in-memory log holds (Lincheck 2.39 cannot read a
 * record's fields), so this log holds none.
 */
final class SequenceOnlyLog implements OperationLog<ServerDurableState, List<ServerOp>> {

    private final AtomicLong last = new AtomicLong();

    @Override
    public Journal.Recovered<ServerDurableState, List<ServerOp>> recovered() {
        return new Journal.Recovered<>(Optional.empty(), 0, List.of());
    }

    @Override
    public String where() {
        return "the Lincheck server's sequence-only log";
    }

    @Override
    public long append(List<ServerOp> operation) {
        return last.incrementAndGet();
    }

    @Override
    public void commit(long seq) {
        if (seq > last.get()) {
            throw new IllegalArgumentException("commit of " + seq + ", appended only up to " + last.get());
        }
    }

    @Override
    public long lastSeq() {
        return last.get();
    }

    @Override
    public boolean checkpointDue() {
        return false;
    }

    @Override
    public void checkpoint(ServerDurableState state, long throughSeq) {
    }

    @Override
    public Journal.Stats stats() {
        return new Journal.Stats(last.get(), last.get(), 0, 0);
    }

    @Override
    public void close() {
    }
}
