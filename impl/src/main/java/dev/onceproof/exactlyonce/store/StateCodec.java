package dev.onceproof.exactlyonce.store;

import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.storage.CorruptSnapshotException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The binary form of the durable states inside a snapshot (the snapshot file adds the checksum
 * and generation). Ids are written in their text form, counts as ints; a payload that does not
 * decode completely is corruption, reported with where it was read from.
 */
final class StateCodec {

    private static final int CLIENT_TAG = 0x45434C31; // "ECL1"
    /** ESV1 (before entry numbers) is refused like any other unknown tag, naming the file. */
    private static final int SERVER_TAG_V2 = 0x45535632; // "ESV2": ESV1 followed by the entry numbers
    /** ESV3: ESV2 followed by the replication round's numbers and origins; ESV2 is still read. */
    private static final int SERVER_TAG = 0x45535633;

    private StateCodec() {
    }

    static byte[] encodeClient(ClientStableState stable, byte[] application) {
        return write(out -> {
            out.writeInt(CLIENT_TAG);
            if (stable instanceof ClientStableState.Streams s) {
                out.writeByte(1);
                out.writeInt(s.r().size());
                for (Map.Entry<ServerId, Long> e : s.r().entrySet()) {
                    out.writeUTF(e.getKey().name());
                    out.writeLong(e.getValue());
                }
            } else if (stable instanceof ClientStableState.IdList s) {
                out.writeByte(2);
                out.writeInt(s.r().size());
                for (NoteId id : s.r()) {
                    out.writeUTF(id.text());
                }
            } else {
                out.writeByte(0);
            }
            out.writeInt(application.length);
            out.write(application);
        });
    }

    static ClientStore.Contents decodeClient(String where, byte[] payload) {
        return read(where, payload, in -> {
            expectTag(in, CLIENT_TAG, "client state");
            int kind = in.readUnsignedByte();
            ClientStableState stable = switch (kind) {
                case 0 -> new ClientStableState.Stateless();
                case 1 -> {
                    TreeMap<ServerId, Long> r = new TreeMap<>();
                    int n = count(in, "R");
                    for (int i = 0; i < n; i++) {
                        r.put(ServerId.of(in.readUTF()), in.readLong());
                    }
                    yield new ClientStableState.Streams(r);
                }
                case 2 -> {
                    TreeSet<NoteId> r = new TreeSet<>();
                    int n = count(in, "R");
                    for (int i = 0; i < n; i++) {
                        r.add(NoteId.parse(in.readUTF()));
                    }
                    yield new ClientStableState.IdList(r);
                }
                default -> throw new IOException("unknown client state kind " + kind);
            };
            byte[] application = new byte[count(in, "application state")];
            in.readFully(application);
            return new ClientStore.Contents(stable, application);
        });
    }

    static byte[] encodeServer(ServerDurableState s) {
        return write(out -> {
            out.writeInt(SERVER_TAG);
            out.writeInt(s.k().size());
            for (Note note : s.k().values()) {
                out.writeUTF(note.id().text());
                out.writeUTF(note.client().name());
                out.writeUTF(note.body());
            }
            writeIds(out, s.d());
            out.writeLong(s.ctr());
            writeIds(out, s.removed());
            out.writeLong(s.round());
            out.writeInt(s.issued().size());
            for (Map.Entry<Long, Long> e : s.issued().entrySet()) {
                out.writeLong(e.getKey());
                out.writeLong(e.getValue());
            }
            out.writeInt(s.conf().size());
            for (Map.Entry<Long, SortedMap<ServerId, Long>> e : s.conf().entrySet()) {
                out.writeLong(e.getKey());
                out.writeInt(e.getValue().size());
                for (Map.Entry<ServerId, Long> c : e.getValue().entrySet()) {
                    out.writeUTF(c.getKey().name());
                    out.writeLong(c.getValue());
                }
            }
            out.writeInt(s.entered().size());
            for (Map.Entry<NoteId, Long> e : s.entered().entrySet()) {
                out.writeUTF(e.getKey().text());
                out.writeLong(e.getValue());
            }
            out.writeLong(s.seen());
            out.writeInt(s.numbers().size());
            for (Map.Entry<NoteId, SortedMap<ServerId, Long>> e : s.numbers().entrySet()) {
                out.writeUTF(e.getKey().text());
                out.writeInt(e.getValue().size());
                for (Map.Entry<ServerId, Long> c : e.getValue().entrySet()) {
                    out.writeUTF(c.getKey().name());
                    out.writeLong(c.getValue());
                }
            }
            out.writeInt(s.origins().size());
            for (Map.Entry<NoteId, ServerId> e : s.origins().entrySet()) {
                out.writeUTF(e.getKey().text());
                out.writeUTF(e.getValue().name());
            }
        });
    }

    static ServerDurableState decodeServer(String where, byte[] payload) {
        return read(where, payload, in -> {
            int tag = in.readInt();
            if (tag != SERVER_TAG && tag != SERVER_TAG_V2) {
                throw new IOException("not a server state: tag 0x" + Integer.toHexString(tag) + ", expected 0x"
                        + Integer.toHexString(SERVER_TAG) + " or 0x" + Integer.toHexString(SERVER_TAG_V2));
            }
            TreeMap<NoteId, Note> k = new TreeMap<>();
            int n = count(in, "K");
            for (int i = 0; i < n; i++) {
                Note note = new Note(NoteId.parse(in.readUTF()), ClientId.of(in.readUTF()), in.readUTF());
                k.put(note.id(), note);
            }
            TreeSet<NoteId> d = readIds(in, "D");
            long ctr = in.readLong();
            TreeSet<NoteId> removed = readIds(in, "removed");
            long round = in.readLong();
            TreeMap<Long, Long> issued = new TreeMap<>();
            n = count(in, "issued");
            for (int i = 0; i < n; i++) {
                issued.put(in.readLong(), in.readLong());
            }
            TreeMap<Long, SortedMap<ServerId, Long>> conf = new TreeMap<>();
            n = count(in, "conf");
            for (int i = 0; i < n; i++) {
                long seq = in.readLong();
                TreeMap<ServerId, Long> bySever = new TreeMap<>();
                int m = count(in, "conf[" + seq + "]");
                for (int j = 0; j < m; j++) {
                    bySever.put(ServerId.of(in.readUTF()), in.readLong());
                }
                conf.put(seq, bySever);
            }
            TreeMap<NoteId, Long> entered = new TreeMap<>();
            n = count(in, "entered");
            for (int i = 0; i < n; i++) {
                entered.put(NoteId.parse(in.readUTF()), in.readLong());
            }
            long seen = in.readLong();
            TreeMap<NoteId, SortedMap<ServerId, Long>> numbers = new TreeMap<>();
            TreeMap<NoteId, ServerId> origins = new TreeMap<>();
            if (tag == SERVER_TAG) {
                n = count(in, "numbers");
                for (int i = 0; i < n; i++) {
                    NoteId id = NoteId.parse(in.readUTF());
                    TreeMap<ServerId, Long> byServer = new TreeMap<>();
                    int m = count(in, "numbers[" + id + "]");
                    for (int j = 0; j < m; j++) {
                        byServer.put(ServerId.of(in.readUTF()), in.readLong());
                    }
                    numbers.put(id, byServer);
                }
                n = count(in, "origins");
                for (int i = 0; i < n; i++) {
                    origins.put(NoteId.parse(in.readUTF()), ServerId.of(in.readUTF()));
                }
            }
            return new ServerDurableState(k, d, ctr, removed, round, issued, conf, entered, seen, numbers, origins);
        });
    }

    private static void writeIds(DataOutputStream out, Iterable<NoteId> ids) throws IOException {
        int n = 0;
        for (NoteId ignored : ids) {
            n++;
        }
        out.writeInt(n);
        for (NoteId id : ids) {
            out.writeUTF(id.text());
        }
    }

    private static TreeSet<NoteId> readIds(DataInputStream in, String what) throws IOException {
        TreeSet<NoteId> ids = new TreeSet<>();
        int n = count(in, what);
        for (int i = 0; i < n; i++) {
            ids.add(NoteId.parse(in.readUTF()));
        }
        return ids;
    }

    // The framing below is shared with GatherCodec (same package).

    static int count(DataInputStream in, String what) throws IOException {
        int n = in.readInt();
        if (n < 0 || n > in.available()) {
            throw new IOException(what + " count " + n + " does not fit the " + in.available() + " bytes left");
        }
        return n;
    }

    static void expectTag(DataInputStream in, int tag, String what) throws IOException {
        int got = in.readInt();
        if (got != tag) {
            throw new IOException(String.format("%s tag 0x%08X, expected 0x%08X", what, got, tag));
        }
    }

    interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    static byte[] write(Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static <T> T read(String where, byte[] payload, Reader<T> reader) {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload));
        try {
            T value = reader.read(in);
            if (in.available() != 0) {
                throw new IOException(in.available() + " bytes of trailing garbage");
            }
            return value;
        } catch (IOException | IllegalArgumentException e) {
            throw new CorruptSnapshotException(where, "payload does not decode: " + e.getMessage());
        }
    }
}
