package dev.onceproof.conformance.cli;

import dev.onceproof.conformance.manifest.Repo;
import dev.onceproof.conformance.replay.ReplayResult;
import dev.onceproof.conformance.replay.StoredTraces;
import dev.onceproof.conformance.replay.ReplayerRegistry;
import dev.onceproof.conformance.replay.TraceReplayer;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code onceproof replay [files...]}: replays trace files on the Java cores. */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = "Replay trace files on the Java cores (default: every file under traces/).")
public final class ReplayCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    RepoOption repoOption = new RepoOption();

    @Parameters(arity = "0..*", paramLabel = "FILE", description = "Trace files (.jsonl).")
    List<Path> files;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Repo repo = repoOption.repo();
        List<Path> targets = files == null || files.isEmpty() ? StoredTraces.all(repo) : files;
        for (Path f : targets) {
            // Checked before any replay: a typo in the fifth name must not leave four results and a stack trace.
            if (!Files.isRegularFile(f)) {
                spec.commandLine().getErr().println("onceproof replay: " + f + ": "
                        + (Files.exists(f) ? "not a regular file" : "no such file"));
                spec.commandLine().getErr().flush();
                return Main.INPUT_ERROR;
            }
        }
        TraceReplayer replayer = new TraceReplayer(ReplayerRegistry.standard());
        int failed = 0;
        for (Path f : targets) {
            ReplayResult r = replayer.replay(f);
            String name = f.isAbsolute() && f.startsWith(repo.root()) ? repo.root().relativize(f).toString() : f.toString();
            out.println(r.passed() ? "ok    " + name + " (" + r.steps() + " steps)" : "FAIL  " + r.report());
            failed += r.passed() ? 0 : 1;
        }
        out.println(targets.size() + " traces replayed, " + failed + " failed");
        out.flush();
        return failed == 0 ? 0 : 1;
    }
}
