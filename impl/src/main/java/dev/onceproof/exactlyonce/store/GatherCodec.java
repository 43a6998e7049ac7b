package dev.onceproof.exactlyonce.store;

import dev.onceproof.exactlyonce.ClientHistory;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.GatherDurableState;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.ServerId;
import java.io.IOException;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The binary form of Strategies 4-6's durable states inside a snapshot (the snapshot file adds the
 * checksum and the generation): a server's {@link GatherDurableState} and a client's
 * {@link ClientHistory}. A payload that does not decode completely, or decodes to a state that
 * breaks its invariants, is corruption, reported with where it was read from.
 */
final class GatherCodec {

    /** EGS1 (before entry numbers) is refused like any other unknown tag, naming the file. */
    private static final int SERVER_TAG_V2 = 0x45475332; // "EGS2": EGS1 followed by the entry numbers and seen
    /** EGS3: EGS2 followed by the replication round's numbers and origins; EGS2 is still read. */
    private static final int SERVER_TAG = 0x45475333; // "EGS3"
    private static final int HISTORY_TAG = 0x45484931; // "EHI1"

    private GatherCodec() {
    }

    static byte[] encodeServer(GatherDurableState s) {
        return StateCodec.write(out -> {
            out.writeInt(SERVER_TAG);
            out.writeInt(s.k().size());
            for (Note n : s.k().values()) {
                out.writeUTF(n.id().text());
                out.writeUTF(n.client().name());
                out.writeUTF(n.body());
            }
            out.writeInt(s.d().size());
            for (NoteId i : s.d()) {
                out.writeUTF(i.text());
            }
            out.writeInt(s.ts().size());
            for (Map.Entry<ServerId, Long> e : s.ts().entrySet()) {
                out.writeUTF(e.getKey().name());
                out.writeLong(e.getValue());
            }
            out.writeLong(s.sessions());
            out.writeInt(s.log().size());
            for (Map.Entry<NoteId, GatherDurableState.Attempt> e : s.log().entrySet()) {
                out.writeUTF(e.getKey().text());
                out.writeLong(e.getValue().session());
                out.writeBoolean(e.getValue().ok());
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
                for (Map.Entry<ServerId, Long> x : e.getValue().entrySet()) {
                    out.writeUTF(x.getKey().name());
                    out.writeLong(x.getValue());
                }
            }
            out.writeInt(s.origins().size());
            for (Map.Entry<NoteId, ServerId> e : s.origins().entrySet()) {
                out.writeUTF(e.getKey().text());
                out.writeUTF(e.getValue().name());
            }
        });
    }

    static GatherDurableState decodeServer(String where, byte[] payload) {
        return StateCodec.read(where, payload, in -> {
            int tag = in.readInt();
            if (tag != SERVER_TAG && tag != SERVER_TAG_V2) {
                throw new IOException("not a gather server state: tag 0x" + Integer.toHexString(tag)
                        + ", expected 0x" + Integer.toHexString(SERVER_TAG) + " or 0x"
                        + Integer.toHexString(SERVER_TAG_V2));
            }
            TreeMap<NoteId, Note> k = new TreeMap<>();
            int n = StateCodec.count(in, "K");
            for (int i = 0; i < n; i++) {
                Note note = new Note(NoteId.parse(in.readUTF()), ClientId.of(in.readUTF()), in.readUTF());
                k.put(note.id(), note);
            }
            TreeSet<NoteId> d = new TreeSet<>();
            n = StateCodec.count(in, "D");
            for (int i = 0; i < n; i++) {
                d.add(NoteId.parse(in.readUTF()));
            }
            TreeMap<ServerId, Long> ts = new TreeMap<>();
            n = StateCodec.count(in, "TS");
            for (int i = 0; i < n; i++) {
                ts.put(ServerId.of(in.readUTF()), in.readLong());
            }
            long sessions = in.readLong();
            TreeMap<NoteId, GatherDurableState.Attempt> log = new TreeMap<>();
            n = StateCodec.count(in, "aDeliver log");
            for (int i = 0; i < n; i++) {
                log.put(NoteId.parse(in.readUTF()), new GatherDurableState.Attempt(in.readLong(), in.readBoolean()));
            }
            TreeMap<NoteId, Long> entered = new TreeMap<>();
            n = StateCodec.count(in, "entered");
            for (int i = 0; i < n; i++) {
                entered.put(NoteId.parse(in.readUTF()), in.readLong());
            }
            long seen = in.readLong();
            TreeMap<NoteId, SortedMap<ServerId, Long>> numbers = new TreeMap<>();
            TreeMap<NoteId, ServerId> origins = new TreeMap<>();
            if (tag == SERVER_TAG) {
                n = StateCodec.count(in, "numbers");
                for (int i = 0; i < n; i++) {
                    NoteId id = NoteId.parse(in.readUTF());
                    TreeMap<ServerId, Long> byServer = new TreeMap<>();
                    int m = StateCodec.count(in, "numbers[" + id + "]");
                    for (int j = 0; j < m; j++) {
                        byServer.put(ServerId.of(in.readUTF()), in.readLong());
                    }
                    numbers.put(id, byServer);
                }
                n = StateCodec.count(in, "origins");
                for (int i = 0; i < n; i++) {
                    origins.put(NoteId.parse(in.readUTF()), ServerId.of(in.readUTF()));
                }
            }
            return new GatherDurableState(k, d, ts, sessions, log, entered, seen, numbers, origins);
        });
    }

    static byte[] encodeHistory(ClientHistory h) {
        return StateCodec.write(out -> {
            out.writeInt(HISTORY_TAG);
            out.writeBoolean(h.complete());
            out.writeInt(h.ended().size());
            for (Map.Entry<ServerId, Long> e : h.ended().entrySet()) {
                out.writeUTF(e.getKey().name());
                out.writeLong(e.getValue());
            }
            out.writeInt(h.open().size());
            for (ServerId s : h.open()) {
                out.writeUTF(s.name());
            }
        });
    }

    static ClientHistory decodeHistory(String where, byte[] payload) {
        return StateCodec.read(where, payload, in -> {
            StateCodec.expectTag(in, HISTORY_TAG, "connect history");
            boolean complete = in.readBoolean();
            TreeMap<ServerId, Long> ended = new TreeMap<>();
            int n = StateCodec.count(in, "ended");
            for (int i = 0; i < n; i++) {
                ended.put(ServerId.of(in.readUTF()), in.readLong());
            }
            TreeSet<ServerId> open = new TreeSet<>();
            n = StateCodec.count(in, "open");
            for (int i = 0; i < n; i++) {
                open.add(ServerId.of(in.readUTF()));
            }
            return new ClientHistory(complete, ended, open);
        });
    }
}
