package dev.onceproof.conformance.crash;

import java.io.PrintStream;
import java.util.List;
import java.util.SortedSet;

/**
 * What the Strategy 3 crash test found, from the client's stored journal and R and the driver's
 * record of acknowledgements and purges.
 *
 * @param killed which process the SIGKILLs fell on: the client, or server A (the server run)
 * @param processedTwice ids the journal holds more than once (exactly-once broken: duplicate)
 * @param ackedNotProcessed ids the client acknowledged that the journal does not hold (lost)
 * @param inconsistent R against the journal and the purges: above q, an id never processed, an id
 *     still there after its purge was confirmed, or a processed id gone from R with no purge
 */
public record EoIdListCrashReport(String killed, int crashes, int q, long linesSent, int acked, int processed,
        long duplicatesAcked, long rFullRefusals, int purges, long killedWithNoteInFlight,
        SortedSet<String> processedTwice, SortedSet<String> ackedNotProcessed, List<String> inconsistent,
        SortedSet<String> finalR, long millis) {

    public boolean safe() {
        return processedTwice.isEmpty() && ackedNotProcessed.isEmpty() && inconsistent.isEmpty();
    }

    public void print(PrintStream out) {
        out.printf("exactly-once crash test (Strategy 3, R of q = %d, file-backed stores): %d SIGKILLs of the %s in %.1f s%n",
                q, crashes, killed, millis / 1000.0);
        out.printf("  lines sent (notes, resends, purges) %6d%n", linesSent);
        out.printf("  acknowledged (distinct)         %8d%n", acked);
        out.printf("  processed (journal lines)       %8d%n", processed);
        out.printf("  resends acknowledged, not reprocessed %2d%n", duplicatesAcked);
        out.printf("  refused with R full (L169)      %8d%n", rFullRefusals);
        out.printf("  purges confirmed                %8d%n", purges);
        out.printf("  kills with a note in flight     %8d%n", killedWithNoteInFlight);
        out.printf("  R at the end                    %s%n", finalR);
        out.printf("  processed twice:                %s%n", processedTwice.isEmpty() ? "none" : processedTwice);
        out.printf("  acknowledged but not processed: %s%n", ackedNotProcessed.isEmpty() ? "none" : ackedNotProcessed);
        out.printf("  R vs journal and purges:        %s%n", inconsistent.isEmpty() ? "consistent" : inconsistent);
        out.println(safe() ? "PASS: no note processed twice, no acknowledged note lost (L77, L127: accept and record "
                + "atomic; L169: refuse while R is full)" : "FAIL: exactly-once violated (see above)");
    }
}
