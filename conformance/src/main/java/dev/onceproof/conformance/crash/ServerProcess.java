package dev.onceproof.conformance.crash;

import dev.onceproof.conformance.cli.ServeCommand;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The RPC server as a separate JVM ({@code serve} from the CLI, on this JVM's classpath), so that a
 * crash is a real SIGKILL: the process dies with its heap, threads and sockets, and only what it
 * forced to disk survives.
 */
public final class ServerProcess {

    private static final Pattern LISTENING = Pattern.compile("listening on ([0-9.]+):([0-9]+)");

    private final Process process;
    private final int port;
    /** Copies the server's stdout to the log; done once the process has exited and the pipe drained. */
    private final Thread reader;

    private ServerProcess(Process process, int port, Thread reader) {
        this.process = process;
        this.port = port;
        this.reader = reader;
    }

    /**
     * Starts {@code serve} with {@code args} and waits until it prints its address.
     *
     * @param log where the server's stdout and stderr go (appended, one file for every incarnation)
     */
    public static ServerProcess start(List<String> args, Path log, long startTimeoutMillis)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        // Quick start matters more than peak speed here: the restart time is server downtime.
        command.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m", "-Xss512k"));
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), ServeCommand.class.getName()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile()));
        Process p = pb.start();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread reader = new Thread(() -> drain(p, log, port), "server-stdout-" + p.pid());
        reader.setDaemon(true);
        reader.start();
        try {
            return new ServerProcess(p, port.get(startTimeoutMillis, TimeUnit.MILLISECONDS), reader);
        } catch (TimeoutException | ExecutionException e) {
            p.destroyForcibly().waitFor();
            throw new IOException("server did not print \"listening on\" within " + startTimeoutMillis
                    + " ms (exit " + (p.isAlive() ? "none" : p.exitValue()) + "); see " + log, e);
        }
    }

    /** Copies stdout to the log and completes {@code port} from the "listening on" line. */
    private static void drain(Process p, Path log, CompletableFuture<Integer> port) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                java.nio.file.Files.writeString(log, "[pid " + p.pid() + "] " + line + System.lineSeparator(),
                        StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                        java.nio.file.StandardOpenOption.APPEND);
                Matcher m = LISTENING.matcher(line);
                if (m.find()) {
                    port.complete(Integer.parseInt(m.group(2)));
                }
            }
            port.completeExceptionally(new IOException("server stdout ended before \"listening on\""));
        } catch (IOException e) {
            port.completeExceptionally(e);
        }
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    /**
     * SIGKILL (destroyForcibly on Linux) and wait until the process is gone. Through the process
     * handle, because Process.destroy* also closes our end of its stdout and the log would lose
     * whatever the server printed last.
     */
    public void kill() throws InterruptedException {
        process.toHandle().destroyForcibly();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            throw new IllegalStateException("server pid " + process.pid() + " survived SIGKILL for 30 s");
        }
        reader.join(5_000);
    }

    /** SIGTERM: the server's shutdown hook closes it cleanly (and prints its counters). */
    public int stop() throws InterruptedException {
        process.toHandle().destroy();
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            kill();
        }
        reader.join(5_000); // so the log holds everything the server printed on its way out
        return process.exitValue();
    }

    public boolean isAlive() {
        return process.isAlive();
    }
}
