package dev.onceproof.conformance.crash;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;

/**
 * What the exactly-once crash test found: from the client's stored journal of processings and the
 * driver's record of acknowledgements.
 *
 * @param processedTwice ids the journal holds more than once (exactly-once broken: duplicate)
 * @param ackedNotProcessed ids the client acknowledged that the journal does not hold (lost)
 * @param outOfOrder streams whose journal is not 1, 2, 3, ... in order, or disagrees with R
 */
public record EoCrashReport(int crashes, long notesSent, int acked, int processed, long duplicatesAcked,
        long killedWithNoteInFlight, SortedSet<String> processedTwice, SortedSet<String> ackedNotProcessed,
        List<String> outOfOrder, SortedMap<String, Long> rByStream, Map<String, Long> journalByStream,
        long millis) {

    public boolean safe() {
        return processedTwice.isEmpty() && ackedNotProcessed.isEmpty() && outOfOrder.isEmpty();
    }

    public void print(PrintStream out) {
        out.printf("exactly-once crash test (Strategy 1 client, file-backed store): %d SIGKILLs in %.1f s%n",
                crashes, millis / 1000.0);
        out.printf("  notes sent (incl. resends)      %8d%n", notesSent);
        out.printf("  acknowledged (distinct)         %8d%n", acked);
        out.printf("  processed (journal lines)       %8d%n", processed);
        out.printf("  resends acknowledged, not reprocessed %2d%n", duplicatesAcked);
        out.printf("  kills with a note in flight     %8d%n", killedWithNoteInFlight);
        out.printf("  R by stream %s, journal by stream %s%n", rByStream, journalByStream);
        out.printf("  processed twice:                %s%n", processedTwice.isEmpty() ? "none" : processedTwice);
        out.printf("  acknowledged but not processed: %s%n", ackedNotProcessed.isEmpty() ? "none" : ackedNotProcessed);
        out.printf("  journal out of order / vs R:    %s%n", outOfOrder.isEmpty() ? "none" : outOfOrder);
        out.println(safe() ? "PASS: no note processed twice, no acknowledged note lost (L77: accept and record atomic)"
                : "FAIL: exactly-once violated (see above)");
    }
}
