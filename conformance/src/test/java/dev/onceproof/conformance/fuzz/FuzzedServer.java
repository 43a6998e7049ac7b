package dev.onceproof.conformance.fuzz;

import dev.onceproof.rpc.core.ConcurrentRpcServer;
import dev.onceproof.rpc.core.RpcServerCore;
import dev.onceproof.rpc.core.RpcServerState;
import dev.onceproof.rpc.core.ServerStep;
import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.scmp.Timestamp;
import dev.onceproof.storage.StableStorage;
import java.time.InstantSource;

/**
 * The steps {@link RpcDatagramFuzzTest} drives, over either RPC server, so one harness checks both.
 * The two servers share these steps but no Java type (the sequential core also has crash/recover
 * and mutation seams; the concurrent one is restarted instead), hence this adapter. Single-threaded
 * use only, which makes {@link #state()} exact for the concurrent server too.
 */
interface FuzzedServer {

    ServerStep receive(RpcMessage m);

    ServerStep complete(ConnId conn, Timestamp ts, Payload result);

    void writeLatest();

    void collectGarbage();

    /** The server process dies (its volatile table is lost) and comes back from the same storage. */
    void crashAndRecover();

    RpcServerState state();

    /**
     * A sequential core (or a broken one, built through its mutation seams): a crash is crash()
     * then recover().
     */
    static FuzzedServer of(RpcServerCore core) {
        return new FuzzedServer() {
            @Override
            public ServerStep receive(RpcMessage m) {
                return core.receive(m);
            }

            @Override
            public ServerStep complete(ConnId conn, Timestamp ts, Payload result) {
                return core.complete(conn, ts, result);
            }

            @Override
            public void writeLatest() {
                core.writeLatest();
            }

            @Override
            public void collectGarbage() {
                core.collectGarbage();
            }

            @Override
            public void crashAndRecover() {
                core.crash();
                core.recover();
            }

            @Override
            public RpcServerState state() {
                return core.state();
            }
        };
    }

    /** The servers under test: each test run starts one. */
    enum Kind {
        /** {@link RpcServerCore}, the one the TLC traces replay: a crash is crash() then recover(). */
        SEQUENTIAL_CORE {
            @Override
            FuzzedServer start(ScmpConfig config, InstantSource clock, StableStorage storage, long kappa) {
                return of(new RpcServerCore(config, clock, storage, kappa));
            }
        },
        /**
         * {@link ConcurrentRpcServer}, the one the UDP runtime uses: a crash is the death of the
         * process, so the object is dropped and {@link ConcurrentRpcServer#restart} builds the next.
         */
        CONCURRENT {
            @Override
            FuzzedServer start(ScmpConfig config, InstantSource clock, StableStorage storage, long kappa) {
                return new FuzzedServer() {
                    private ConcurrentRpcServer server = new ConcurrentRpcServer(config, clock, storage, kappa);

                    @Override
                    public ServerStep receive(RpcMessage m) {
                        return server.receive(m);
                    }

                    @Override
                    public ServerStep complete(ConnId conn, Timestamp ts, Payload result) {
                        return server.complete(conn, ts, result);
                    }

                    @Override
                    public void writeLatest() {
                        server.writeLatest();
                    }

                    @Override
                    public void collectGarbage() {
                        server.collectGarbage();
                    }

                    @Override
                    public void crashAndRecover() {
                        server = ConcurrentRpcServer.restart(config, clock, storage, kappa);
                    }

                    @Override
                    public RpcServerState state() {
                        return server.state();
                    }
                };
            }
        };

        /** A freshly created server of this kind (spec Init) over the given storage. */
        abstract FuzzedServer start(ScmpConfig config, InstantSource clock, StableStorage storage, long kappa);
    }
}
