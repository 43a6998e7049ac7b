package dev.onceproof.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine's load, printed and recorded beside every benchmark figure so a reader can judge it. */
public final class LoadAverage {

    private LoadAverage() {
    }

    /** The 1, 5 and 15 minute load averages ("unknown" where /proc/loadavg cannot be read). */
    public static String now() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
