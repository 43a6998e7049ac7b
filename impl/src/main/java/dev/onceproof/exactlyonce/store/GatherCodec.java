package dev.onceproof.exactlyonce.store;

import dev.onceproof.exactlyonce.ClientHistory;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.GatherDurableState;
import dev.onceproof.exactlyonce.GatherOp;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.storage.Framing;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The binary form of Strategies 4-6's durable states: a server's {@link GatherDurableState} (the
 * journal's checkpoint, tag EGS3) and a step's {@link GatherOp}s (one journal record, tag EGO1),
 * both inside {@link dev.onceproof.storage.Journal}'s CRC-checked framing; and a client's
 * {@link ClientHistory} inside a snapshot. A payload that does not decode completely, or decodes to
 * a state that breaks its invariants, is corruption, reported with where it was read from.
 *
 * <p>No data from the snapshot-per-step server store (before the journal) is migrated: none was
 * deployed. Its EGS3 snapshot is the checkpoint's format, so such a file could become a checkpoint.
 */
final class GatherCodec {

    /** EGS1 (before entry numbers) is refused like any other unknown tag, naming the file. */
    private static final int SERVER_TAG_V2 = 0x45475332; // "EGS2": EGS1 followed by the entry numbers and seen
    /** EGS3: EGS2 followed by the replication round's numbers and origins; EGS2 is still read. */
    private static final int SERVER_TAG = 0x45475333; // "EGS3"
    private static final int HISTORY_TAG = 0x45484931; // "EHI1"
    /** EGO1: one step's operations (a count, then each with its kind byte). */
    private static final int OPS_TAG = 0x45474F31; // "EGO1"

    private static final byte ENTER = 1;
    private static final byte OPEN_ROUND = 2;
    private static final byte ACK_ROUND = 3;
    private static final byte COMMIT_ROUND = 4;
    private static final byte ADD_D = 5;
    private static final byte SET_TS = 6;
    private static final byte START_SESSION = 7;
    private static final byte LOG_ATTEMPT = 8;
    private static final byte ADELIVER_OK = 9;
    private static final byte ADELIVER_ERR = 10;
    private static final byte PURGE = 11;

    private GatherCodec() {
    }

    static byte[] encodeServer(GatherDurableState s) {
        return Framing.write(out -> {
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
        return Framing.read(where, payload, in -> {
            int tag = in.readInt();
            if (tag != SERVER_TAG && tag != SERVER_TAG_V2) {
                throw new IOException("not a gather server state: tag 0x" + Integer.toHexString(tag)
                        + ", expected 0x" + Integer.toHexString(SERVER_TAG) + " or 0x"
                        + Integer.toHexString(SERVER_TAG_V2));
            }
            TreeMap<NoteId, Note> k = new TreeMap<>();
            int n = Framing.count(in, "K");
            for (int i = 0; i < n; i++) {
                Note note = new Note(NoteId.parse(in.readUTF()), ClientId.of(in.readUTF()), in.readUTF());
                k.put(note.id(), note);
            }
            TreeSet<NoteId> d = new TreeSet<>();
            n = Framing.count(in, "D");
            for (int i = 0; i < n; i++) {
                d.add(NoteId.parse(in.readUTF()));
            }
            TreeMap<ServerId, Long> ts = new TreeMap<>();
            n = Framing.count(in, "TS");
            for (int i = 0; i < n; i++) {
                ts.put(ServerId.of(in.readUTF()), in.readLong());
            }
            long sessions = in.readLong();
            TreeMap<NoteId, GatherDurableState.Attempt> log = new TreeMap<>();
            n = Framing.count(in, "aDeliver log");
            for (int i = 0; i < n; i++) {
                log.put(NoteId.parse(in.readUTF()), new GatherDurableState.Attempt(in.readLong(), in.readBoolean()));
            }
            TreeMap<NoteId, Long> entered = new TreeMap<>();
            n = Framing.count(in, "entered");
            for (int i = 0; i < n; i++) {
                entered.put(NoteId.parse(in.readUTF()), in.readLong());
            }
            long seen = in.readLong();
            TreeMap<NoteId, SortedMap<ServerId, Long>> numbers = new TreeMap<>();
            TreeMap<NoteId, ServerId> origins = new TreeMap<>();
            if (tag == SERVER_TAG) {
                n = Framing.count(in, "numbers");
                for (int i = 0; i < n; i++) {
                    NoteId id = NoteId.parse(in.readUTF());
                    TreeMap<ServerId, Long> byServer = new TreeMap<>();
                    int m = Framing.count(in, "numbers[" + id + "]");
                    for (int j = 0; j < m; j++) {
                        byServer.put(ServerId.of(in.readUTF()), in.readLong());
                    }
                    numbers.put(id, byServer);
                }
                n = Framing.count(in, "origins");
                for (int i = 0; i < n; i++) {
                    origins.put(NoteId.parse(in.readUTF()), ServerId.of(in.readUTF()));
                }
            }
            return new GatherDurableState(k, d, ts, sessions, log, entered, seen, numbers, origins);
        });
    }

    static byte[] encodeOps(List<GatherOp> ops) {
        return Framing.write(out -> {
            out.writeInt(OPS_TAG);
            out.writeInt(ops.size());
            for (GatherOp op : ops) {
                writeOp(out, op);
            }
        });
    }

    private static void writeOp(DataOutputStream out, GatherOp op) throws IOException {
        if (op instanceof GatherOp.Enter e) {
            out.writeByte(ENTER);
            out.writeUTF(e.note().id().text());
            out.writeUTF(e.note().client().name());
            out.writeUTF(e.note().body());
            out.writeLong(e.number());
        } else if (op instanceof GatherOp.OpenRound r) {
            out.writeByte(OPEN_ROUND);
            out.writeUTF(r.id().text());
            out.writeUTF(r.origin().name());
            writeNumbers(out, r.numbers());
        } else if (op instanceof GatherOp.AckRound a) {
            out.writeByte(ACK_ROUND);
            out.writeUTF(a.id().text());
            out.writeUTF(a.server().name());
            out.writeLong(a.number());
        } else if (op instanceof GatherOp.CommitRound c) {
            out.writeByte(COMMIT_ROUND);
            out.writeUTF(c.id().text());
            writeNumbers(out, c.numbers());
        } else if (op instanceof GatherOp.AddD a) {
            out.writeByte(ADD_D);
            out.writeUTF(a.id().text());
        } else if (op instanceof GatherOp.SetTs t) {
            out.writeByte(SET_TS);
            out.writeUTF(t.server().name());
            out.writeLong(t.ts());
        } else if (op instanceof GatherOp.StartSession st) {
            out.writeByte(START_SESSION);
            out.writeLong(st.sessions());
        } else if (op instanceof GatherOp.LogAttempt a) {
            out.writeByte(LOG_ATTEMPT);
            out.writeUTF(a.id().text());
            out.writeLong(a.session());
        } else if (op instanceof GatherOp.ADeliverOk o) {
            out.writeByte(ADELIVER_OK);
            out.writeUTF(o.id().text());
            out.writeLong(o.session());
        } else if (op instanceof GatherOp.ADeliverErr x) {
            out.writeByte(ADELIVER_ERR);
            out.writeUTF(x.id().text());
        } else if (op instanceof GatherOp.Purge p) {
            out.writeByte(PURGE);
            out.writeUTF(p.id().text());
        } else {
            throw new IllegalArgumentException("no encoding for gather operation " + op);
        }
    }

    private static void writeNumbers(DataOutputStream out, SortedMap<ServerId, Long> nums) throws IOException {
        out.writeInt(nums.size());
        for (Map.Entry<ServerId, Long> x : nums.entrySet()) {
            out.writeUTF(x.getKey().name());
            out.writeLong(x.getValue());
        }
    }

    static List<GatherOp> decodeOps(String where, byte[] payload) {
        return Framing.read(where, payload, in -> {
            Framing.expectTag(in, OPS_TAG, "gather operations");
            int n = Framing.count(in, "operations");
            List<GatherOp> ops = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                ops.add(readOp(in, i));
            }
            return ops;
        });
    }

    private static GatherOp readOp(DataInputStream in, int index) throws IOException {
        byte kind = in.readByte();
        return switch (kind) {
            case ENTER -> new GatherOp.Enter(new Note(NoteId.parse(in.readUTF()), ClientId.of(in.readUTF()),
                    in.readUTF()), in.readLong());
            case OPEN_ROUND -> new GatherOp.OpenRound(NoteId.parse(in.readUTF()), ServerId.of(in.readUTF()),
                    readNumbers(in, "operation " + index));
            case ACK_ROUND -> new GatherOp.AckRound(NoteId.parse(in.readUTF()), ServerId.of(in.readUTF()),
                    in.readLong());
            case COMMIT_ROUND -> new GatherOp.CommitRound(NoteId.parse(in.readUTF()), readNumbers(in,
                    "operation " + index));
            case ADD_D -> new GatherOp.AddD(NoteId.parse(in.readUTF()));
            case SET_TS -> new GatherOp.SetTs(ServerId.of(in.readUTF()), in.readLong());
            case START_SESSION -> new GatherOp.StartSession(in.readLong());
            case LOG_ATTEMPT -> new GatherOp.LogAttempt(NoteId.parse(in.readUTF()), in.readLong());
            case ADELIVER_OK -> new GatherOp.ADeliverOk(NoteId.parse(in.readUTF()), in.readLong());
            case ADELIVER_ERR -> new GatherOp.ADeliverErr(NoteId.parse(in.readUTF()));
            case PURGE -> new GatherOp.Purge(NoteId.parse(in.readUTF()));
            default -> throw new IOException("operation " + index + " has unknown kind " + kind);
        };
    }

    private static TreeMap<ServerId, Long> readNumbers(DataInputStream in, String what) throws IOException {
        TreeMap<ServerId, Long> nums = new TreeMap<>();
        int m = Framing.count(in, what + " numbers");
        for (int j = 0; j < m; j++) {
            nums.put(ServerId.of(in.readUTF()), in.readLong());
        }
        return nums;
    }

    static byte[] encodeHistory(ClientHistory h) {
        return Framing.write(out -> {
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
        return Framing.read(where, payload, in -> {
            Framing.expectTag(in, HISTORY_TAG, "connect history");
            boolean complete = in.readBoolean();
            TreeMap<ServerId, Long> ended = new TreeMap<>();
            int n = Framing.count(in, "ended");
            for (int i = 0; i < n; i++) {
                ended.put(ServerId.of(in.readUTF()), in.readLong());
            }
            TreeSet<ServerId> open = new TreeSet<>();
            n = Framing.count(in, "open");
            for (int i = 0; i < n; i++) {
                open.add(ServerId.of(in.readUTF()));
            }
            return new ClientHistory(complete, ended, open);
        });
    }
}
