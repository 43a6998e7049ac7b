package dev.onceproof.rpc.core;

import dev.onceproof.scmp.ConcurrentScmpFilter;
import java.time.InstantSource;

/**
 * Builds the real {@link ConcurrentRpcServer} over a given filter with one of its package-private
 * mutation seams ({@link ConcurrentRpcServer.Reordering}), for conformance's Lincheck suite; on the
 * test classpath only. A reordering is named as a string so callers outside the package can pick one.
 */
public final class RpcServerSeams {

    private RpcServerSeams() {
    }

    /** The server over filter (fresh or restarted) committing the named reordering ("NONE": the real one). */
    public static ConcurrentRpcServer over(ConcurrentScmpFilter filter, InstantSource clock, long kappa,
                                           String reordering) {
        return new ConcurrentRpcServer(filter, clock, kappa, ConcurrentRpcServer.Reordering.valueOf(reordering));
    }
}
