package dev.onceproof.conformance.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import dev.onceproof.conformance.TestDepth;
import dev.onceproof.rpc.core.ClientState;
import dev.onceproof.rpc.core.ClientStep;
import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.rpc.core.RpcClientCore;
import dev.onceproof.rpc.core.RpcServerCore;
import dev.onceproof.rpc.core.RpcServerState;
import dev.onceproof.rpc.core.ServerEntry;
import dev.onceproof.rpc.core.ServerEffect;
import dev.onceproof.rpc.core.ServerOutcome;
import dev.onceproof.rpc.core.ServerStep;
import dev.onceproof.rpc.wire.DatagramAuth;
import dev.onceproof.rpc.wire.DecodeResult;
import dev.onceproof.rpc.wire.Keyring;
import dev.onceproof.rpc.wire.WireFormat;
import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.rpc.wire.RpcDecoder;
import dev.onceproof.rpc.wire.RpcEncoder;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.ManualInstantSource;
import dev.onceproof.scmp.RecoveryScheme;
import dev.onceproof.scmp.ScmpConfig;
import dev.onceproof.storage.InMemoryStableStorage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * DESIGN.md, "Errors and input": a malformed datagram "gets a clear error that names what and
 * where, and never changes protocol state". Seeded datagrams (100,000 per run in the build, the
 * million of earlier versions under {@code -Pdeep}; {@link TestDepth}), most of them mutations of
 * valid encodings, go through the decoder and, when they decode, into an RPC server, which a small
 * harness drives like the runtime would (computations complete a little later; the clock moves;
 * latest is written; garbage is collected; the server crashes and recovers now and then). It runs
 * once per {@link FuzzedServer}: the sequential core, which the TLC traces replay, and the
 * concurrent server the UDP runtime uses, so the input the runtime takes from the network is fuzzed
 * on the code that judges it there.
 *
 * <p>Checked for every datagram: nothing throws; a malformed one is refused with an offset inside
 * the datagram; a decoded one re-encodes to the same bytes (the decoder is strict); every step
 * except starting a call (EXECUTE) or taking a REPLY-ACK (IDLE) leaves the server state equal to
 * what it was; and no call is started twice (at-most-once, across the crashes). Decoded datagrams
 * also go to a client core of connection c1 with a call always outstanding: what it ignores leaves
 * its state unchanged. The counts are printed as a table (client rows count decoded datagrams).
 *
 * <p>The control ({@link #aCoreThatRunsADuplicateAgainWhileReplyingIsCaught}): the same run on a
 * core whose {@code duplicateWhileReplying} seam starts the call again instead of retransmitting the
 * stored reply must report a call started twice, at the build's size.
 */
class RpcDatagramFuzzTest {

    /**
     * Per run; the build's run is the first tenth of the deep one, datagram for datagram. Measured
     * (seed below, deep run): every server and client outcome the runs assert first appears by
     * datagram 25,635 (v2's first ack), every malformed kind but TOO_LONG by 2,164; TOO_LONG first
     * at 78,778 in the v2 run and 364,748 in the v1 runs, so the build asserts it in the v2 run only
     * ({@code RpcDecoderTest} and {@code RpcCodecProperties} decode over-long datagrams in every build).
     * The control below is caught first at datagram 442 (ten failures by 6,152).
     */
    private static final int DATAGRAMS = TestDepth.pick(100_000, 1_000_000);
    /** A crash and recovery every 50,000 datagrams: one in the middle of the build's run. */
    private static final int CRASH_EVERY = 50_000;
    private static final long SEED = 20_260_421L;
    private static final long KAPPA = 30;
    /** Outcomes that may change the server's state: every other one must leave it as it was. */
    private static final Set<ServerOutcome> CHANGES_STATE = EnumSet.of(ServerOutcome.EXECUTE, ServerOutcome.IDLE);

    private final long[] clock = {10_000};
    private final ManualInstantSource source = new ManualInstantSource(clock[0]);
    private final ScmpConfig config = ScmpConfig.singleClass(RecoveryScheme.RESILIENT, 1_000, 5, 20);
    private final InMemoryStableStorage storage = new InMemoryStableStorage();
    /** The server under test, started by the parameterized test. */
    private FuzzedServer server;
    /** A client of connection c1 that always has a call outstanding, fed the same datagrams. */
    private final RpcClientCore client = new RpcClientCore(ConnId.of("c1"), source, new RetryPolicy(1, 1));

    private final Map<String, Long> counts = new TreeMap<>();
    private final Map<String, Long> byKind = new TreeMap<>();
    private final Set<String> started = new HashSet<>();
    private final ArrayDeque<ServerEffect.Execute> running = new ArrayDeque<>();
    private final List<String> failures = new ArrayList<>();

    /** Null: wire format version 1; else version 2 datagrams opened with these keys. */
    private Keyring keys;

    @ParameterizedTest(name = "{0}")
    @EnumSource(FuzzedServer.Kind.class)
    void datagramsNeverThrowNeverChangeStateWhenRefusedAndNeverRunACallTwice(FuzzedServer.Kind kind) {
        run(kind, null);
        assertThat(counts.keySet()).contains("malformed TOO_SHORT", "malformed TRAILING_BYTES",
                "malformed BAD_MAGIC", "malformed UNKNOWN_TYPE", "malformed BAD_CONN_LENGTH",
                "malformed INVALID_CONN_ID", "malformed BAD_PAYLOAD_LENGTH");
        if (TestDepth.deep()) {
            assertThat(counts.keySet()).contains("malformed TOO_LONG");
        }
    }

    /**
     * Wire format version 2 (issue 13): the same datagrams, sealed or forged by {@link Sealer},
     * opened with the keys on the concurrent server the runtime uses. An unauthenticated datagram is
     * checked like a malformed one: it must leave the server's state as it was.
     */
    @Test
    void version2DatagramsOnTheConcurrentServer() {
        run(FuzzedServer.Kind.CONCURRENT, Sealer.KEYS);
        assertThat(counts.keySet()).contains("unauthenticated", "malformed TOO_SHORT", "malformed TRAILING_BYTES",
                "malformed UNKNOWN_VERSION", "malformed TOO_LONG");
        assertThat(byKind.keySet()).contains("v2 sealed", "v2 bit flip", "v2 forger's key", "v2 unknown key id",
                "v2 bare version 1", "v2 cut trailer", "v2 extended", "v2 malformed body");
    }

    /**
     * The control: Figure 3-1, 3 ("if state is REPLYING, retransmit stored reply") removed through
     * {@link RpcServerCore}'s seam, so a retransmitted call whose reply is stored runs again. The
     * fuzzer's replayed encodings must find it at the build's size.
     */
    @Test
    void aCoreThatRunsADuplicateAgainWhileReplyingIsCaught() {
        RpcServerCore broken = new RpcServerCore(config, source, storage, KAPPA) {
            @Override
            protected ServerStep duplicateWhileReplying(ConnId conn, ServerEntry entry, RpcMessage.Call fullCall) {
                return startComputing(fullCall);
            }
        };
        fuzz("control: duplicate while REPLYING runs again", FuzzedServer.of(broken), null);
        assertThat(failures).anyMatch(f -> f.contains("started twice"));
    }

    private void run(FuzzedServer.Kind kind, Keyring keyring) {
        fuzz(kind + (keyring == null ? ", wire v1" : ", wire v2 (authenticated)"), kind.start(config, source, storage,
                KAPPA), keyring);
        assertThat(failures).isEmpty();
        long judged = counts.entrySet().stream().filter(e -> !e.getKey().startsWith("client "))
                .mapToLong(Map.Entry::getValue).sum();
        assertThat(judged).isEqualTo(DATAGRAMS);
        // The mutations must reach every layer, or the run proves little.
        assertThat(counts.keySet()).contains("server execute", "server ack", "server retransmitReply", "server reject",
                "server ignore", "server idle", "client ignore", "client ReceiveAck", "client ReceiveReply",
                "client ReceiveReject");
    }

    /** Feeds the datagrams to {@code fuzzed} until the end or the tenth failure, and prints the table. */
    private void fuzz(String title, FuzzedServer fuzzed, Keyring keyring) {
        keys = keyring;
        server = fuzzed;
        DatagramMutator mutator = new DatagramMutator(SEED, clock);
        Sealer sealer = new Sealer(SEED);
        String[] how = new String[1];
        long began = System.nanoTime();
        int i = 0;
        for (; i < DATAGRAMS && failures.size() < 10; i++) {
            environment(i);
            DatagramMutator.Kind made = mutator.nextKind();
            byte[] datagram = mutator.make(made);
            if (keys != null) {
                datagram = sealer.seal(datagram, how);
                byKind.merge(how[0], 1L, Long::sum);
            }
            byKind.merge(made.name(), 1L, Long::sum);
            deliver(i, datagram);
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        printTable(title, i, seconds);
    }

    /** What the runtime does between datagrams: time, completions, latest, GC, rare crashes. */
    private void environment(int i) {
        if (i % 40 == 0) {
            clock[0]++;
            source.set(clock[0]);
            // The client times its call out and makes a new one, so its call id follows the clock.
            client.timerExpired();
            if (client.outstanding().isEmpty()) {
                client.call(Payload.EMPTY);
            }
        }
        if (!running.isEmpty() && (i % 25 == 0)) {
            ServerEffect.Execute e = running.poll();
            server.complete(e.conn(), e.ts(), Payload.ofUtf8("result " + e.ts()));
        }
        if (i % 500 == 0) {
            server.writeLatest();
            server.collectGarbage();
        }
        if (i % CRASH_EVERY == CRASH_EVERY - 1) {
            server.crashAndRecover();
            running.clear(); // the workers die with the process
        }
    }

    private void deliver(int i, byte[] datagram) {
        try {
            RpcServerState before = server.state();
            DecodeResult r = keys == null ? RpcDecoder.decode(datagram)
                    : DatagramAuth.open(datagram, 0, datagram.length, null, keys);
            if (r instanceof DecodeResult.Unauthenticated u) {
                count("unauthenticated");
                if (u.detail().isEmpty()) {
                    fail(i, datagram, "unauthenticated without a reason");
                }
                if (!server.state().equals(before)) {
                    fail(i, datagram, "state changed on an unauthenticated datagram");
                }
                return;
            }
            if (r instanceof DecodeResult.Malformed bad) {
                count("malformed " + bad.error());
                if (bad.offset() < 0 || bad.offset() > datagram.length || bad.detail().isEmpty()) {
                    fail(i, datagram, "malformed report " + bad + " is not inside the datagram");
                }
                if (!server.state().equals(before)) {
                    fail(i, datagram, "state changed on a malformed datagram");
                }
                return;
            }
            DecodeResult.Decoded d = (DecodeResult.Decoded) r;
            byte[] again = keys == null ? RpcEncoder.encode(d.message()) : DatagramAuth.seal(d.message(),
                    keys.key(d.message().conn(), datagram[datagram.length - WireFormat.AUTH_TRAILER] & 0xFF));
            if (!java.util.Arrays.equals(again, datagram)) {
                fail(i, datagram, "decoded " + d.message() + " does not re-encode to the same bytes");
            }
            ClientState clientBefore = client.state();
            ClientStep cs = client.receive(d.message());
            count("client " + (cs.ignored() ? "ignore" : cs.action()));
            if (cs.ignored() && !client.state().equals(clientBefore)) {
                fail(i, datagram, "the client ignored " + d.message() + " but changed state");
            }
            if (client.outstanding().isEmpty()) {
                client.call(Payload.EMPTY);
            }
            ServerStep step = server.receive(d.message());
            count("server " + step.outcome().specName());
            if (!CHANGES_STATE.contains(step.outcome()) && !server.state().equals(before)) {
                fail(i, datagram, "outcome " + step.outcome() + " changed the state from " + before
                        + " to " + server.state());
            }
            for (ServerEffect e : step.effects()) {
                if (e instanceof ServerEffect.Execute x) {
                    if (!started.add(x.conn() + "/" + x.ts())) {
                        fail(i, datagram, "call " + x.conn() + "/" + x.ts() + " started twice");
                    }
                    running.add(x);
                }
            }
        } catch (RuntimeException | Error e) {
            count("EXCEPTION " + e.getClass().getSimpleName());
            fail(i, datagram, "threw " + e);
        }
    }

    private void count(String outcome) {
        counts.merge(outcome, 1L, Long::sum);
    }

    private void fail(int i, byte[] datagram, String why) {
        failures.add("datagram #" + i + " (" + HexFormat.of().formatHex(datagram, 0, Math.min(64, datagram.length))
                + (datagram.length > 64 ? "..." : "") + "): " + why);
    }

    private void printTable(String kind, int fed, double seconds) {
        StringBuilder out = new StringBuilder();
        out.append(String.format("%nRPC datagram fuzz, %s: %,d datagrams, seed %d, %.1f s (%,.0f per second)%n",
                kind, fed, SEED, seconds, fed / seconds));
        out.append(String.format("%-34s %10s%n", "outcome", "count"));
        counts.forEach((k, v) -> out.append(String.format("%-34s %,10d%n", k, v)));
        out.append(String.format("%-34s %10s%n", "made as", "count"));
        byKind.forEach((k, v) -> out.append(String.format("%-34s %,10d%n", k, v)));
        out.append(String.format("distinct calls started: %,d; failures: %d%n", started.size(), failures.size()));
        failures.forEach(f -> out.append("  ").append(f).append('\n'));
        System.out.print(out);
    }
}
