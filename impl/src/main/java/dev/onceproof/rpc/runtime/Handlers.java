package dev.onceproof.rpc.runtime;

import java.io.IOException;
import java.nio.file.Path;

/** The handlers the CLI and the benchmarks name: null, echo and the durable counter. */
public final class Handlers {

    private static final byte[] EMPTY = new byte[0];

    private Handlers() {
    }

    /** The paper's null call (3.1, Figures 3-2 and 3-3): no arguments used, empty result. */
    public static CallHandler nullCall() {
        return (conn, ts, args) -> EMPTY;
    }

    /** Returns the arguments unchanged: checks that payloads cross the wire intact. */
    public static CallHandler echo() {
        return (conn, ts, args) -> args;
    }

    /**
     * Resolves a handler name as the {@code serve} command takes it.
     *
     * @param journal where the counter handler records its executions; required only for it
     */
    public static CallHandler byName(String name, Path journal) throws IOException {
        switch (name) {
            case "null":
                return nullCall();
            case "echo":
                return echo();
            case "counter":
                if (journal == null) {
                    throw new IllegalArgumentException(
                            "handler \"counter\" needs a journal file to record its executions");
                }
                return new CounterHandler(ExecutionJournal.open(journal));
            default:
                throw new IllegalArgumentException("unknown handler \"" + name
                        + "\"; the handlers are null, echo, counter");
        }
    }
}
