package dev.onceproof.bench.rpc;

import java.io.IOException;

/**
 * One RPC mechanism under test: a running server on loopback and a way to make clients for it.
 * Every system runs its server in this JVM on its own thread(s), so all three pay the same costs
 * of sharing the machine with the clients.
 */
public interface RpcSystem extends AutoCloseable {

    /** Short name for tables and JSON: "SCMP-RPC", "UDP", "TCP". */
    String name();

    /** One line on what this system guarantees and how it is built, for the report. */
    String description();

    /**
     * A new client with its own socket (and, for SCMP-RPC, its own connection id), as one of the
     * paper's client modules.
     */
    Client newClient() throws IOException;

    @Override
    void close() throws IOException;

    /** A client making one call at a time. */
    interface Client extends AutoCloseable {

        /** Makes one call and returns its results; throws if no reply comes within the timeout. */
        byte[] call(byte[] args) throws IOException;

        @Override
        void close() throws IOException;
    }
}
