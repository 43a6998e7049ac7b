package dev.onceproof.rpc.runtime;

import java.util.concurrent.atomic.LongAdder;

/** What a running server has done, for logs, the CLI's status line and tests. Thread-safe. */
public final class ServerCounters {

    final LongAdder datagrams = new LongAdder();
    final LongAdder malformed = new LongAdder();
    final LongAdder executed = new LongAdder();
    final LongAdder replies = new LongAdder();
    final LongAdder acks = new LongAdder();
    final LongAdder retransmittedReplies = new LongAdder();
    final LongAdder rejects = new LongAdder();
    final LongAdder tooEarly = new LongAdder();
    final LongAdder handlerFailures = new LongAdder();
    final LongAdder latestWrites = new LongAdder();
    final LongAdder collected = new LongAdder();
    /** The core threw: a broken contract, logged with its stack trace; the datagram is dropped. */
    final LongAdder internalErrors = new LongAdder();

    /** A consistent-enough copy: each counter is read once. */
    public record Snapshot(long datagrams, long malformed, long executed, long replies, long acks,
                           long retransmittedReplies, long rejects, long tooEarly,
                           long handlerFailures, long latestWrites, long collected, long internalErrors) {
        @Override
        public String toString() {
            return "datagrams=" + datagrams + " executed=" + executed + " replies=" + replies
                    + " acks=" + acks + " retransmittedReplies=" + retransmittedReplies
                    + " rejects=" + rejects + " tooEarly=" + tooEarly + " malformed=" + malformed
                    + " handlerFailures=" + handlerFailures
                    + " latestWrites=" + latestWrites + " collected=" + collected
                    + " internalErrors=" + internalErrors;
        }
    }

    public Snapshot snapshot() {
        return new Snapshot(datagrams.sum(), malformed.sum(), executed.sum(), replies.sum(), acks.sum(),
                retransmittedReplies.sum(), rejects.sum(), tooEarly.sum(),
                handlerFailures.sum(), latestWrites.sum(), collected.sum(), internalErrors.sum());
    }
}
