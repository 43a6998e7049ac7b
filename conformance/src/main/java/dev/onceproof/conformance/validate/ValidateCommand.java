package dev.onceproof.conformance.validate;

import dev.onceproof.conformance.manifest.Repo;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code onceproof validate LOG...}: is the run these step logs record a behaviour of the spec their
 * headers name? The logs of one run (a server's incarnations, its clients) are given together; with
 * --each every file is a run of its own.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
        description = "Check with TLC that step logs of a real run are a behaviour of their spec"
                + " (trace validation). Exit 0 if accepted, 1 if rejected, 2 on bad input.")
public final class ValidateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--repo", paramLabel = "DIR",
            description = "Repository root (default: the first directory upwards holding specs/manifest.json).")
    Path root;

    @Option(names = "--each", description = "Validate every file as a run of its own.")
    boolean each;

    @Parameters(arity = "1..*", paramLabel = "LOG", description = "Step logs (.jsonl) of one run.")
    List<Path> logs;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        Repo repo = root != null ? new Repo(root) : Repo.locate();
        TraceValidator validator = new TraceValidator(repo);
        List<List<Path>> runs = each ? logs.stream().map(List::of).toList() : List.of(logs);
        int rejected = 0;
        for (List<Path> run : runs) {
            Validation v;
            try {
                v = validator.validate(run);
            } catch (StepLogException e) {
                spec.commandLine().getErr().println("onceproof validate: " + e.getMessage());
                spec.commandLine().getErr().flush();
                return 2;
            }
            out.print(v.accepted() ? v.summary() + "\n" : v.report());
            out.flush();
            rejected += v.accepted() ? 0 : 1;
        }
        return rejected == 0 ? 0 : 1;
    }
}
