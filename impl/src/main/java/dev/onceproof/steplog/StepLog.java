package dev.onceproof.steplog;

import java.io.Closeable;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * A log of abstract steps: a header line naming the spec module, its mode, the process and the
 * constants, then one JSON line per step, named after the spec's action, with its parameters and the
 * spec variables it changed (maps are partial: only the keys written changed).
 *
 * <p>How a step is logged, and why: the caller holds {@code synchronized (log)} around the step's
 * linearization point and the line ({@link #step} ... {@link #end}), so lines are in the order the
 * steps took effect, and calls {@link #end} before the step's effects leave the process (before a
 * reply is sent). {@link #end} hands the line to the operating system in one {@code write()}: a
 * SIGKILL afterwards cannot lose it, and no buffering reorders it. There is no fsync; a machine
 * crash is not what the logs are for.
 *
 * <p>{@link #OFF} is the log of a run that logs nothing: hooks test {@link #on()} (a final field)
 * first, so a step costs neither allocation nor I/O. {@code StepLogOffTest} measures that.
 *
 * <p>The JSON is written by hand (keys are spec identifiers, values longs, booleans, strings and
 * string-keyed maps of those) so that the library needs no JSON dependency; conformance reads it with
 * Jackson.
 */
public final class StepLog implements Closeable {

    /** Logs nothing; every hook checks {@link #on()} first. */
    public static final StepLog OFF = new StepLog(null, null);

    private final FileOutputStream out;
    private final Path file;
    private final StringBuilder line = new StringBuilder(256);
    private final boolean on;
    private long steps;

    private StepLog(FileOutputStream out, Path file) {
        this.out = out;
        this.file = file;
        this.on = out != null;
    }

    /** Creates (or truncates) {@code file} and writes the header line. */
    public static StepLog open(Path file, Header header) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            StepLog log = new StepLog(new FileOutputStream(file.toFile()), file);
            log.write(header.json());
            return log;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open step log " + file, e);
        }
    }

    public boolean on() {
        return on;
    }

    public Path file() {
        return file;
    }

    /** Steps written so far. */
    public synchronized long steps() {
        return steps;
    }

    /** Starts the line of one step; the caller holds this log's monitor until {@link #end}. */
    public StepLog step(String action) {
        line.setLength(0);
        line.append("{\"step\":").append(steps + 1).append(",\"action\":");
        quote(line, action);
        return this;
    }

    public StepLog field(String name, long value) {
        key(name).append(value);
        return this;
    }

    public StepLog field(String name, boolean value) {
        key(name).append(value);
        return this;
    }

    public StepLog field(String name, String value) {
        quote(key(name), value);
        return this;
    }

    /** A map-valued spec variable; only the keys given changed (or are asserted). */
    public StepLog field(String name, String entry, long value) {
        quote(key(name).append('{'), entry).append(':').append(value).append('}');
        return this;
    }

    public StepLog longs(String name, Map<String, Long> value) {
        key(name).append('{');
        boolean first = true;
        for (Map.Entry<String, Long> e : new TreeMap<>(value).entrySet()) {
            if (!first) {
                line.append(',');
            }
            first = false;
            quote(line, e.getKey()).append(':').append(e.getValue().longValue());
        }
        line.append('}');
        return this;
    }

    /** A set of numbers (a set-valued parameter such as a flush's seqs), as a JSON array in the order given. */
    public StepLog numbers(String name, Iterable<Long> values) {
        key(name).append('[');
        boolean first = true;
        for (long v : values) {
            if (!first) {
                line.append(',');
            }
            first = false;
            line.append(v);
        }
        line.append(']');
        return this;
    }

    /** A set-valued spec variable or parameter, as a JSON array of strings (the set's elements). */
    public StepLog strings(String name, Iterable<String> values) {
        key(name).append('[');
        boolean first = true;
        for (String v : values) {
            if (!first) {
                line.append(',');
            }
            first = false;
            quote(line, v);
        }
        line.append(']');
        return this;
    }

    /** Ends the line and writes it to the file in one write() call. */
    public void end() {
        line.append("}\n");
        steps++;
        write(line.toString());
    }

    private StringBuilder key(String name) {
        line.append(',');
        return quote(line, name).append(':');
    }

    private void write(String text) {
        try {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write step log " + file, e);
        }
    }

    static StringBuilder quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"');
    }

    @Override
    public synchronized void close() {
        if (out != null) {
            try {
                out.close();
            } catch (IOException e) {
                throw new UncheckedIOException("cannot close step log " + file, e);
            }
        }
    }

    /**
     * The first line of a log: which spec (module), which of its modes, which process wrote it, and
     * the values of the spec's constants the run used (bounds are derived from the log itself).
     */
    public static final class Header {
        private final StringBuilder json = new StringBuilder();

        public Header(String spec, String mode, String process) {
            json.append("{\"steplog\":1,\"spec\":");
            quote(json, spec).append(",\"mode\":");
            quote(json, mode).append(",\"process\":");
            quote(json, process).append(",\"constants\":{");
        }

        private StringBuilder key(String name) {
            if (json.charAt(json.length() - 1) != '{') {
                json.append(',');
            }
            return quote(json, name).append(':');
        }

        public Header constant(String name, long value) {
            key(name).append(value);
            return this;
        }

        public Header constant(String name, boolean value) {
            key(name).append(value);
            return this;
        }

        public Header constant(String name, String value) {
            quote(key(name), value);
            return this;
        }

        public Header strings(String name, Iterable<String> values) {
            StringBuilder sb = key(name).append('[');
            boolean first = true;
            for (String v : values) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                quote(sb, v);
            }
            sb.append(']');
            return this;
        }

        /** A string-keyed map whose values are longs or strings. */
        public Header map(String name, Map<String, ?> value) {
            StringBuilder sb = key(name).append('{');
            boolean first = true;
            for (Map.Entry<String, ?> e : new TreeMap<>(value).entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                quote(sb, e.getKey()).append(':');
                if (e.getValue() instanceof Number n) {
                    sb.append(n.longValue());
                } else {
                    quote(sb, String.valueOf(e.getValue()));
                }
            }
            sb.append('}');
            return this;
        }

        String json() {
            return json + "}}\n";
        }
    }
}
