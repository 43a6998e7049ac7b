package dev.onceproof.rpc.core;

import dev.onceproof.scmp.ScmpState;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The RPC server's abstract state: the spec's server variables (specs/rpc/RPC.tla), the RPC table
 * {@code rpc} on top of SCMP's ({@code ct}, {@code upper}, {@code latest}, {@code stableLatest},
 * {@code up}, ...). Trace replay compares it field by field after every step.
 *
 * <p>Invariant (kept by {@link RpcServerCore}, and by {@link ConcurrentRpcServer} between its
 * per-connection sections): {@code rpc} and {@code scmp.ct()} have the same
 * keys, and each entry's ts is the ct value: the RPC table extends SCMP's connection table
 * ("If message is NEW and there is no connection table entry, one is created by SCMP").
 *
 * @param rpc connection id to entry, sorted
 */
public record RpcServerState(Map<String, ServerEntry> rpc, ScmpState scmp) {

    public RpcServerState {
        rpc = Collections.unmodifiableMap(new TreeMap<>(rpc));
        Objects.requireNonNull(scmp, "scmp");
    }
}
