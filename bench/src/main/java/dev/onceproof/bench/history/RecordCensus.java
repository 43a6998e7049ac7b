package dev.onceproof.bench.history;

import dev.onceproof.exactlyonce.EoServer;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.Strategy;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The fsync budget of a note, counted on the loop itself (no disk, so exact and free of noise):
 * per server, how many records a note makes and of which operations, and how many of the loop's
 * commits find records of that server to make durable. With one fsync per record a note costs its
 * records; with group commit one client alone costs at most its commits per server, and the clients
 * of one process share them as far as their commits meet at the disk.
 */
final class RecordCensus implements NoteCostLoop.Durability {

    /** Per note: records by "server: operations", and commits that had records, by server. */
    record Budget(String strategy, int inFlight, long notes, Map<String, Double> recordsPerNote,
            Map<String, Double> commitsPerNote, double records, double commits) {
    }

    private final Map<String, long[]> records = new TreeMap<>();
    private final Map<String, long[]> commits = new TreeMap<>();
    private final Set<ServerId> dirty = new HashSet<>();

    /**
     * Counts {@code notes} notes (rounded up to whole sync intervals) from a fresh loop; the first
     * connect's steps are counted too, a few records spread over all the notes.
     */
    static Budget of(Strategy strategy, int servers, int inFlight, int syncEvery, int q, long notes) {
        RecordCensus c = new RecordCensus();
        long done = new NoteCostLoop(strategy, syncEvery, q, servers, c)
                .runNotes((notes + syncEvery - 1) / syncEvery * syncEvery, inFlight);
        Map<String, Double> r = perNote(c.records, done);
        Map<String, Double> m = perNote(c.commits, done);
        return new Budget(strategy.name(), inFlight, done, r, m, r.values().stream().mapToDouble(x -> x).sum(),
                m.values().stream().mapToDouble(x -> x).sum());
    }

    private static Map<String, Double> perNote(Map<String, long[]> counts, long notes) {
        Map<String, Double> out = new TreeMap<>();
        counts.forEach((k, v) -> out.put(k, (double) v[0] / notes));
        return out;
    }

    @Override
    public void record(ServerId at, ServerEffect record, EoServer core) {
        if (operations(record).isEmpty()) {
            return; // a step that changed nothing: its store appends nothing (JournalStore.append)
        }
        records.computeIfAbsent(at.name() + ": " + operations(record), k -> new long[1])[0]++;
        dirty.add(at);
    }

    @Override
    public void commit() {
        for (ServerId s : dirty) {
            commits.computeIfAbsent(s.name(), k -> new long[1])[0]++;
        }
        dirty.clear();
    }

    /** The record's operations by kind, in order, each once ("Enter+SetCtr"). */
    private static String operations(ServerEffect record) {
        List<?> ops = record instanceof ServerEffect.Record r ? r.ops()
                : ((ServerEffect.RecordGather) record).ops();
        Set<String> kinds = new LinkedHashSet<>();
        ops.forEach(o -> kinds.add(o.getClass().getSimpleName()));
        return String.join("+", kinds);
    }
}
