package dev.onceproof.rpc.runtime;

import dev.onceproof.rpc.wire.Keyring;
import java.net.InetSocketAddress;

/**
 * How the UDP runtime around the RPC server core is set up (the protocol's own parameters, rho,
 * beta and kappa, are in ScmpConfig and the core).
 *
 * @param bind               address and port to listen on (port 0: any free port)
 * @param threads            server threads, at least 1; each receives datagrams, steps the shared
 *                           concurrent core, runs the handler of a call it accepted and sends the
 *                           REPLY. One thread is the paper's single-threaded SunRPC server, fastest
 *                           for calls that take microseconds; with N, N calls run at once and the
 *                           rest wait in the socket's receive buffer (overflow there is a lost
 *                           datagram, which retransmission covers)
 * @param latestPeriodMillis how often latest is written to stable storage (Fig. 2-2 "Maintaining
 *                           Latest"); must be below beta, or latest falls behind the clock and
 *                           timely calls are refused as too early
 * @param gcPeriodMillis     how often the connection table is garbage-collected (Fig. 3-1)
 * @param keys               null: wire format version 1, anyone may speak for any connection; else
 *                           only version 2 datagrams under these per-connection keys are served
 *                           (see dev.onceproof.rpc.wire.DatagramAuth), the rest counted and dropped
 */
public record ServerOptions(InetSocketAddress bind, int threads, long latestPeriodMillis, long gcPeriodMillis,
                            Keyring keys) {

    /** Without authentication (wire format version 1). */
    public ServerOptions(InetSocketAddress bind, int threads, long latestPeriodMillis, long gcPeriodMillis) {
        this(bind, threads, latestPeriodMillis, gcPeriodMillis, null);
    }

    public ServerOptions {
        if (bind == null) {
            throw new IllegalArgumentException("bind address is null");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("server threads " + threads + " is below 1");
        }
        if (latestPeriodMillis <= 0 || gcPeriodMillis <= 0) {
            throw new IllegalArgumentException("latest period " + latestPeriodMillis + " ms and gc period "
                    + gcPeriodMillis + " ms must be positive");
        }
    }

    /** Loopback, any port, periods of a second: for tests and benchmarks. */
    public static ServerOptions loopback(int threads) {
        return new ServerOptions(new InetSocketAddress("127.0.0.1", 0), threads, 1_000, 1_000);
    }

    public ServerOptions withBind(InetSocketAddress address) {
        return new ServerOptions(address, threads, latestPeriodMillis, gcPeriodMillis, keys);
    }

    public ServerOptions withPeriods(long latestMillis, long gcMillis) {
        return new ServerOptions(bind, threads, latestMillis, gcMillis, keys);
    }

    /** Serves only datagrams authenticated under these keys (null: none required). */
    public ServerOptions withKeys(Keyring keyring) {
        return new ServerOptions(bind, threads, latestPeriodMillis, gcPeriodMillis, keyring);
    }
}
