package dev.onceproof.conformance.cli;

import dev.onceproof.rpc.core.CallOutcome;
import dev.onceproof.rpc.core.RetryPolicy;
import dev.onceproof.rpc.runtime.CallResult;
import dev.onceproof.rpc.runtime.ClientOptions;
import dev.onceproof.rpc.wire.KeyFileException;
import dev.onceproof.rpc.wire.Keyring;
import dev.onceproof.rpc.runtime.ReplyAcks;
import dev.onceproof.rpc.runtime.RpcUdpClient;
import dev.onceproof.scmp.ConnId;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code onceproof call}: makes at-most-once RPCs to a {@code serve} server. Each client is its own
 * socket and connection id (paper 2.2: one connection per concurrent call), so {@code --clients N}
 * runs N calls at a time. Every call ends in one of three outcomes and the summary counts each:
 * replied (ran once), rejected as a duplicate (will never run now; may have run before a server
 * crash), outcome unknown (no reply after all tries; ran at most once).
 */
@Command(name = "call", mixinStandardHelpOptions = true,
        description = "Make at-most-once RPCs to an onceproof server over UDP (paper 3.1).")
public final class CallCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", defaultValue = "127.0.0.1:7000", paramLabel = "HOST:PORT",
            description = "The server (default ${DEFAULT-VALUE}).")
    String server;

    @Option(names = "--count", defaultValue = "1", description = "Calls in all (default ${DEFAULT-VALUE}).")
    long count;

    @Option(names = "--clients", defaultValue = "1",
            description = "Clients calling at once, each with its own socket and connection id (default ${DEFAULT-VALUE}).")
    int clients;

    @Option(names = "--payload", defaultValue = "",
            description = "Arguments of every call, as UTF-8 text (default: none).")
    String payload;

    @Option(names = "--retransmit-ms", defaultValue = "500",
            description = "ms between transmissions of a CALL (default ${DEFAULT-VALUE}).")
    long retransmitMillis;

    @Option(names = "--tries", defaultValue = "5",
            description = "Transmissions of a CALL before its outcome is unknown (default ${DEFAULT-VALUE}).")
    int tries;

    @Option(names = "--reply-acks", defaultValue = "DEFERRED",
            description = "When to send the optional REPLY-ACK hint (3.1): IMMEDIATE, DEFERRED (only when a"
                    + " client closes; a next call supersedes it), OFF (default ${DEFAULT-VALUE}).")
    ReplyAcks replyAcks;

    @Option(names = "--max-lead-ms", defaultValue = "1000",
            description = "How far a client's millisecond timestamps may run ahead of the clock before its"
                    + " next call waits; keep it below the server's beta (default ${DEFAULT-VALUE}).")
    long maxLead;

    @Option(names = "--conn", description = "Connection id prefix (default: a random one per run).")
    String connPrefix;

    @Option(names = "--key-file",
            description = "Per-connection keys, as serve's --key-file: calls go out as wire format version 2"
                    + " under the connection's key and only authentic replies are taken.")
    Path keyFile;

    @Option(names = "--quiet", description = "No progress line.")
    boolean quiet;

    private final AtomicLong started = new AtomicLong();
    private final AtomicLong replied = new AtomicLong();
    private final AtomicLong rejected = new AtomicLong();
    private final AtomicLong unknown = new AtomicLong();
    private final AtomicReference<Exception> failure = new AtomicReference<>();
    private Keyring keys;

    @Override
    public Integer call() throws Exception {
        InetSocketAddress address = parseServer();
        validate();
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String prefix = connPrefix != null ? connPrefix
                : "cli-" + ProcessHandle.current().pid() + "-" + Integer.toHexString(ThreadLocalRandom.current().nextInt());
        RetryPolicy policy = new RetryPolicy(retransmitMillis, tries);
        if (keyFile != null) {
            try {
                keys = Keyring.load(keyFile);
            } catch (KeyFileException e) {
                err.println("error: " + e.getMessage());
                return 1;
            }
        }
        byte[] args = payload.getBytes(StandardCharsets.UTF_8);
        AtomicReference<CallResult> last = new AtomicReference<>();
        long start = System.nanoTime();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < clients; i++) {
            ConnId conn = ConnId.of(clients == 1 ? prefix : prefix + "-" + i);
            Thread t = new Thread(() -> runClient(address, conn, policy, args, last), "call-" + i);
            threads.add(t);
            t.start();
        }
        Progress progress = new Progress(err, count, quiet || count == 1);
        for (Thread t : threads) {
            while (t.isAlive()) {
                t.join(1_000);
                progress.update(done(), replied.get(), rejected.get(), unknown.get(), start);
            }
        }
        progress.finish(done(), replied.get(), rejected.get(), unknown.get(), start);
        if (failure.get() != null) {
            err.println("error: " + failure.get().getMessage());
            return 1;
        }
        double seconds = retransmitMillis * tries / 1000.0;
        if (count == 1) {
            CallResult r = last.get();
            return switch (r.outcome()) {
                case REPLIED -> {
                    out.println(render(r.replyOrThrow()));
                    yield 0;
                }
                case REJECTED_AS_DUPLICATE -> {
                    err.println("rejected as a duplicate by " + server + ": call " + prefix + "/" + r.ts()
                            + " will not run (it may have run before a server crash)");
                    yield 3;
                }
                default -> {
                    err.println("no reply from " + server + " after " + r.tries() + " tries over "
                            + seconds + " s: outcome unknown (the call ran at most once, maybe never)");
                    yield 4;
                }
            };
        }
        out.printf("%d calls to %s: %d replied, %d rejected as duplicates, %d outcome unknown (no reply"
                        + " after %d tries over %.1f s), %.1f s, %.0f calls/s%n", done(), server, replied.get(),
                rejected.get(), unknown.get(), tries, seconds, (System.nanoTime() - start) / 1e9,
                done() / ((System.nanoTime() - start) / 1e9));
        return replied.get() == count ? 0 : (unknown.get() > 0 ? 4 : 3);
    }

    private long done() {
        return replied.get() + rejected.get() + unknown.get();
    }

    private void runClient(InetSocketAddress address, ConnId conn, RetryPolicy policy, byte[] args,
                           AtomicReference<CallResult> last) {
        try (RpcUdpClient client = new RpcUdpClient(address, conn,
                ClientOptions.of(policy).withReplyAcks(replyAcks).withMaxLead(maxLead).withKeys(keys),
                InstantSource.system(), 0)) {
            while (failure.get() == null && started.getAndIncrement() < count) {
                CallResult r = client.call(args);
                last.set(r);
                (r.outcome() == CallOutcome.REPLIED ? replied
                        : r.outcome() == CallOutcome.REJECTED_AS_DUPLICATE ? rejected : unknown).incrementAndGet();
            }
        } catch (Exception e) {
            failure.compareAndSet(null, e);
        }
    }

    private InetSocketAddress parseServer() {
        CommandLine cl = spec.commandLine();
        int colon = server.lastIndexOf(':');
        if (colon <= 0 || colon == server.length() - 1) {
            throw new ParameterException(cl, "server \"" + server + "\" is not HOST:PORT, e.g. 127.0.0.1:7000");
        }
        int port;
        try {
            port = Integer.parseInt(server.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new ParameterException(cl, "server \"" + server + "\": port \"" + server.substring(colon + 1)
                    + "\" is not a number");
        }
        if (port < 1 || port > 65_535) {
            throw new ParameterException(cl, "server \"" + server + "\": port " + port + " is outside 1..65535");
        }
        try {
            return new InetSocketAddress(InetAddress.getByName(server.substring(0, colon)), port);
        } catch (UnknownHostException e) {
            throw new ParameterException(cl, "server \"" + server + "\": cannot resolve host \""
                    + server.substring(0, colon) + "\"");
        }
    }

    private void validate() {
        CommandLine cl = spec.commandLine();
        if (count < 1) {
            throw new ParameterException(cl, "--count " + count + " must be at least 1");
        }
        if (clients < 1 || clients > 10_000) {
            throw new ParameterException(cl, "--clients " + clients + " is outside 1..10000 (one thread and"
                    + " one socket each)");
        }
        if (clients > count) {
            throw new ParameterException(cl, "--clients " + clients + " is more than --count " + count
                    + "; each client makes at least one call");
        }
        if (maxLead < 0) {
            throw new ParameterException(cl, "--max-lead-ms " + maxLead + " is negative");
        }
        if (retransmitMillis < 1 || tries < 1) {
            throw new ParameterException(cl, "--retransmit-ms and --tries must be at least 1; got "
                    + retransmitMillis + " and " + tries);
        }
        if (connPrefix != null) {
            try {
                ConnId.of(clients == 1 ? connPrefix : connPrefix + "-" + (clients - 1));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(cl, "--conn \"" + connPrefix + "\": " + e.getMessage());
            }
        }
        if (payload.getBytes(StandardCharsets.UTF_8).length > dev.onceproof.rpc.wire.WireFormat.MAX_PAYLOAD) {
            throw new ParameterException(cl, "--payload of " + payload.getBytes(StandardCharsets.UTF_8).length
                    + " bytes is above the maximum " + dev.onceproof.rpc.wire.WireFormat.MAX_PAYLOAD
                    + " (one UDP datagram, paper 3.1)");
        }
    }

    /** Replies print as text when they are printable UTF-8, else as hex. */
    private static String render(byte[] reply) {
        String text = new String(reply, StandardCharsets.UTF_8);
        boolean printable = text.chars().allMatch(c -> c >= 0x20 && c != 0x7F && c != 0xFFFD);
        return printable ? text : "0x" + HexFormat.of().formatHex(reply);
    }

    /** A status line once a second for long runs: done/total, rate, outcomes. */
    private static final class Progress {
        private final PrintWriter err;
        private final long total;
        private final boolean silent;
        private final boolean console = System.console() != null;
        private boolean shown;
        private long lastPrint = System.nanoTime();

        Progress(PrintWriter err, long total, boolean silent) {
            this.err = err;
            this.total = total;
            this.silent = silent;
        }

        void update(long done, long ok, long rejected, long unknown, long start) {
            if (silent || done >= total || System.nanoTime() - lastPrint < 1_000_000_000L) {
                return;
            }
            print(done, ok, rejected, unknown, start);
        }

        void finish(long done, long ok, long rejected, long unknown, long start) {
            if (shown) {
                print(done, ok, rejected, unknown, start);
                if (console) {
                    err.println();
                }
            }
        }

        private void print(long done, long ok, long rejected, long unknown, long start) {
            double s = Math.max(1e-9, (System.nanoTime() - start) / 1e9);
            String line = String.format("%d/%d calls  %.0f/s  replied %d  rejected %d  unknown %d  %.0f s",
                    done, total, done / s, ok, rejected, unknown, s);
            // On a terminal the line is redrawn in place; in a log, one line per second.
            err.print(console ? "\r" + line : line + System.lineSeparator());
            err.flush();
            shown = true;
            lastPrint = System.nanoTime();
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new CallCommand()).execute(args));
    }
}
