package dev.onceproof.storage;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * One journal segment file: its name, its format, and the scan that reads it back.
 *
 * <p>Name: {@code journal-<first sequence number, 20 digits>.log}, so names sort by sequence.
 * Format (big-endian): magic {@code "OPJL"} and format version (int, {@value #VERSION}), then
 * records. A record is its payload length (int), its sequence number (long), the payload, and the
 * CRC32C of the length, sequence number and payload (int). Sequence numbers in a segment are
 * consecutive from the one in its name; a segment's successor starts right after its last one.
 */
final class JournalSegment {

    static final int MAGIC = 0x4F504A4C; // "OPJL": onceproof journal
    static final int VERSION = 1;
    static final int HEADER = 8;
    /** Length, sequence number, CRC. */
    static final int OVERHEAD = 4 + 8 + 4;
    /** A bound on what a corrupt length field can make a scan believe (an operation is small). */
    static final int MAX_PAYLOAD = 16 << 20;

    private static final Pattern NAME = Pattern.compile("journal-(\\d{20})\\.log");

    private JournalSegment() {
    }

    static String name(long first) {
        return String.format("journal-%020d.log", first);
    }

    /** The first sequence number a file name announces; empty if it is not a segment's name. */
    static OptionalLong first(Path file) {
        Matcher m = NAME.matcher(file.getFileName().toString());
        return m.matches() ? OptionalLong.of(Long.parseLong(m.group(1))) : OptionalLong.empty();
    }

    static ByteBuffer header() {
        return ByteBuffer.allocate(HEADER).putInt(MAGIC).putInt(VERSION).flip();
    }

    static byte[] record(long seq, byte[] payload) {
        if (payload.length > MAX_PAYLOAD) {
            throw new IllegalArgumentException("journal operation of " + payload.length + " bytes is above the "
                    + MAX_PAYLOAD + "-byte bound");
        }
        ByteBuffer buf = ByteBuffer.allocate(OVERHEAD + payload.length);
        buf.putInt(payload.length).putLong(seq).put(payload);
        buf.putInt(crc(buf.array(), 0, 12 + payload.length));
        return buf.array();
    }

    private static int crc(byte[] bytes, int from, int length) {
        CRC32C crc = new CRC32C();
        crc.update(bytes, from, length);
        return (int) crc.getValue();
    }

    /** A record read back: its sequence number, where it starts in its file, its payload. */
    record Entry(long seq, long offset, byte[] payload) {
    }

    /**
     * What a scan found: the good records in order, where the good prefix ends, and whether bytes
     * after it were dropped as a torn tail (only ever in the last segment).
     */
    record Scan(Path file, long first, List<Entry> entries, long goodEnd, boolean torn, String tornReason) {

        /** The last sequence number in the good prefix; {@code first - 1} if it holds no record. */
        long last() {
            return first + entries.size() - 1;
        }
    }

    /**
     * Reads a whole segment. In the last segment (the one being appended to when the process
     * died) a short or checksum-failing record with no good record anywhere after it is the torn
     * tail of a write that never completed, as is a header shorter than a header; everywhere else,
     * and whenever a good record follows the bad one, the file is corrupt.
     *
     * @param checkCrc false only for the {@link Journal.Defect#CRC_NOT_CHECKED} control
     * @param tailAlwaysTorn true only for the {@link Journal.Defect#CORRUPTION_TAKEN_FOR_TORN_TAIL} control
     */
    static Scan scan(Path file, long first, byte[] bytes, boolean last, boolean checkCrc, boolean tailAlwaysTorn) {
        if (bytes.length < HEADER) {
            if (last) {
                return new Scan(file, first, List.of(), 0, true, "header of " + bytes.length + " bytes, below "
                        + HEADER + " (the segment was being created)");
            }
            throw new CorruptJournalException(file, 0, "header of " + bytes.length + " bytes, below " + HEADER
                    + ", in a sealed segment");
        }
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        int magic = buf.getInt();
        int version = buf.getInt();
        if (magic != MAGIC) {
            throw new CorruptJournalException(file, 0, String.format("magic 0x%08X, expected 0x%08X (\"OPJL\")",
                    magic, MAGIC));
        }
        if (version != VERSION) {
            throw new CorruptJournalException(file, 4, "format version " + version + ", this build reads " + VERSION);
        }
        List<Entry> entries = new ArrayList<>();
        int p = HEADER;
        long expected = first;
        while (p < bytes.length) {
            String bad = check(bytes, p, checkCrc);
            if (bad != null) {
                if (!last) {
                    throw new CorruptJournalException(file, p, bad + ", in a sealed segment");
                }
                int next = tailAlwaysTorn ? -1 : nextGoodRecord(bytes, p + 1);
                if (next >= 0) {
                    throw new CorruptJournalException(file, p, bad + ", and a good record follows at offset " + next
                            + ", so this is not a torn tail");
                }
                return new Scan(file, first, entries, p, true, bad + " at offset " + p);
            }
            int length = buf.getInt(p);
            long seq = buf.getLong(p + 4);
            if (seq != expected) {
                // A record that passed its CRC was written whole: a wrong number is not a torn write.
                throw new CorruptJournalException(file, p, "sequence number " + seq + ", expected " + expected);
            }
            byte[] payload = new byte[length];
            System.arraycopy(bytes, p + 12, payload, 0, length);
            entries.add(new Entry(seq, p, payload));
            expected++;
            p += OVERHEAD + length;
        }
        return new Scan(file, first, entries, p, false, null);
    }

    /** Why the record at {@code p} is not whole and intact, or null if it is. */
    private static String check(byte[] bytes, int p, boolean checkCrc) {
        int left = bytes.length - p;
        if (left < OVERHEAD) {
            return "short record: " + left + " bytes left, a record takes at least " + OVERHEAD;
        }
        int length = ByteBuffer.wrap(bytes, p, 4).getInt();
        if (length < 0 || length > MAX_PAYLOAD) {
            return "record length " + length + " outside 0.." + MAX_PAYLOAD;
        }
        if ((long) OVERHEAD + length > left) {
            return "short record: length " + length + " needs " + (OVERHEAD + length) + " bytes, " + left + " left";
        }
        int stored = ByteBuffer.wrap(bytes, p + 12 + length, 4).getInt();
        int computed = crc(bytes, p, 12 + length);
        if (checkCrc && stored != computed) {
            return String.format("record CRC32C 0x%08X does not match its contents 0x%08X", stored, computed);
        }
        return null;
    }

    /**
     * The offset of the first whole record with a matching CRC at or after {@code from}, or -1.
     * A torn write leaves no such record behind it; a corrupted byte in the middle of the file
     * does. A false match in garbage needs a 32-bit CRC to agree by chance.
     */
    private static int nextGoodRecord(byte[] bytes, int from) {
        for (int q = from; q + OVERHEAD <= bytes.length; q++) {
            if (check(bytes, q, true) == null) {
                return q;
            }
        }
        return -1;
    }
}
