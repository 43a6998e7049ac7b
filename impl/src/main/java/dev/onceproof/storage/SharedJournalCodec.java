package dev.onceproof.storage;

import dev.onceproof.storage.SharedJournal.Entry;
import dev.onceproof.storage.SharedJournal.Image;
import dev.onceproof.storage.SharedJournal.Retired;
import dev.onceproof.storage.SharedJournal.Tagged;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bytes of a {@link SharedJournal}: its records (a view's operation, tag SHJ1; a view's retire,
 * tag SHR1) and its checkpoint (every view's image, tag SHI1, in key order so equal states give
 * equal files).
 */
final class SharedJournalCodec {

    private SharedJournalCodec() {
    }

    private static final int RECORD_TAG = 0x53484a31; // "SHJ1"
    private static final int IMAGES_TAG = 0x53484931; // "SHI1"
    private static final int RETIRED_TAG = 0x53485231; // "SHR1"

    static final JournalCodec<Map<String, Image>, Entry> CODEC = new JournalCodec<>() {
        @Override
        public byte[] encodeOperation(Entry e) {
            return Framing.write(out -> {
                if (e instanceof Tagged t) {
                    out.writeInt(RECORD_TAG);
                    out.writeUTF(t.key());
                    out.writeLong(t.seq());
                    Framing.writeBytes(out, t.payload());
                } else {
                    Retired r = (Retired) e;
                    out.writeInt(RETIRED_TAG);
                    out.writeUTF(r.key());
                    out.writeLong(r.lastSeq());
                }
            });
        }

        @Override
        public Entry decodeOperation(byte[] bytes) {
            return Framing.read("shared journal payload", bytes, in -> {
                int tag = in.readInt();
                if (tag == RETIRED_TAG) {
                    String key = in.readUTF();
                    long last = in.readLong();
                    if (last < 0) {
                        throw new IOException("retire of " + key + " after operation " + last);
                    }
                    return new Retired(key, last);
                }
                if (tag != RECORD_TAG) {
                    throw new IOException(String.format("tag 0x%08x is neither a record (0x%08x) nor a retire (0x%08x)",
                            tag, RECORD_TAG, RETIRED_TAG));
                }
                return new Tagged(in.readUTF(), in.readLong(), Framing.readBytes(in, "record payload"));
            });
        }

        @Override
        public byte[] encodeCheckpoint(Map<String, Image> images) {
            return Framing.write(out -> {
                out.writeInt(IMAGES_TAG);
                out.writeInt(images.size());
                for (Map.Entry<String, Image> e : new TreeMap<>(images).entrySet()) {
                    Image im = e.getValue();
                    out.writeUTF(e.getKey());
                    out.writeLong(im.checkpointSeq);
                    out.writeBoolean(im.checkpoint != null);
                    if (im.checkpoint != null) {
                        Framing.writeBytes(out, im.checkpoint);
                    }
                    out.writeInt(im.records.size());
                    for (byte[] b : im.records) {
                        Framing.writeBytes(out, b);
                    }
                }
            });
        }

        @Override
        public Map<String, Image> decodeCheckpoint(byte[] bytes) {
            return Framing.read("shared journal payload", bytes, in -> {
                Framing.expectTag(in, IMAGES_TAG, "checkpoint");
                int n = Framing.count(in, "stores");
                Map<String, Image> images = new HashMap<>();
                for (int i = 0; i < n; i++) {
                    String key = in.readUTF();
                    Image im = new Image();
                    im.checkpointSeq = in.readLong();
                    if (im.checkpointSeq < 0) {
                        throw new IOException("store " + key + ": checkpoint number " + im.checkpointSeq);
                    }
                    im.checkpoint = in.readBoolean() ? Framing.readBytes(in, "checkpoint of " + key) : null;
                    int m = Framing.count(in, "records of " + key);
                    for (int j = 0; j < m; j++) {
                        byte[] b = Framing.readBytes(in, "record of " + key);
                        im.records.add(b);
                        im.recordBytes += b.length;
                    }
                    images.put(key, im);
                }
                return images;
            });
        }
    };
}
