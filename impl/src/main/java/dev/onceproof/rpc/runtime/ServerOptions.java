package dev.onceproof.rpc.runtime;

import java.net.InetSocketAddress;

/**
 * How the UDP runtime around the RPC server core is set up (the protocol's own parameters, rho,
 * beta and kappa, are in ScmpConfig and the core).
 *
 * @param bind               address and port to listen on (port 0: any free port)
 * @param workers            threads running the handler; 0 runs it on the receiver thread, as the
 *                           paper's single-threaded SunRPC server does, which is fastest for calls
 *                           that take microseconds and blocks every client behind a slow one
 * @param queueCapacity      accepted calls waiting for a worker; when full, new CALLs are dropped
 *                           before the SCMP filter sees them, so the client's retransmission is
 *                           judged later as if the datagram had been lost
 * @param latestPeriodMillis how often latest is written to stable storage (Fig. 2-2 "Maintaining
 *                           Latest"); must be below beta, or latest falls behind the clock and
 *                           timely calls are refused as too early
 * @param gcPeriodMillis     how often the connection table is garbage-collected (Fig. 3-1)
 */
public record ServerOptions(InetSocketAddress bind, int workers, int queueCapacity,
                            long latestPeriodMillis, long gcPeriodMillis) {

    public ServerOptions {
        if (bind == null) {
            throw new IllegalArgumentException("bind address is null");
        }
        if (workers < 0) {
            throw new IllegalArgumentException("workers " + workers + " is negative");
        }
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("queue capacity " + queueCapacity + " is below 1");
        }
        if (latestPeriodMillis <= 0 || gcPeriodMillis <= 0) {
            throw new IllegalArgumentException("latest period " + latestPeriodMillis + " ms and gc period "
                    + gcPeriodMillis + " ms must be positive");
        }
    }

    /** Loopback, any port, a queue of 1024, periods of a second: for tests and benchmarks. */
    public static ServerOptions loopback(int workers) {
        return new ServerOptions(new InetSocketAddress("127.0.0.1", 0), workers, 1024, 1_000, 1_000);
    }

    public ServerOptions withBind(InetSocketAddress address) {
        return new ServerOptions(address, workers, queueCapacity, latestPeriodMillis, gcPeriodMillis);
    }

    public ServerOptions withPeriods(long latestMillis, long gcMillis) {
        return new ServerOptions(bind, workers, queueCapacity, latestMillis, gcMillis);
    }
}
