package dev.onceproof.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a crash leaves at the end of the journal is dropped; damage anywhere else stops the open,
 * naming file and offset, and changes nothing (DESIGN.md "Errors and input": a corrupt stable-storage
 * file stops the server instead of a guess).
 */
class JournalTornTailTest {

    static final List<String> OPS = List.of("note c1-1 K+", "note c1-2 K+", "note c1-1 D+", "note c1-3 K+",
            "note c1-2 D+ and a longer tail so the last record has more bytes to tear");

    @TempDir
    Path dir;

    /** Five committed operations in one segment; returns the segment file. */
    Path written() throws IOException {
        try (Journal<List<String>, String> j = open()) {
            for (String op : OPS) {
                j.appendAndCommit(op);
            }
        }
        return onlySegment();
    }

    Path onlySegment() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> segments = s.filter(f -> JournalSegment.first(f).isPresent()).toList();
            assertThat(segments).hasSize(1);
            return segments.get(0);
        }
    }

    /** Offset of record {@code index} (0-based) in a segment holding OPS. */
    static int offsetOf(int index) {
        int p = JournalSegment.HEADER;
        for (int i = 0; i < index; i++) {
            p += JournalSegment.OVERHEAD + Notes.CODEC.encodeOperation(OPS.get(i)).length;
        }
        return p;
    }

    /** Without fsyncs: these tests are about what the files hold, and a process crash keeps written bytes. */
    Journal<List<String>, String> open() {
        return TestDisks.open(dir, TestDisks.NO_FSYNC, Journal.Defect.NONE);
    }

    @Test
    void tornTailAtEveryByteOffsetOfTheLastRecordIsDroppedAndNoCommittedRecordIsLost() throws IOException {
        Path segment = written();
        byte[] whole = Files.readAllBytes(segment);
        int last = offsetOf(OPS.size() - 1);
        assertThat(whole.length).isGreaterThan(last + JournalSegment.OVERHEAD);
        for (int cut = last; cut < whole.length; cut++) {
            Files.write(segment, java.util.Arrays.copyOf(whole, cut));
            try (Journal<List<String>, String> j = open()) {
                assertThat(Notes.recoveredState(j)).as("cut at %d", cut).isEqualTo(OPS.subList(0, OPS.size() - 1));
                assertThat(Files.size(segment)).as("truncated to the last good record").isEqualTo(last);
                // The next operation takes the dropped one's number and lands where it was.
                assertThat(j.appendAndCommit("after")).isEqualTo(OPS.size());
            }
            try (Journal<List<String>, String> j = open()) {
                assertThat(j.recovered().operations()).last().isEqualTo("after");
            }
        }
    }

    @Test
    void aChecksumFailingLastRecordIsDroppedWhateverByteIsWrong() throws IOException {
        Path segment = written();
        byte[] whole = Files.readAllBytes(segment);
        int last = offsetOf(OPS.size() - 1);
        for (int i = last; i < whole.length; i++) {
            byte[] bad = whole.clone();
            bad[i] ^= 0x10;
            Files.write(segment, bad);
            try (Journal<List<String>, String> j = open()) {
                assertThat(Notes.recoveredState(j)).as("byte %d flipped", i).isEqualTo(OPS.subList(0, OPS.size() - 1));
            }
            Files.write(segment, whole);
        }
    }

    @Test
    void aSegmentTornWhileItsHeaderWasWrittenIsStartedAgain() throws IOException {
        Path segment = written();
        byte[] whole = Files.readAllBytes(segment);
        for (int cut = 0; cut < JournalSegment.HEADER; cut++) {
            Files.write(segment, java.util.Arrays.copyOf(whole, cut));
            try (Journal<List<String>, String> j = open()) {
                assertThat(j.recovered().operations()).isEmpty();
                assertThat(j.appendAndCommit("first")).isEqualTo(1);
            }
            try (Journal<List<String>, String> j = open()) {
                assertThat(j.recovered().operations()).containsExactly("first");
            }
        }
    }

    @Test
    void aFlippedByteBeforeTheLastRecordIsCorruptionNamingFileAndOffsetAndChangesNothing() throws IOException {
        Path segment = written();
        byte[] whole = Files.readAllBytes(segment);
        int last = offsetOf(OPS.size() - 1);
        for (int i = JournalSegment.HEADER; i < last; i++) {
            byte[] bad = whole.clone();
            bad[i] ^= 0x10;
            Files.write(segment, bad);
            int record = recordAt(i);
            assertThatThrownBy(this::open).as("byte %d flipped", i)
                    .isInstanceOfSatisfying(CorruptJournalException.class, e -> {
                        assertThat(e.file()).isEqualTo(segment.toAbsolutePath());
                        assertThat(e.offset()).isEqualTo(offsetOf(record));
                    })
                    .hasMessageContaining(segment.toAbsolutePath().toString())
                    .hasMessageContaining("offset " + offsetOf(record));
            assertThat(Files.readAllBytes(segment)).as("unchanged").isEqualTo(bad);
        }
    }

    @Test
    void aBadHeaderIsCorruption() throws IOException {
        Path segment = written();
        byte[] bad = Files.readAllBytes(segment);
        bad[1] ^= 1;
        Files.write(segment, bad);
        assertThatThrownBy(this::open).isInstanceOf(CorruptJournalException.class).hasMessageContaining("magic")
                .hasMessageContaining("offset 0");
    }

    /** A segment was forced whole before its successor began: a short tail there is not a torn write. */
    @Test
    void aShortTailInASealedSegmentIsCorruption() throws IOException {
        try (Journal<List<String>, String> j = open()) {
            for (String op : OPS) {
                j.appendAndCommit(op);
            }
            j.checkpoint(OPS.subList(0, 2), 2); // seals segment 1 (ops 1..5), which it does not cover whole
            j.appendAndCommit("in segment 6");
        }
        Path sealed = dir.resolve(JournalSegment.name(1)).toAbsolutePath();
        byte[] whole = Files.readAllBytes(sealed);
        Files.write(sealed, java.util.Arrays.copyOf(whole, whole.length - 3));
        assertThatThrownBy(this::open).isInstanceOf(CorruptJournalException.class)
                .hasMessageContaining(sealed.toString()).hasMessageContaining("offset " + offsetOf(OPS.size() - 1))
                .hasMessageContaining("sealed segment");
        assertThat(Files.size(sealed)).as("unchanged").isEqualTo(whole.length - 3);
    }

    /** A record that passed its CRC but that the codec cannot read was written by another codec. */
    @Test
    void anOperationTheCodecCannotReadIsCorruptionNamingItsOffset() throws IOException {
        Path segment = written();
        JournalCodec<List<String>, String> strict = new JournalCodec<>() {
            @Override
            public byte[] encodeOperation(String operation) {
                return Notes.CODEC.encodeOperation(operation);
            }

            @Override
            public String decodeOperation(byte[] bytes) {
                String s = Notes.CODEC.decodeOperation(bytes);
                if (s.contains("D+")) {
                    throw new IllegalArgumentException("no D changes in this codec");
                }
                return s;
            }

            @Override
            public byte[] encodeCheckpoint(List<String> state) {
                return Notes.CODEC.encodeCheckpoint(state);
            }

            @Override
            public List<String> decodeCheckpoint(byte[] bytes) {
                return Notes.CODEC.decodeCheckpoint(bytes);
            }
        };
        assertThatThrownBy(() -> Journal.open(dir, strict, Journal.Options.defaults()))
                .isInstanceOf(CorruptJournalException.class).hasMessageContaining(segment.toAbsolutePath().toString())
                .hasMessageContaining("offset " + offsetOf(2)).hasMessageContaining("no D changes");
    }

    /** Control: without the CRC comparison, a damaged last record is recovered as if it were an operation. */
    @Test
    void controlWithoutTheCrcCheckADamagedRecordIsRecoveredAsAnOperation() throws IOException {
        Path segment = written();
        byte[] bad = Files.readAllBytes(segment);
        bad[offsetOf(OPS.size() - 1) + 12] ^= 0x01; // first payload byte of the last record
        Files.write(segment, bad);
        try (Journal<List<String>, String> j = TestDisks.open(dir, TestDisks.NO_FSYNC, Journal.Defect.CRC_NOT_CHECKED)) {
            List<String> ops = j.recovered().operations();
            assertThat(ops).hasSize(OPS.size());
            assertThat(ops.get(OPS.size() - 1)).isNotEqualTo(OPS.get(OPS.size() - 1));
        }
    }

    /**
     * Control: a scan that takes every bad record of the last segment for a torn tail drops the
     * committed operations after a damaged one, which the check above refuses.
     */
    @Test
    void controlTakingCorruptionForATornTailLosesCommittedOperations() throws IOException {
        Path segment = written();
        byte[] bad = Files.readAllBytes(segment);
        bad[offsetOf(1) + 12] ^= 0x01;
        Files.write(segment, bad);
        try (Journal<List<String>, String> j = TestDisks.open(dir, TestDisks.NO_FSYNC,
                Journal.Defect.CORRUPTION_TAKEN_FOR_TORN_TAIL)) {
            assertThat(j.recovered().operations()).containsExactly(OPS.get(0));
        }
    }

    /** Which record (0-based) byte {@code i} of the segment belongs to. */
    static int recordAt(int i) {
        for (int r = OPS.size() - 1; r >= 0; r--) {
            if (i >= offsetOf(r)) {
                return r;
            }
        }
        throw new IllegalArgumentException("offset " + i + " is in the header");
    }
}
