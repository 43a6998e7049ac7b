package dev.onceproof.conformance.auth;

import dev.onceproof.conformance.tlc.TextTable;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * {@code onceproof attack}: forged datagrams for a victim connection against the RPC server, with
 * real processes on loopback, without keys and with them ({@link AuthAttack}); PASS when with keys
 * no victim call is wrongly rejected and no forged call executes.
 */
@Command(name = "attack", mixinStandardHelpOptions = true,
        description = {"An attacker process forges CALLs for a victim connection while the victim calls;"
                + " counts victim calls wrongly rejected and forged calls executed, without and with keys."})
public final class AttackCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--calls", defaultValue = "50", description = "Victim calls per run (default ${DEFAULT-VALUE}).")
    int calls;

    @Option(names = "--dir", description = "Where the logs, journals and key file go (default: a new temp dir).")
    Path dir;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        Path where = dir != null ? Files.createDirectories(dir) : Files.createTempDirectory("onceproof-attack-");
        out.println("server, attacker and victim on loopback; logs and journals in " + where);
        out.flush();
        AuthAttack.Result plain = AuthAttack.run(where, false, calls);
        AuthAttack.Result keyed = AuthAttack.run(where, true, calls);
        TextTable t = new TextTable("run", "victim calls", "replied", "wrongly rejected", "unknown",
                "forged calls executed", "unauthenticated dropped");
        for (AuthAttack.Result r : new AuthAttack.Result[] {plain, keyed}) {
            t.row(r.keys() ? "with keys (wire v2)" : "without keys (wire v1)", r.victimCalls(), r.replied(),
                    r.wronglyRejected(), r.unknown(), r.forgedExecuted(), r.unauthenticatedDropped());
        }
        out.print(t.render());
        boolean pass = keyed.wronglyRejected() == 0 && keyed.forgedExecuted() == 0;
        out.println((pass ? "PASS" : "FAIL") + ": with keys, victim calls wrongly rejected "
                + keyed.wronglyRejected() + " and forged calls executed " + keyed.forgedExecuted()
                + " (issue 13: both must be 0); without keys " + plain.wronglyRejected() + " and "
                + plain.forgedExecuted());
        out.flush();
        return pass ? 0 : 1;
    }
}
