package dev.onceproof.conformance.crash.gather;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The application behind the atomic delivery {@code aDeliver(c, m)} of the crash test (3.3.1,
 * L185-193), and the primitive's own permanent log (L193: "the return value of aDeliver(T, m) is
 * always logged in permanent storage ... even if the server crashes right at the moment when the
 * function returns, it is still able to figure out later the outcome of the call from the log").
 * One line per processing, {@code <note id> <session>}, appended and forced to disk (fsync) before
 * the call returns success: a line on disk is the processing, so the number of lines for a note is
 * the paper's rho(c, m), and the parent counts processings by reading the files after the kills.
 *
 * <p>Why a file of its own and not the same write as the core's success record: the core logs the
 * attempt, the runtime calls the primitive, then the core logs the success with D (Z9). Keeping the
 * processing and the success record in two writes leaves the window the paper is about (a server
 * killed between the call and its logged outcome), and the restart must close it by reading this
 * log ({@code GatherNodeMain} resolves the core's unresolved attempts from it). One write would make
 * that recovery path vacuous.
 *
 * <p>A SIGKILL can leave a last line without its newline only if the write itself never completed;
 * such a tail is no processing (the call never returned success) and is cut off when the journal is
 * opened for appending.
 */
public final class ProcessedJournal implements AutoCloseable {

    /** One processing: the note and the session whose call processed it. */
    public record Entry(String note, long session) {
    }

    private final Path file;
    private final FileChannel channel;

    private ProcessedJournal(Path file, FileChannel channel) {
        this.file = file;
        this.channel = channel;
    }

    /** Opens (creating) the journal for appending, cutting an unfinished last line. */
    public static ProcessedJournal open(Path file) {
        try {
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            long complete = completeLength(Files.readAllBytes(file));
            if (complete < ch.size()) {
                ch.truncate(complete);
                ch.force(true);
            }
            ch.position(complete);
            return new ProcessedJournal(file, ch);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the aDeliver journal " + file, e);
        }
    }

    /** The processings on disk (complete lines only); none for a journal never written. */
    public static List<Entry> read(Path file) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the aDeliver journal " + file, e);
        }
        String text = new String(bytes, 0, (int) completeLength(bytes), StandardCharsets.US_ASCII);
        List<Entry> out = new ArrayList<>();
        int lineNo = 0;
        for (String line : text.split("\n")) {
            lineNo++;
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(" ");
            if (f.length != 2 || !f[1].chars().allMatch(Character::isDigit) || f[1].isEmpty()) {
                throw new IllegalStateException("aDeliver journal " + file + " line " + lineNo + " is \"" + line
                        + "\", not \"<note id> <session>\"");
            }
            out.add(new Entry(f[0], Long.parseLong(f[1])));
        }
        return out;
    }

    /**
     * Note -> the servers whose journals hold a processing of it, once per line (so a note processed
     * twice is listed twice), reading {@code dir/<server>/processed} for each server.
     */
    public static Map<String, List<String>> where(Path dir, List<String> servers) {
        Map<String, List<String>> out = new TreeMap<>();
        for (String s : servers) {
            for (Entry e : read(dir.resolve(s).resolve("processed"))) {
                out.computeIfAbsent(e.note(), k -> new ArrayList<>()).add(s);
            }
        }
        return out;
    }

    private static long completeLength(byte[] bytes) {
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
            end--;
        }
        return end;
    }

    /** Processes note {@code note} for {@code session}: the line is on disk when this returns. */
    public void append(String note, long session) {
        ByteBuffer buf = ByteBuffer.wrap((note + " " + session + "\n").getBytes(StandardCharsets.US_ASCII));
        try {
            while (buf.hasRemaining()) {
                channel.write(buf);
            }
            channel.force(true);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot append to the aDeliver journal " + file, e);
        }
    }

    /** Whether the journal holds a processing of {@code note} (the primitive's logged outcome). */
    public boolean contains(String note) {
        return read(file).stream().anyMatch(e -> e.note().equals(note));
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}
