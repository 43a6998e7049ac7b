package dev.onceproof.bench.jmh;

import dev.onceproof.rpc.core.ClientEffect;
import dev.onceproof.rpc.core.ConcurrentRpcServer;
import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.rpc.core.RpcClientCore;
import dev.onceproof.rpc.core.ServerEffect;
import dev.onceproof.rpc.core.ServerStep;
import dev.onceproof.rpc.wire.DecodeResult;
import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcDecoder;
import dev.onceproof.rpc.wire.RpcEncoder;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.rpc.wire.WireFormat;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.storage.InMemoryStableStorage;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What one null call costs in protocol work alone, without sockets: the SCMP-RPC path (client core,
 * encode, decode, the runtime's server {@link ConcurrentRpcServer} with its SCMP filter, completion,
 * reply encode and decode, client core) against the UDP baseline's (a transaction id written and
 * read back). The difference is the CPU the protocol adds to every loopback round trip in bench
 * rpc, where a round trip of the sockets themselves costs a few microseconds.
 *
 * <p>The codec is used as the UDP runtime uses it: each message is encoded into a buffer reused for
 * every call and decoded from the array it arrived in, with the connection id the receiver expects
 * (the client's own; on the server the previous datagram's), so no array or id is built per call
 * that the runtime would not build.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RpcProtocolCostBenchmark {

    private ManualInstantSource clock;
    private ConcurrentRpcServer server;
    private RpcClientCore client;
    private long calls;
    private final ByteBuffer udpRequest = ByteBuffer.allocate(8);
    /** The server's and the client's datagram buffers, as the runtime keeps one per thread. */
    private final byte[] toServer = new byte[WireFormat.MAX_DATAGRAM];
    private final byte[] toClient = new byte[WireFormat.MAX_DATAGRAM];
    private ConnId lastAtServer;
    private long xid;

    @Setup(Level.Iteration)
    public void setUp() {
        clock = new ManualInstantSource(1_000_000_000L);
        // beta and rho far beyond an iteration, as in bench rpc: nothing is too early or collected.
        ScmpConfig config = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, 3_600_000_000L, 0, 300_000);
        server = new ConcurrentRpcServer(config, clock, new InMemoryStableStorage(), 300_000);
        client = new RpcClientCore(ConnId.of("bench-client-1"), clock, new RetryPolicy(200, 25));
    }

    @Benchmark
    public Object scmpRpcNullCall() {
        // The clock moves a millisecond per call so timestamps stay on it, as on a paced connection.
        clock.set(1_000_000_000L + ++calls);
        RpcMessage call = ((ClientEffect.Send) client.call(Payload.EMPTY).effects().get(0)).message();
        int callLength = RpcEncoder.encode(call, ByteBuffer.wrap(toServer));
        RpcMessage received = ((DecodeResult.Decoded) RpcDecoder.decode(toServer, 0, callLength, lastAtServer))
                .message();
        lastAtServer = received.conn();
        ServerStep step = server.receive(received);
        ServerEffect.Execute x = (ServerEffect.Execute) step.effects().get(0);
        ServerStep done = server.complete(x.conn(), x.ts(), Payload.EMPTY);
        int replyLength = RpcEncoder.encode(((ServerEffect.Send) done.effects().get(0)).message(),
                ByteBuffer.wrap(toClient));
        RpcMessage reply = ((DecodeResult.Decoded) RpcDecoder.decode(toClient, 0, replyLength, client.conn()))
                .message();
        return client.receive(reply);
    }

    @Benchmark
    public long udpBaselineNullCall() {
        // What the UDP baseline does per call besides the sockets: write a transaction id, read it back.
        udpRequest.clear();
        udpRequest.putLong(++xid).flip();
        return udpRequest.getLong(0);
    }
}
