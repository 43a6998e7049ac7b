package dev.onceproof.bench.history;

import dev.onceproof.exactlyonce.ConcurrentServer;
import dev.onceproof.exactlyonce.EoServer;
import dev.onceproof.exactlyonce.GatherDurableState;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerEffect;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.store.GatherServerStore;
import dev.onceproof.exactlyonce.store.ServerStore;
import dev.onceproof.storage.Journal;
import dev.onceproof.storage.SharedJournal;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.ToLongFunction;

/**
 * One run of issue 19 item 5's "durable notes per second": {@code clients} clients, each on a
 * thread of its own running the note loop ({@link NoteCostLoop}: create at A, replicate, deliver,
 * acknowledge, Strategy 3's purge, a sync every {@code syncEvery} notes) over {@code servers}
 * servers. Each server keeps its clients' states in one {@link SharedJournal} on this machine's
 * disk (one journal per server process, as a deployment would have), so the commit mode decides the
 * fsyncs: {@link Journal.Commit#GROUP} lets one fsync cover every client's records that arrived
 * meanwhile, {@link Journal.Commit#PER_OPERATION} forces each record alone.
 *
 * <p>Where the fsyncs go ({@link RecordCensus}): a note makes about 9 records (S3 and S4 alike:
 * the replica and the round's commit at each of 3 servers, the delivery and its acknowledgement at
 * A, S3's purge at A; S4's delivery attempt and its outcome at A), one fsync each without group
 * commit. A client that waits for each step's fsync before the next made 8 commits per note, and
 * 64 such clients left too little queued behind an fsync (0.45 notes per fsync). So the loop
 * appends a step's record as the step is taken and commits once before the messages the steps
 * caused leave (the protocol's durability point: {@link NoteCostLoop.Durability}), and each client
 * keeps {@code inFlight} notes in flight: their records share the commits, about 1.4 per note at
 * 50 in flight. What stays serial per client is what the protocol makes serial: one Deliver
 * outstanding per session (S3's SendNote) and one aDeliver at a time (S4), each of whose records
 * must be durable before the delivery leaves.
 *
 * <p>What is durable is the servers' side: each note's records at every server. The clients' own
 * records stay in memory: a client is another machine, whose disk is its own. The measuring window
 * opens once every client has finished its warm-up run (on stores of its own) and closes when the
 * last client's last batch is durable.
 */
final class DurableNotes {

    /** What one (strategy, commit mode) run delivered in its window, and the fsyncs it took. */
    record Result(String strategy, String commit, int clients, int servers, int inFlight, long notes, double seconds,
            long fsyncs, double cpuSeconds) {

        /** The process's CPU time per note (all threads, the journals' included): what bounds a loaded machine. */
        double cpuMicrosPerNote() {
            return cpuSeconds * 1e6 / notes;
        }


        double notesPerSecond() {
            return notes / seconds;
        }

        double fsyncsPerSecond() {
            return fsyncs / seconds;
        }

        double notesPerFsync() {
            return fsyncs == 0 ? Double.NaN : (double) notes / fsyncs;
        }
    }

    /** The commit "mode" of a run without journals: the same loops, the cores' and threads' cost alone. */
    static final String NO_JOURNAL = "NO_JOURNAL";

    private DurableNotes() {
    }

    static Result run(Strategy strategy, Journal.Commit commit, int clients, int servers, int syncEvery, int q,
            double warmupSeconds, double seconds, Path dir) {
        return run(strategy, commit, clients, servers, 1, syncEvery, q, warmupSeconds, seconds, dir);
    }

    /**
     * With {@code inFlight} notes in flight per client ({@link NoteCostLoop#runUntil(long, int)});
     * {@code commit} null: no journal at all (the baseline of what the loops cost without a disk).
     */
    static Result run(Strategy strategy, Journal.Commit commit, int clients, int servers, int inFlight, int syncEvery,
            int q, double warmupSeconds, double seconds, Path dir) {
        Map<ServerId, SharedJournal> journals = new TreeMap<>();
        try {
            for (int i = 0; commit != null && i < servers; i++) {
                ServerId s = ServerId.of(String.valueOf((char) ('A' + i)));
                Path d = Files.createDirectories(dir.resolve(s.name()));
                // Each client's store checkpoints once its records outgrow twice its state or 64 KiB;
                // the shared journal, once it outgrows twice every store's image or 1 MiB.
                journals.put(s, SharedJournal.open(d, new Journal.Options(commit, 2.0, 1 << 20),
                        new Journal.Options(commit, 2.0, 64 << 10)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the journal directories under " + dir, e);
        }
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            long warmupEnd = System.nanoTime() + (long) (warmupSeconds * 1e9);
            // The window opens once every client has finished its warm-up (a batch in flight may
            // outrun the warm-up's end by seconds with one fsync per record), so no warm-up note is
            // in it; it closes when the last client's last batch is durable.
            long[] window = new long[3]; // opened at (ns), fsyncs then, CPU ns then
            CyclicBarrier open = new CyclicBarrier(clients, () -> {
                window[0] = System.nanoTime();
                window[1] = forces(journals);
                window[2] = cpuNanos();
            });
            List<Future<Long>> done = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                done.add(pool.submit(() -> {
                    if (warmupSeconds > 0) {
                        loop(strategy, syncEvery, q, servers, journals, "warmup-" + client).runUntil(warmupEnd, inFlight);
                    }
                    open.await();
                    long end = window[0] + (long) (seconds * 1e9);
                    return loop(strategy, syncEvery, q, servers, journals, "client-" + client).runUntil(end, inFlight);
                }));
            }
            long notes = 0;
            for (Future<Long> f : done) {
                notes += f.get();
            }
            long measured = System.nanoTime();
            long fsyncs = forces(journals) - window[1];
            double cpu = (cpuNanos() - window[2]) / 1e9;
            return new Result(strategy.name(), commit == null ? NO_JOURNAL : commit.name(), clients, servers, inFlight, notes,
                    (measured - window[0]) / 1e9, fsyncs, cpu);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(strategy + " " + commit + ": a client's loop failed: " + e.getCause(),
                    e.getCause());
        } finally {
            pool.shutdownNow();
            journals.values().forEach(SharedJournal::close);
        }
    }

    /** A client's loop whose records go to its store, a view named {@code key} of each server's journal. */
    private static NoteCostLoop loop(Strategy strategy, int syncEvery, int q, int servers,
            Map<ServerId, SharedJournal> journals, String key) {
        return new NoteCostLoop(strategy, syncEvery, q, servers, journals.isEmpty() ? NoteCostLoop.Durability.NONE
                : new Journaled(journals, key));
    }

    /**
     * One client's records at every server: each step's record appended to that server's store as the
     * step is taken, each store committed once at the loop's next commit (one fsync, or none if
     * another client's commit already covered it), then the checkpoints claimed meanwhile written.
     */
    static final class Journaled implements NoteCostLoop.Durability {
        private final Map<ServerId, SharedJournal> journals;
        private final String key;
        private final Map<ServerId, Store<?>> stores = new HashMap<>();
        /** Stores appended to since the last commit, with the last sequence number appended. */
        private final Map<Store<?>, Long> dirty = new LinkedHashMap<>();
        private final List<Runnable> checkpoints = new ArrayList<>();

        Journaled(Map<ServerId, SharedJournal> journals, String key) {
            this.journals = journals;
            this.key = key;
        }

        @Override
        public void record(ServerId at, ServerEffect record, EoServer core) {
            Store<?> store = stores.computeIfAbsent(at, s -> record instanceof ServerEffect.RecordGather
                    ? Store.of(new GatherServerStore(journals.get(s).view(key, GatherServerStore.CODEC)))
                    : Store.of(new ServerStore(journals.get(s).view(key, ServerStore.codec()))));
            long seq = store.append().applyAsLong(record);
            dirty.put(store, seq);
            if (store.store().claimCheckpoint(seq)) {
                Object state = core.durable(); // the state after this step, before the next one changes it
                checkpoints.add(() -> store.checkpoint(state, seq));
            }
        }

        @Override
        public void commit() {
            if (dirty.isEmpty()) {
                return;
            }
            dirty.forEach((store, seq) -> store.store().commit(seq));
            dirty.clear();
            checkpoints.forEach(Runnable::run);
            checkpoints.clear();
        }
    }

    /** A server store of either shape, as {@link Journaled} uses it: its append, and the rest of the protocol. */
    private record Store<S>(ConcurrentServer.Store<S> store, ToLongFunction<ServerEffect> append, Class<S> state) {

        static Store<ServerDurableState> of(ServerStore s) {
            return new Store<>(s, r -> s.append((ServerEffect.Record) r), ServerDurableState.class);
        }

        static Store<GatherDurableState> of(GatherServerStore s) {
            return new Store<>(s, r -> s.append((ServerEffect.RecordGather) r), GatherDurableState.class);
        }

        void checkpoint(Object core, long seq) {
            store.checkpoint(state.cast(core), seq);
        }
    }

    /** This process's CPU time so far (ns), every thread's; 0 where the JVM does not say. */
    private static long cpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : 0;
    }

    /**
     * Every fsync of the servers' journals: the shared journals count their segment forces; the
     * checkpoint files' fsyncs come on top (a few per checkpoint, once the journal outgrows it).
     */
    private static long forces(Map<ServerId, SharedJournal> journals) {
        return journals.values().stream().mapToLong(j -> j.stats().forces()).sum();
    }
}
