package dev.onceproof.conformance.cli;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.verify.JUnitReport;
import dev.onceproof.conformance.verify.ResultsJson;
import dev.onceproof.conformance.verify.VerifyResults;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Model.CommandSpec;

/** What verify and verify merge print about claims and write as files. */
final class VerifyOutputs {

    private VerifyOutputs() {
    }

    /**
     * One line per family of claims, one line per claim that is not ok; adds the failures: a FAIL
     * verdict and an unreadable file always, a stale claim only under --strict-claims. A stale claim
     * does not fail the run by default because any change under a bench's inputs (impl's sources, for
     * the exactly-once bench) makes its claims stale, and rerunning a bench takes minutes: a code
     * change must not turn every verify red until then. It is printed, marked in the JSON and JUnit
     * (skipped, or a failure under --strict-claims), and the CI example runs --strict-claims nightly.
     */
    static void reportClaims(PrintWriter out, List<VerifyResults.Claim> claims, boolean strict, List<String> failures) {
        Map<String, int[]> byFamily = new TreeMap<>();
        for (VerifyResults.Claim c : claims) {
            int[] n = byFamily.computeIfAbsent(c.family(), k -> new int[5]);
            switch (c.status()) {
                case "ok" -> n[0]++;
                case "fail" -> n[1]++;
                case "stale" -> n[2]++;
                case "skipped" -> n[3]++;
                default -> n[4]++;
            }
            String what = c.id() == null ? c.file() : "bench/results/" + c.family() + " " + c.id()
                    + (c.location() == null ? "" : " (" + c.location() + ")");
            switch (c.status()) {
                case "fail" -> failures.add("claim " + what + ": FAIL: " + c.statement() + "; measured " + c.measured());
                case "error" -> failures.add("claims: " + c.reason());
                case "stale" -> {
                    if (strict) {
                        failures.add("claim " + what + ": stale: " + c.reason());
                    }
                }
                default -> { }
            }
        }
        byFamily.forEach((f, n) -> {
            out.println("claims/" + f + ": " + n[0] + " ok, " + n[1] + " fail, " + n[2] + " stale" + (n[2] > 0
                    ? (strict ? " (failing: --strict-claims)" : " (not failing; --strict-claims fails on them)") : "")
                    + (n[3] > 0 ? ", " + n[3] + " not run" : "") + (n[4] > 0 ? ", FILE UNREADABLE" : ""));
            claims.stream().filter(c -> c.family().equals(f) && c.status().equals("stale")).findFirst()
                    .ifPresent(c -> out.println("  stale: " + c.reason()));
        });
        out.flush();
    }

    /** Writes target/onceproof/last-results.json always, and --json and --junit when given. */
    static void write(PrintWriter out, Repo repo, VerifyResults results, Path json, Path junit, boolean strict) {
        ResultsJson.write(repo.root().resolve(ResultsJson.LAST_RESULTS), results);
        if (json != null) {
            ResultsJson.write(json, results);
            out.println("results: " + json);
        }
        if (junit != null) {
            out.println("JUnit XML: " + JUnitReport.write(junit, results, strict));
        }
        out.flush();
    }

    /** The git HEAD of the repository, or null when it is not a git checkout (or git is missing). */
    static String gitHead(Repo repo) {
        try {
            Process p = new ProcessBuilder("git", "-C", repo.root().toString(), "rev-parse", "HEAD")
                    .redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0 || !text.matches("[0-9a-f]{40}")) {
                return null;
            }
            return text;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /** "verify --family scmp ...": the arguments as given. */
    static String commandLine(CommandSpec spec) {
        List<String> args = spec.commandLine().getParseResult() == null ? List.of()
                : spec.commandLine().getParseResult().originalArgs();
        StringBuilder sb = new StringBuilder();
        for (String a : args) {
            sb.append(sb.length() == 0 ? "" : " ").append(a);
        }
        String s = sb.toString();
        return s.startsWith("verify") ? s : ("verify " + s).strip();
    }
}
