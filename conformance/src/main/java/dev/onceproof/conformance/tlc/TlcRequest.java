package dev.onceproof.conformance.tlc;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * One TLC run.
 *
 * @param module        the .tla file to check
 * @param cfg           its .cfg file
 * @param library       extra module directories (-DTLA-Library), e.g. specs/scmp so a mutant in
 *                      specs/scmp/mutants/ can EXTENDS SCMP
 * @param checkDeadlock false passes -deadlock, which tells TLC not to report deadlocks: bounded
 *                      protocol models stop at their bounds, which is not a protocol deadlock
 * @param extraArgs     more TLC arguments (-simulate ..., -coverage 1)
 * @param timeout       the run is killed after this long and reported as a timeout
 */
public record TlcRequest(Path module, Path cfg, List<Path> library, boolean checkDeadlock,
                         List<String> extraArgs, Duration timeout) {

    public TlcRequest {
        library = List.copyOf(library);
        extraArgs = List.copyOf(extraArgs);
    }

    public static TlcRequest modelCheck(Path module, Path cfg, Path library, boolean checkDeadlock,
                                        Duration timeout) {
        return new TlcRequest(module, cfg, List.of(library), checkDeadlock, List.of(), timeout);
    }

    public TlcRequest withArgs(List<String> more) {
        List<String> all = new java.util.ArrayList<>(extraArgs);
        all.addAll(more);
        return new TlcRequest(module, cfg, library, checkDeadlock, all, timeout);
    }
}
