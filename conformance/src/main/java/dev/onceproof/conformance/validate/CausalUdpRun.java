package dev.onceproof.conformance.validate;

import dev.onceproof.causal.Mode;
import dev.onceproof.causal.runtime.LoopbackGroup;
import dev.onceproof.causal.runtime.ViewChangeRun;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A short real run of the causal runtime with every node's step log on: a {@link LoopbackGroup} of
 * three {@code CausalUdpNode}s on loopback (two receiver threads and a timer thread each, one
 * {@code ConcurrentCausalNode} per node), {@code events} broadcasts round robin, every datagram
 * dropped on receipt with probability {@code loss} (seeded), so requests, resends, duplicates and
 * heartbeats all happen; it waits until every node delivered every event. Returns n1.jsonl ...
 */
public final class CausalUdpRun {

    private CausalUdpRun() {
    }

    public static List<Path> run(Path dir, int events, double loss, long seed) throws Exception {
        // w 5 ms, RTO 20 ms, heartbeat 20 ms, 500 events/s: the group finishes in well under a second.
        LoopbackGroup.Options o = new LoopbackGroup.Options(3, events, loss, Mode.CAUSAL, seed, 500, 5, 20, 20, 20_000);
        LoopbackGroup.Result r = LoopbackGroup.run(o, new PrintStream(OutputStream.nullOutputStream()), dir);
        if (r.delivered() != r.expected()) {
            throw new IllegalStateException("the causal group delivered " + r.delivered() + " of " + r.expected()
                    + " events before its deadline");
        }
        List<Path> logs = new ArrayList<>();
        for (int k = 1; k <= o.nodes(); k++) {
            logs.add(dir.resolve("n" + k + ".jsonl"));
        }
        return logs;
    }

    /**
     * A view change over UDP ({@link ViewChangeRun}: n1 coordinating, 5% loss and 5% duplication, ten events a node
     * before and after): n3 crashes and is suspected, or is suspected falsely; n1.jsonl, n2.jsonl,
     * n3.jsonl and coordinator.jsonl. Throws unless the change ended with every property the run
     * checks holding.
     */
    public static List<Path> viewChange(Path dir, boolean crash, long seed) throws Exception {
        ViewChangeRun.Result r = ViewChangeRun.run(ViewChangeRun.Options.of(crash, 0.05, seed, 10, 10), dir);
        if (!r.ok()) {
            throw new IllegalStateException("the view change over UDP did not end well: " + r);
        }
        return r.logs();
    }
}
