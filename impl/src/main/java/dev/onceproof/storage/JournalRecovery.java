package dev.onceproof.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads a journal directory back: the checkpoint, then every segment, checked for CRCs, torn tails,
 * sequence gaps and agreement with the checkpoint. It only reads; what it found is repaired (a torn
 * tail cut off) by {@link Journal} after every check has passed, so corruption changes nothing.
 */
final class JournalRecovery {

    /** The checkpoint (seq 0 and no payload if none) and each segment's scan, in sequence order. */
    record Found(Optional<Snapshot> checkpoint, long checkpointSeq, List<JournalSegment.Scan> segments) {

        /** The last sequence number the directory holds: in the journal, or the checkpoint's. */
        long lastSeq() {
            return segments.isEmpty() ? checkpointSeq : Math.max(checkpointSeq, segments.get(segments.size() - 1).last());
        }
    }

    private JournalRecovery() {
    }

    static Found read(Path dir, FileSnapshotStore checkpoints, boolean checkCrc, boolean tailAlwaysTorn) {
        Optional<Snapshot> checkpoint = checkpoints.read();
        long checkpointSeq = checkpoint.map(Snapshot::generation).orElse(0L);
        List<Path> files;
        try (Stream<Path> list = Files.list(dir)) {
            files = list.filter(f -> JournalSegment.first(f).isPresent())
                    .sorted(Comparator.comparingLong(f -> JournalSegment.first(f).getAsLong()))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list journal directory " + dir, e);
        }
        List<JournalSegment.Scan> scans = new ArrayList<>();
        for (int i = 0; i < files.size(); i++) {
            Path file = files.get(i);
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read journal file " + file, e);
            }
            long first = JournalSegment.first(file).getAsLong();
            JournalSegment.Scan scan = JournalSegment.scan(file, first, bytes, i == files.size() - 1, checkCrc,
                    tailAlwaysTorn);
            if (i > 0) {
                JournalSegment.Scan previous = scans.get(i - 1);
                if (first != previous.last() + 1) {
                    throw new CorruptJournalException(file, 0, "segment starts at sequence number " + first + " but "
                            + previous.file().getFileName() + " ends at " + previous.last());
                }
            } else if (first > checkpointSeq + 1) {
                // Segments are deleted only once a checkpoint covers them, oldest first.
                throw new CorruptJournalException(file, 0, "the journal starts at sequence number " + first
                        + " but the checkpoint covers only up to " + checkpointSeq + ": operations "
                        + (checkpointSeq + 1) + ".." + (first - 1) + " are missing");
            }
            scans.add(scan);
        }
        if (!scans.isEmpty()) {
            JournalSegment.Scan last = scans.get(scans.size() - 1);
            if (last.last() < checkpointSeq) {
                // A checkpoint is written only after the operations it covers are durable here.
                throw new CorruptJournalException(last.file(), last.goodEnd(), "the journal ends at sequence number "
                        + last.last() + ", below the checkpoint's " + checkpointSeq
                        + ", which is written only after the operations it covers are durable");
            }
        }
        return new Found(checkpoint, checkpointSeq, scans);
    }
}
