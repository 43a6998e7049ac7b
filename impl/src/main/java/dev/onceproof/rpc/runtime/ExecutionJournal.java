package dev.onceproof.rpc.runtime;

import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * An append-only file with one line per executed call, forced to disk before the call replies: the
 * durable record of a non-idempotent operation, which the crash test reads to count executions of
 * every call id across SIGKILLs.
 *
 * <p>Line format: {@code <conn> <ts> <args as hex>\n}. Connection ids are printable ASCII without
 * spaces ({@link ConnId}), so a space separates fields unambiguously.
 *
 * <p>A SIGKILL can cut a write that straddles a page boundary (Linux checks for fatal signals
 * between pages), leaving a line without its newline. That call never replied, so its execution
 * never completed: {@link #open} drops such a tail, saying so on stderr, and {@link #read} reports
 * it. Anything else that does not parse is corruption and is refused with its line number.
 */
public final class ExecutionJournal implements AutoCloseable {

    /** One complete line of the journal. */
    public record Entry(ConnId conn, Timestamp ts, byte[] args) {
        /** The call id as one string, {@code conn/ts}, for counting and for messages. */
        public String callId() {
            return conn + "/" + ts;
        }
    }

    /** What a journal file holds: its complete entries and the length of a torn tail (0 if none). */
    public record Contents(List<Entry> entries, int tornTailBytes) {
    }

    private final Path path;
    private final FileChannel channel;
    /** Invariant: the number of complete lines in the file; only grows, under this object's lock. */
    private long executions;

    private ExecutionJournal(Path path, FileChannel channel, long executions) {
        this.path = path;
        this.channel = channel;
        this.executions = executions;
    }

    /** Opens (creating if absent) a journal for appending, dropping a torn tail left by a crash. */
    public static ExecutionJournal open(Path path) throws IOException {
        Contents existing = Files.exists(path) ? read(path) : new Contents(List.of(), 0);
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE, StandardOpenOption.READ);
        long size = channel.size();
        if (existing.tornTailBytes() > 0) {
            channel.truncate(size - existing.tornTailBytes());
            channel.force(true);
            System.err.println("journal " + path + ": dropped a torn last line of "
                    + existing.tornTailBytes() + " bytes at offset " + channel.size()
                    + " (a write cut by a crash; that call never replied)");
        }
        channel.position(channel.size());
        return new ExecutionJournal(path, channel, existing.entries().size());
    }

    /**
     * Records one execution and forces it to disk before returning.
     *
     * @return the number of executions recorded, this one included
     */
    public synchronized long append(ConnId conn, Timestamp ts, byte[] args) {
        String line = conn.value() + " " + ts.value() + " " + HexFormat.of().formatHex(args) + "\n";
        ByteBuffer buf = ByteBuffer.wrap(line.getBytes(StandardCharsets.US_ASCII));
        try {
            while (buf.hasRemaining()) {
                channel.write(buf);
            }
            // Durable before the reply leaves: a call the client saw succeed is on disk.
            channel.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to journal " + path, e);
        }
        return ++executions;
    }

    public synchronized long executions() {
        return executions;
    }

    /** Reads a journal without changing it. */
    public static Contents read(Path path) throws IOException {
        byte[] bytes = Files.readAllBytes(path);
        List<Entry> entries = new ArrayList<>();
        int start = 0;
        int lineNo = 1;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                entries.add(parse(path, lineNo++, new String(bytes, start, i - start,
                        StandardCharsets.US_ASCII)));
                start = i + 1;
            }
        }
        return new Contents(List.copyOf(entries), bytes.length - start);
    }

    private static Entry parse(Path path, int lineNo, String line) {
        String[] fields = line.split(" ", -1);
        if (fields.length != 3) {
            throw new IllegalStateException("journal " + path + " line " + lineNo + " has "
                    + fields.length + " fields, expected 3 (conn ts hexargs): \"" + line + "\"");
        }
        try {
            return new Entry(ConnId.of(fields[0]), Timestamp.of(Long.parseLong(fields[1])),
                    HexFormat.of().parseHex(fields[2]));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("journal " + path + " line " + lineNo
                    + " does not parse: " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void close() throws IOException {
        channel.close();
    }
}
