package dev.onceproof.conformance.crash.gather;

import java.io.PrintStream;
import java.util.List;
import java.util.SortedSet;

/**
 * What the Strategy 4-6 crash test found: the servers' aDeliver journals (the processings) against
 * the acknowledgements and calls the parent saw.
 *
 * @param processedTwice notes the journals hold more than once, across all servers, with where
 *     (relaxed exactly-once broken, 3.3.1)
 * @param ackedNotProcessed notes a server acknowledged ({@code DELIVERED}) that its journal lacks
 * @param reattempts calls of a note after the parent had seen its success (L191: never call again
 *     after a success); the relay orders messages, so a call caused by a server that had learnt
 *     of the success comes after it
 * @param largestK the most notes any server's stored K holds after the run (its journal read back):
 *     the purge syncs keep it to the notes not yet delivered everywhere (issue 19 item 1)
 * @param failures the run itself broke (a process exited unexpectedly), so nothing can be concluded
 */
public record GatherCrashReport(int strategy, String control, int serverKills, int clientKills, int killsMidCall,
        int resolvedOk, int resolvedErr, long millis, int notesCreated, int processed, int acked, int sessions,
        int pulls, int gatherAborts, int aDeliverAborts, int tooSoon, int syncsSent, int syncsDropped,
        int messagesLost, int undeliveredAtEnd, int largestK, SortedSet<String> processedTwice, SortedSet<String> ackedNotProcessed,
        SortedSet<String> reattempts, List<String> failures) {

    public boolean safe() {
        return processedTwice.isEmpty() && ackedNotProcessed.isEmpty() && reattempts.isEmpty() && failures.isEmpty();
    }

    public int duplicates() {
        return processedTwice.size();
    }

    public void print(PrintStream out) {
        out.printf("exactly-once crash test, Strategy %d (3 server JVMs with fsynced stores and aDeliver journals, "
                + "client JVM%s), control: %s%n", strategy, strategy == 6 ? " with its history H" : "", control);
        out.printf("  SIGKILLs                         %6d in %.1f s (servers %d, client %d)%n", serverKills + clientKills,
                millis / 1000.0, serverKills, clientKills);
        out.printf("  server kills with a call open    %6d (restarts resolving an attempt: ok %d, err %d)%n",
                killsMidCall, resolvedOk, resolvedErr);
        out.printf("  notes created                    %6d (undelivered at the end %d)%n", notesCreated, undeliveredAtEnd);
        out.printf("  processed (journal lines)        %6d%n", processed);
        out.printf("  largest K stored after the run   %6d%n", largestK);
        out.printf("  acknowledged (aDeliver success)  %6d%n", acked);
        out.printf("  sessions                         %6d (pulls: D requests %d)%n", sessions, pulls);
        out.printf("  aborts                           %6d gather, %d aDeliver error%s%n", gatherAborts, aDeliverAborts,
                strategy == 5 ? ", connects refused too soon " + tooSoon : "");
        out.printf("  syncs sent / dropped by the relay %5d / %d; other messages lost to dead servers %d%n", syncsSent,
                syncsDropped, messagesLost);
        out.printf("  processed twice:                 %s%n", processedTwice.isEmpty() ? "none" : processedTwice);
        out.printf("  acknowledged but not processed:  %s%n", ackedNotProcessed.isEmpty() ? "none" : ackedNotProcessed);
        out.printf("  called again after a success:    %s%n", reattempts.isEmpty() ? "none" : reattempts);
        if (!failures.isEmpty()) {
            out.printf("  run failures:                    %s%n", failures);
        }
        out.println(safe() ? "PASS: no note processed twice across the servers, every acknowledged note processed once, "
                + "no call after a success (relaxed exactly-once, 3.3.1 L185-193)"
                : "FAIL: relaxed exactly-once violated (see above)");
    }
}
