package dev.onceproof.rpc.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;

/** What a running server has done, for logs, the CLI's status line and tests. Thread-safe. */
public final class ServerCounters {

    /** The per-thread counters of every server thread, for the per-datagram counts. */
    private final List<Lane> lanes = new CopyOnWriteArrayList<>();
    final LongAdder malformed = new LongAdder();
    /** Well-formed but not authentic under the server's keys (or version 1 where keys are required). */
    final LongAdder unauthenticated = new LongAdder();
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
    public record Snapshot(long datagrams, long malformed, long unauthenticated, long executed, long replies,
                           long acks,
                           long retransmittedReplies, long rejects, long tooEarly,
                           long handlerFailures, long latestWrites, long collected, long internalErrors) {
        @Override
        public String toString() {
            return "datagrams=" + datagrams + " executed=" + executed + " replies=" + replies
                    + " acks=" + acks + " retransmittedReplies=" + retransmittedReplies
                    + " rejects=" + rejects + " tooEarly=" + tooEarly + " malformed=" + malformed
                    + " unauthenticated=" + unauthenticated
                    + " handlerFailures=" + handlerFailures
                    + " latestWrites=" + latestWrites + " collected=" + collected
                    + " internalErrors=" + internalErrors;
        }
    }

    /**
     * The counts every datagram moves (received, executed, replied), kept per server thread: only the
     * owning thread writes its lane, so an increment is a plain read and an opaque write instead of an
     * atomic read-modify-write, which costs each call about as much as a core step. Readers see each
     * count as the owner last wrote it (opaque reads; no count is torn or goes backwards).
     */
    static final class Lane {
        private static final VarHandle DATAGRAMS;
        private static final VarHandle EXECUTED;
        private static final VarHandle REPLIES;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                DATAGRAMS = lookup.findVarHandle(Lane.class, "datagrams", long.class);
                EXECUTED = lookup.findVarHandle(Lane.class, "executed", long.class);
                REPLIES = lookup.findVarHandle(Lane.class, "replies", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private long datagrams;
        private long executed;
        private long replies;

        /** Owner thread only. */
        void datagram() {
            DATAGRAMS.setOpaque(this, datagrams + 1);
        }

        /** Owner thread only. */
        void executed() {
            EXECUTED.setOpaque(this, executed + 1);
        }

        /** Owner thread only. */
        void replied() {
            REPLIES.setOpaque(this, replies + 1);
        }
    }

    /** A lane for one server thread, which must be the only one to count on it. */
    Lane newLane() {
        Lane lane = new Lane();
        lanes.add(lane);
        return lane;
    }

    public Snapshot snapshot() {
        long datagrams = 0;
        long executed = 0;
        long replies = 0;
        for (Lane lane : lanes) {
            datagrams += (long) Lane.DATAGRAMS.getOpaque(lane);
            executed += (long) Lane.EXECUTED.getOpaque(lane);
            replies += (long) Lane.REPLIES.getOpaque(lane);
        }
        return new Snapshot(datagrams, malformed.sum(), unauthenticated.sum(), executed, replies, acks.sum(),
                retransmittedReplies.sum(), rejects.sum(), tooEarly.sum(),
                handlerFailures.sum(), latestWrites.sum(), collected.sum(), internalErrors.sum());
    }
}
