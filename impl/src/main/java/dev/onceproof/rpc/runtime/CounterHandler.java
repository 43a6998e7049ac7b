package dev.onceproof.rpc.runtime;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import java.nio.ByteBuffer;

/**
 * A non-idempotent operation: each execution appends the call to a durable journal and returns the
 * execution count (8 bytes, big-endian). Running a call twice is visible in the journal as two
 * lines with the same call id, which is what the crash test looks for.
 */
public final class CounterHandler implements CallHandler, AutoCloseable {

    private final ExecutionJournal journal;

    public CounterHandler(ExecutionJournal journal) {
        this.journal = journal;
    }

    @Override
    public byte[] execute(ConnId conn, Timestamp ts, byte[] args) {
        long count = journal.append(conn, ts, args);
        return ByteBuffer.allocate(Long.BYTES).putLong(count).array();
    }

    @Override
    public void close() throws java.io.IOException {
        journal.close();
    }
}
