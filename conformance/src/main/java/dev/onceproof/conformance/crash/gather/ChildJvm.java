package dev.onceproof.conformance.crash.gather;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One process of the crash test (a {@link GatherNodeMain} or {@link GatherClientMain} JVM on this
 * JVM's classpath). Its stdout lines go, tagged with its name and incarnation, into the one queue
 * the parent's loop reads, so the parent sees each process's lines in the order it printed them;
 * stderr is appended to a log file. Starting does not wait: the process announces itself with a
 * {@code ready} line.
 */
final class ChildJvm {

    /** A line a process printed; {@code line} null when its stdout ended (it died or exited). */
    record Event(String name, int incarnation, String line) {
    }

    private final String name;
    private final int incarnation;
    private final Process process;
    private final Writer stdin;
    private final Thread reader;

    private ChildJvm(String name, int incarnation, Process process, BlockingQueue<Event> events) {
        this.name = name;
        this.incarnation = incarnation;
        this.process = process;
        this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.US_ASCII);
        this.reader = new Thread(() -> read(events), "crash-" + name + "-" + incarnation);
        reader.setDaemon(true);
        reader.start();
    }

    static ChildJvm start(String name, int incarnation, Class<?> main, List<String> args, Path log,
            BlockingQueue<Event> events) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // Quick start over peak speed: a restart is downtime.
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx96m", "-Xshare:auto",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        command.addAll(args);
        Process p = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        return new ChildJvm(name, incarnation, p, events);
    }

    private void read(BlockingQueue<Event> events) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.US_ASCII))) {
            String line;
            while ((line = r.readLine()) != null) {
                events.add(new Event(name, incarnation, line));
            }
        } catch (IOException e) {
            // killed: the pipe is gone, which is the point
        }
        events.add(new Event(name, incarnation, null));
    }

    int incarnation() {
        return incarnation;
    }

    long pid() {
        return process.pid();
    }

    /** Writes one line; false if the process is gone (a line to a dead process is lost, as on a network). */
    boolean send(String line) {
        try {
            stdin.write(line + "\n");
            stdin.flush();
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * SIGKILL (through the handle: {@code Process.destroyForcibly} on Linux), and wait until it is
     * gone and every line it printed before dying is queued.
     */
    void kill() throws InterruptedException {
        process.toHandle().destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException(name + " pid " + process.pid() + " survived SIGKILL for 30 s");
        }
        reader.join(5_000);
    }

    /** End of input: the process finishes its loop and exits; killed if it does not within 30 s. */
    int stop() throws InterruptedException {
        try {
            stdin.close();
        } catch (IOException e) {
            // already gone
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            kill();
        }
        reader.join(5_000);
        return process.exitValue();
    }
}
