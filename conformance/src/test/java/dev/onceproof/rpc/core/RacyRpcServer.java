package dev.onceproof.rpc.core;

import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConcurrentScmpFilter;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Verdict;
import dev.onceproof.storage.StableStorage;
import java.time.InstantSource;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A negative control for conformance's Lincheck suite (DESIGN.md: each link must be able to fail):
 * {@link ConcurrentRpcServer#receiveCall} without its per-key section. The entry is read with
 * {@code get}, SCMP judges the call, then the new entry is {@code put}: each map operation is atomic
 * and the filter is the real, linearizable one, yet the RPC entry and SCMP's ct drift apart: two
 * calls accepted in one order can be put in the other (the older call's entry overwrites the newer
 * one's, whose duplicates then get the older call's answers), and a duplicate arriving between
 * SCMP's verdict and the put finds no entry and is REJECTed. In this package
 * (on the test classpath only) so that it takes its decisions from the same {@link ServerRules} as
 * the real server and differs from it in the race alone.
 */
public final class RacyRpcServer {

    private final ConcurrentScmpFilter filter;
    private final ConcurrentHashMap<ConnId, ServerEntry> table = new ConcurrentHashMap<>();

    public RacyRpcServer(ScmpConfig config, InstantSource clock, StableStorage storage) {
        this.filter = new ConcurrentScmpFilter(config, clock, storage);
    }

    public ServerStep receiveCall(RpcMessage.Call m) {
        ServerEntry entry = table.get(m.conn());
        Verdict v = filter.receive(m.conn(), m.ts());
        if (v == Verdict.ACCEPTED) {
            table.put(m.conn(), ServerEntry.computing(m.ts()));
            return ServerRules.execute(m);
        }
        return ServerRules.notAccepted(v, m, entry, ServerRules::retransmit);
    }
}
