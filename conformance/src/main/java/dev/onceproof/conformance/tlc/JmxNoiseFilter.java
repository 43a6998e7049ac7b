package dev.onceproof.conformance.tlc;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;

/**
 * The System.err of a TLC run in our JVM, less one thing a run in its own JVM never prints: TLC
 * registers its MBeans under fixed names ({@code tlc2.tool:type=ModelChecker}, {@code
 * tlc2.tool.fp:type=DiskFPSet0}) in the platform MBean server, which two runs side by side share, so
 * the second run's registration fails and TLC prints the exception's stack trace (and may print
 * another when it unregisters a name the other run removed). Those stack traces are dropped, line by
 * line; everything else goes on unchanged. Nothing reads the MBeans.
 */
final class JmxNoiseFilter extends OutputStream {

    private static final String[] NOISE = {
        "javax.management.InstanceAlreadyExistsException: tlc2.",
        "javax.management.InstanceNotFoundException: tlc2.",
    };

    private final OutputStream target;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();
    private boolean dropping;

    JmxNoiseFilter(OutputStream target) {
        this.target = target;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        line.write(b);
        if (b == '\n') {
            endLine();
        }
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        for (int i = off; i < off + len; i++) {
            write(b[i]);
        }
    }

    /** Passes on a last line without its line break. */
    @Override
    public synchronized void flush() throws IOException {
        target.flush();
    }

    synchronized void finish() throws IOException {
        if (line.size() > 0) {
            endLine();
        }
        target.flush();
    }

    private void endLine() throws IOException {
        String text = line.toString(Charset.defaultCharset());
        if (startsNoise(text)) {
            dropping = true;
        } else if (dropping && !(text.startsWith("\tat ") || text.startsWith("\t... "))) {
            dropping = false;
        }
        if (!dropping) {
            line.writeTo(target);
        }
        line.reset();
    }

    private static boolean startsNoise(String text) {
        for (String n : NOISE) {
            if (text.startsWith(n)) {
                return true;
            }
        }
        return false;
    }
}
