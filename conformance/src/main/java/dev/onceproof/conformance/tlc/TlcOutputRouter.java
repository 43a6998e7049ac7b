package dev.onceproof.conformance.tlc;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * System.out and System.err for TLC runs inside our JVM. TLC writes its -tool messages through
 * {@code util.ToolIO}, whose streams are per class loader and set per run; but a few of its classes
 * write to System.out or System.err directly (a cfg it cannot parse, a stack trace), and those two
 * streams are JVM-wide. This stream sits in place of both and sends what a thread writes to the
 * stream of the TLC run the thread belongs to, and everything else where it went before. A run's
 * threads are found by an inheritable thread-local: it is set on the thread that starts TLC, and
 * every thread TLC starts (its workers, its timers) inherits it.
 */
final class TlcOutputRouter extends OutputStream {

    private static final InheritableThreadLocal<OutputStream[]> TARGETS = new InheritableThreadLocal<>();
    private static PrintStream routedOut;
    private static PrintStream routedErr;

    private final OutputStream fallback;
    private final int which;

    private TlcOutputRouter(OutputStream fallback, int which) {
        this.fallback = fallback;
        this.which = which;
    }

    /**
     * Puts the router in place of System.out and System.err, unless it is there already (someone
     * who replaced System.out since, a test capturing it, gets routed around in turn).
     */
    static synchronized void install() {
        if (System.out != routedOut) {
            routedOut = new PrintStream(new TlcOutputRouter(System.out, 0), true);
            System.setOut(routedOut);
        }
        if (System.err != routedErr) {
            routedErr = new PrintStream(new TlcOutputRouter(System.err, 1), true);
            System.setErr(routedErr);
        }
    }

    /** Routes what this thread, and every thread it starts from now on, writes to System.out and System.err. */
    static void routeThisThread(OutputStream out, OutputStream err) {
        TARGETS.set(new OutputStream[] {out, err});
    }

    private OutputStream target() {
        OutputStream[] t = TARGETS.get();
        return t == null ? fallback : t[which];
    }

    @Override
    public void write(int b) throws IOException {
        target().write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        target().write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        target().flush();
    }
}
