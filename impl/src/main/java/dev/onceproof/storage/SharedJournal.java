package dev.onceproof.storage;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One journal for many stores: a server keeps the state of each of its clients in a store of its
 * own ({@link #view}), and every store's records go into this one {@link Journal}, so one fsync
 * (group commit) makes durable the steps of every client that arrived while the last one ran. With
 * one journal per store, a commit covers only that store's steps, and a server with many clients
 * pays one fsync per step.
 *
 * <p>Each view is an {@link OperationLog} with the contract of any other: its operations are
 * numbered 1, 2, ... in its own order; {@link OperationLog#commit} returns once they are durable; a
 * crash keeps every durable operation and may drop a suffix of the others; recovery is its
 * checkpoint and the operations after it. A record in the shared journal is the view's key, its
 * number there, and the operation's bytes in the view's own codec.
 *
 * <p><b>Checkpoints and compaction.</b> A view's {@link OperationLog#checkpoint} does not touch the
 * disk: it replaces the view's image here (its checkpoint's bytes, and the records after it, kept
 * in memory). The shared journal's own checkpoint is every view's image, written when the journal
 * has outgrown the last one ({@link Journal#checkpointDue()}); it is what lets the journal delete
 * its old segments, whatever state each view's owner is in. Between two, a crash recovers each view
 * from the older image and the records after it, which are still in the journal: the same state.
 * So a view's records cost, in memory, at most what its checkpoint rule lets it grow by, and on
 * disk the journal is bounded by a multiple of the live state, like any {@link Journal}.
 *
 * <p><b>Forgetting a store.</b> The journal cannot tell a store whose owner will come back from one
 * whose owner is gone for good, so without help it keeps one image per key it ever had (a server
 * with client churn over a year: one per client it ever served). {@link #retire} is that help: the
 * owner, done with a closed store, has it dropped durably. A retire record goes into the journal
 * and the image leaves memory at once, under the lock, so the next shared checkpoint, whose images
 * are copied under the same lock, omits it; recovery drops the image where it meets the record.
 * A crash before the record is durable keeps the store as it was (the record is in the lost
 * suffix, or cut off as a torn tail); after, it is gone, whether the checkpoint omitting it was
 * written or not. A store's key may be used again after that: its numbering starts at 1.
 *
 * <p>Thread-safe: views are used from many threads; appends are serialized on this journal's lock
 * (never held across an fsync), so the records' order is the order of the images' updates.
 */
public final class SharedJournal implements AutoCloseable {

    /** A record of the shared journal: a view's operation, or the end of a view. */
    sealed interface Entry permits Tagged, Retired {
        String key();
    }

    /** A view's operation: its key, its number there, and its bytes in the view's codec. */
    record Tagged(String key, long seq, byte[] payload) implements Entry {
    }

    /**
     * The view {@code key} is forgotten ({@link #retire}); {@code lastSeq} is its last operation,
     * which recovery compares with what it rebuilt, so a record lost before the retire is caught.
     */
    record Retired(String key, long lastSeq) implements Entry {
    }

    /** A defect a test injects to show the check that guards against it fails; tests only. */
    enum Defect {
        NONE,
        /** Retire drops the image from memory without a record: only the next checkpoint forgets it. */
        RETIRE_NOT_JOURNALED,
        /** Retire returns once its record is appended, before it is durable. */
        RETIRE_RETURNS_BEFORE_DURABLE,
        /** A closed view still appends: after a retire, its records name a key the journal forgot. */
        CLOSED_VIEW_APPENDS,
        /**
         * The retire record is appended under the lock and the image removed under it later, so a
         * shared checkpoint between the two ({@link #betweenRetireSteps}) covers the record and
         * keeps the image.
         */
        RETIRE_RECORD_APART_FROM_REMOVAL
    }

    /** What runs between the two halves of a retire under {@link Defect#RETIRE_RECORD_APART_FROM_REMOVAL}; tests only. */
    volatile Runnable betweenRetireSteps = () -> { };

    /** A view's checkpoint (null: none yet) and its records after it, in order. */
    static final class Image {
        long checkpointSeq;
        byte[] checkpoint;
        long checkpointBytes;
        /** Records after the checkpoint: numbers checkpointSeq + 1, ... */
        final ArrayDeque<byte[]> records = new ArrayDeque<>();
        long recordBytes;
        /** The shared sequence number of each record not known durable yet, by its view number. */
        final TreeMap<Long, Long> shared = new TreeMap<>();
        boolean taken;

        long lastSeq() {
            return checkpointSeq + records.size();
        }

        Image copy() {
            Image c = new Image();
            c.checkpointSeq = checkpointSeq;
            c.checkpoint = checkpoint;
            c.records.addAll(records);
            return c;
        }
    }

    private final Journal<Map<String, Image>, Entry> journal;
    private final Path dir;
    private final Journal.Options viewOptions;
    /** Guards {@link #images}; held while appending, never across an fsync. */
    private final Object lock = new Object();
    private final Map<String, Image> images;
    private final AtomicBoolean checkpointing = new AtomicBoolean();
    private final Defect defect;

    private SharedJournal(Path dir, Journal.Options options, Journal.Options viewOptions, JournalDisk disk,
            Defect defect, Journal.StepHook hook) {
        this.dir = dir;
        this.viewOptions = viewOptions;
        this.defect = defect;
        this.journal = Journal.open(dir, SharedJournalCodec.CODEC, options, disk, Journal.Defect.NONE, hook);
        Journal.Recovered<Map<String, Image>, Entry> r = journal.recovered();
        this.images = r.checkpoint().orElseGet(HashMap::new);
        long seq = r.checkpointSeq();
        for (Entry e : r.operations()) {
            seq++;
            if (e instanceof Retired x) {
                // An image never written (opened, closed, retired) is in no checkpoint and has no
                // record: absent here, with last operation 0, which is what its retire names.
                Image gone = images.remove(x.key());
                long last = gone == null ? 0 : gone.lastSeq();
                if (last != x.lastSeq()) {
                    journal.close();
                    throw new CorruptJournalException(dir, 0, "record " + seq + " retires " + x.key()
                            + " after its operation " + x.lastSeq() + ", but its last operation before it is " + last);
                }
                continue;
            }
            Tagged t = (Tagged) e;
            Image im = images.computeIfAbsent(t.key(), k -> new Image());
            if (t.seq() <= im.lastSeq()) {
                continue; // already in the image of the shared checkpoint
            }
            if (t.seq() != im.lastSeq() + 1) {
                journal.close();
                throw new CorruptJournalException(dir, 0, "record " + seq + " is operation " + t.seq() + " of "
                        + t.key() + ", whose last operation before it is " + im.lastSeq());
            }
            im.records.add(t.payload());
            im.recordBytes += t.payload().length;
        }
    }

    /**
     * Opens (creating if absent) the shared journal in {@code dir}. {@code options} rule the shared
     * journal (commit mode, when its checkpoint is due); {@code viewOptions} rule when each view's
     * checkpoint is due (its ratio and floor).
     */
    public static SharedJournal open(Path dir, Journal.Options options, Journal.Options viewOptions) {
        return open(dir, options, viewOptions, JournalDisk.REAL);
    }

    /** On a {@link JournalDisk} of a test's. */
    static SharedJournal open(Path dir, Journal.Options options, Journal.Options viewOptions, JournalDisk disk) {
        return open(dir, options, viewOptions, disk, Defect.NONE, Journal.StepHook.NONE);
    }

    /** With a defect injected and a hook after each step of the shared checkpoint; tests only. */
    static SharedJournal open(Path dir, Journal.Options options, Journal.Options viewOptions, JournalDisk disk,
            Defect defect, Journal.StepHook hook) {
        return new SharedJournal(Objects.requireNonNull(dir, "dir"), Objects.requireNonNull(options, "options"),
                Objects.requireNonNull(viewOptions, "viewOptions"), Objects.requireNonNull(disk, "disk"),
                Objects.requireNonNull(defect, "defect"), Objects.requireNonNull(hook, "hook"));
    }

    /** The store of {@code key}; a key has one writer, so a second view of it is refused. */
    public <S, O> OperationLog<S, O> view(String key, JournalCodec<S, O> codec) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(codec, "codec");
        Image im;
        synchronized (lock) {
            im = images.computeIfAbsent(key, k -> new Image());
            if (im.taken) {
                throw new IllegalStateException("store " + key + " of " + where() + " is already open");
            }
            im.taken = true;
        }
        return new View<>(key, codec, im);
    }

    /**
     * Forgets the store of {@code key} for good, durably: returns once the retire record is durable,
     * after which recovery and the next shared checkpoint no longer have it. For an owner done with
     * the store: what it held is lost, so the owner must know it needs none of it again (its state
     * empty, or its client gone for good); the journal cannot tell. The store must be closed.
     *
     * @return false if this journal holds nothing of {@code key} (never opened, or retired already;
     *     returns once any earlier retire of it is durable)
     * @throws IllegalStateException the store is open
     */
    public boolean retire(String key) {
        Objects.requireNonNull(key, "key");
        long shared;
        boolean held;
        synchronized (lock) {
            Image im = images.get(key);
            held = im != null;
            if (!held) {
                shared = journal.lastSeq(); // an earlier retire of key, if any, is at or below this
            } else {
                if (im.taken) {
                    throw new IllegalStateException("store " + key + " of " + where()
                            + " is open: close it before retiring it");
                }
                if (defect != Defect.RETIRE_RECORD_APART_FROM_REMOVAL) {
                    images.remove(key);
                }
                if (defect == Defect.RETIRE_NOT_JOURNALED) {
                    return true;
                }
                // Appended under the lock that removed the image: a checkpoint copies the images and
                // reads lastSeq under it too, so it either has the image and not the record, or
                // covers the record and omits the image.
                shared = journal.append(new Retired(key, im.lastSeq()));
                if (defect == Defect.RETIRE_RETURNS_BEFORE_DURABLE) {
                    return true;
                }
            }
        }
        if (held && defect == Defect.RETIRE_RECORD_APART_FROM_REMOVAL) {
            betweenRetireSteps.run();
            synchronized (lock) {
                images.remove(key);
            }
        }
        if (shared > 0) {
            journal.commit(shared); // outside the lock, like a view's commit
        }
        if (held) {
            maybeCheckpoint();
        }
        return held;
    }

    /** How many stores this journal holds an image of (open, closed, or never written); for tests. */
    int images() {
        synchronized (lock) {
            return images.size();
        }
    }

    public String where() {
        return "shared journal " + dir.toAbsolutePath();
    }

    /** The shared journal's counters: its fsyncs are every view's. */
    public Journal.Stats stats() {
        return journal.stats();
    }

    @Override
    public void close() {
        journal.close();
    }

    /** The process died: what was not written is gone. Tests only. */
    void abandon() {
        journal.abandon();
    }

    /** The shared journal's last checkpoint (0: none), for tests. */
    long checkpointSeq() {
        return journal.checkpointSeq();
    }

    /** Writes the shared checkpoint if the journal has outgrown the last one and nobody else is. */
    private void maybeCheckpoint() {
        if (!journal.checkpointDue() || !checkpointing.compareAndSet(false, true)) {
            return;
        }
        try {
            Map<String, Image> copy = new HashMap<>();
            long through;
            synchronized (lock) {
                images.forEach((k, im) -> copy.put(k, im.copy()));
                through = journal.lastSeq();
            }
            journal.checkpoint(copy, through);
        } finally {
            checkpointing.set(false);
        }
    }

    private final class View<S, O> implements OperationLog<S, O> {
        private final String key;
        private final JournalCodec<S, O> codec;
        private final Image im;
        private final Journal.Recovered<S, O> recovered;
        /**
         * Set by {@link #close}, under the lock; no append or checkpoint after it. Once the store is
         * closed its key may be retired, and a record of a retired key would be a gap in its
         * numbering at recovery, or be read as an operation of a new store of the same key.
         */
        private boolean closed;

        View(String key, JournalCodec<S, O> codec, Image im) {
            this.key = key;
            this.codec = codec;
            this.im = im;
            synchronized (lock) {
                Optional<S> cp = Optional.empty();
                if (im.checkpoint != null) {
                    try {
                        cp = Optional.of(codec.decodeCheckpoint(im.checkpoint));
                    } catch (RuntimeException e) {
                        throw new CorruptSnapshotException(where(), "its checkpoint does not decode: " + e.getMessage());
                    }
                }
                List<O> ops = new ArrayList<>(im.records.size());
                long seq = im.checkpointSeq;
                for (byte[] b : im.records) {
                    seq++;
                    try {
                        ops.add(codec.decodeOperation(b));
                    } catch (RuntimeException e) {
                        throw new CorruptSnapshotException(where(), "its operation " + seq + " does not decode: "
                                + e.getMessage());
                    }
                }
                this.recovered = new Journal.Recovered<>(cp, im.checkpointSeq, List.copyOf(ops));
                im.checkpointBytes = im.checkpoint == null ? 0 : im.checkpoint.length;
            }
        }

        @Override
        public Journal.Recovered<S, O> recovered() {
            return recovered;
        }

        @Override
        public String where() {
            return "store " + key + " of " + SharedJournal.this.where();
        }

        @Override
        public long append(O operation) {
            byte[] b = codec.encodeOperation(operation);
            synchronized (lock) {
                if (closed && defect != Defect.CLOSED_VIEW_APPENDS) {
                    throw new IllegalStateException("append to " + where() + ", which is closed");
                }
                long seq = im.lastSeq() + 1;
                long shared = journal.append(new Tagged(key, seq, b));
                im.records.add(b);
                im.recordBytes += b.length;
                im.shared.put(seq, shared);
                return seq;
            }
        }

        @Override
        public void commit(long seq) {
            long shared;
            synchronized (lock) {
                if (seq > im.lastSeq()) {
                    throw new IllegalArgumentException("commit of operation " + seq + " of " + where()
                            + ", which has appended only up to " + im.lastSeq());
                }
                Map.Entry<Long, Long> e = im.shared.floorEntry(seq);
                if (e == null) {
                    return; // durable already
                }
                shared = e.getValue();
            }
            journal.commit(shared);
            synchronized (lock) {
                im.shared.headMap(seq, true).clear();
            }
            maybeCheckpoint();
        }

        @Override
        public long lastSeq() {
            synchronized (lock) {
                return im.lastSeq();
            }
        }

        @Override
        public boolean checkpointDue() {
            synchronized (lock) {
                long base = Math.max(im.checkpointBytes, viewOptions.checkpointFloorBytes());
                return im.recordBytes > viewOptions.checkpointRatio() * base;
            }
        }

        /** Replaces the view's image: in memory, made durable by the next shared checkpoint. */
        @Override
        public void checkpoint(S state, long throughSeq) {
            byte[] payload = codec.encodeCheckpoint(state);
            commit(throughSeq);
            synchronized (lock) {
                if (closed) {
                    throw new IllegalStateException("checkpoint of " + where() + ", which is closed");
                }
                if (throughSeq < im.checkpointSeq) {
                    throw new SnapshotBackwardsException(where(), throughSeq, im.checkpointSeq);
                }
                if (throughSeq > im.lastSeq()) {
                    throw new IllegalArgumentException("checkpoint through operation " + throughSeq + " of "
                            + where() + ", which has appended only up to " + im.lastSeq());
                }
                while (im.checkpointSeq < throughSeq) {
                    byte[] b = im.records.poll();
                    im.recordBytes -= b.length;
                    im.checkpointSeq++;
                }
                im.checkpoint = payload;
                im.checkpointBytes = payload.length;
            }
        }

        @Override
        public Journal.Stats stats() {
            return journal.stats();
        }

        /** Commits what this view appended; the shared journal stays open for the others. */
        @Override
        public void close() {
            long last = lastSeq();
            if (last > 0) {
                commit(last);
            }
            synchronized (lock) {
                if (!closed) {
                    closed = true;
                    im.taken = false;
                }
            }
        }
    }
}
