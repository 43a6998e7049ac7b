package dev.onceproof.exactlyonce.store;

import static dev.onceproof.storage.Framing.count;
import static dev.onceproof.storage.Framing.expectTag;
import static dev.onceproof.storage.Framing.read;
import static dev.onceproof.storage.Framing.write;

import dev.onceproof.exactlyonce.ClientEffect;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.ClientStableState;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.ServerDurableState;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.ServerOp;
import dev.onceproof.storage.JournalCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The binary form of the exactly-once stores' journals (the journal adds the length, sequence
 * number and CRC per record): a server's checkpoint ({@link ServerDurableState}, tag ESV4) and its
 * operations (a step's {@link ServerOp} list as one record, tag ESO1); a client's checkpoint (R with
 * the application state, tag ECL1) and its operations (a {@link ClientEffect.Record}: the new R and
 * the note processed, tag ECO1). Ids are written in their text form, counts as ints; a payload that
 * does not decode completely is refused, naming what did not decode (the journal adds the file and
 * offset). The earlier snapshot-per-step format is not read: no store was ever deployed with it, so
 * there is nothing to migrate.
 */
final class StateCodec {

    private static final int CLIENT_TAG = 0x45434C31; // "ECL1"
    /** ESV1 (before entry numbers) is refused like any other unknown tag, naming the file. */
    private static final int SERVER_TAG_V2 = 0x45535632; // "ESV2": ESV1 followed by the entry numbers
    /** ESV3: ESV2 followed by the replication round's numbers and origins; still read. */
    private static final int SERVER_TAG_V3 = 0x45535633;
    /** ESV4: ESV3 followed by Strategy 0's confirmations of removed ids; still read. */
    private static final int SERVER_TAG_V4 = 0x45535634;
    /** ESV5: ESV4 followed by Strategy 2's issue numbers; ESV2-ESV4 are still read. */
    private static final int SERVER_TAG = 0x45535635;
    private static final int SERVER_OPS_TAG = 0x45534F31; // "ESO1"
    private static final int CLIENT_OP_TAG = 0x45434F31; // "ECO1"

    /** A server's journal: checkpoints of its durable state, one record per step's operations. */
    static JournalCodec<ServerDurableState, List<ServerOp>> serverJournal() {
        return new JournalCodec<>() {
            @Override
            public byte[] encodeOperation(List<ServerOp> ops) {
                return encodeServerOps(ops);
            }

            @Override
            public List<ServerOp> decodeOperation(byte[] bytes) {
                return decodeServerOps("server operations record", bytes);
            }

            @Override
            public byte[] encodeCheckpoint(ServerDurableState state) {
                return encodeServer(state);
            }

            @Override
            public ServerDurableState decodeCheckpoint(byte[] bytes) {
                return decodeServer("server checkpoint", bytes);
            }
        };
    }

    /** A client's journal: checkpoints of R with the application state, one record per accepted note. */
    static JournalCodec<ClientStore.Contents, ClientEffect.Record> clientJournal() {
        return new JournalCodec<>() {
            @Override
            public byte[] encodeOperation(ClientEffect.Record r) {
                return write(out -> {
                    out.writeInt(CLIENT_OP_TAG);
                    writeStable(out, r.state());
                    out.writeBoolean(r.processed().isPresent());
                    if (r.processed().isPresent()) {
                        writeNote(out, r.processed().get());
                    }
                });
            }

            @Override
            public ClientEffect.Record decodeOperation(byte[] bytes) {
                return read("client operation record", bytes, in -> {
                    expectTag(in, CLIENT_OP_TAG, "client operation");
                    ClientStableState stable = readStable(in);
                    Optional<Note> note = in.readBoolean() ? Optional.of(readNote(in)) : Optional.empty();
                    return new ClientEffect.Record(stable, note);
                });
            }

            @Override
            public byte[] encodeCheckpoint(ClientStore.Contents c) {
                return encodeClient(c.stable(), c.application());
            }

            @Override
            public ClientStore.Contents decodeCheckpoint(byte[] bytes) {
                return decodeClient("client checkpoint", bytes);
            }
        };
    }

    static byte[] encodeServerOps(List<ServerOp> ops) {
        return write(out -> {
            out.writeInt(SERVER_OPS_TAG);
            out.writeInt(ops.size());
            for (ServerOp op : ops) {
                writeOp(out, op);
            }
        });
    }

    static List<ServerOp> decodeServerOps(String where, byte[] payload) {
        return read(where, payload, in -> {
            expectTag(in, SERVER_OPS_TAG, "server operations");
            int n = count(in, "operations");
            List<ServerOp> ops = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                ops.add(readOp(in, i));
            }
            return ops;
        });
    }

    // One byte names the operation; the kinds' numbers are part of the format: never reuse one.
    private static void writeOp(DataOutputStream out, ServerOp op) throws IOException {
        if (op instanceof ServerOp.Enter e) {
            out.writeByte(1);
            writeNote(out, e.note());
            out.writeLong(e.number());
        } else if (op instanceof ServerOp.Forget f) {
            out.writeByte(2);
            out.writeUTF(f.id().text());
        } else if (op instanceof ServerOp.AddD a) {
            out.writeByte(3);
            out.writeUTF(a.id().text());
        } else if (op instanceof ServerOp.AddRemoved a) {
            out.writeByte(4);
            out.writeUTF(a.id().text());
        } else if (op instanceof ServerOp.DropRemoved r) {
            out.writeByte(5);
            out.writeUTF(r.id().text());
        } else if (op instanceof ServerOp.SetCtr c) {
            out.writeByte(6);
            out.writeLong(c.ctr());
        } else if (op instanceof ServerOp.SetRound r) {
            out.writeByte(7);
            out.writeLong(r.round());
        } else if (op instanceof ServerOp.Issue i) {
            out.writeByte(8);
            out.writeLong(i.seq());
            out.writeLong(i.round());
        } else if (op instanceof ServerOp.Confirm c) {
            out.writeByte(9);
            out.writeLong(c.seq());
            out.writeUTF(c.by().name());
            out.writeLong(c.at());
        } else if (op instanceof ServerOp.SetNumbers n) {
            out.writeByte(10);
            out.writeUTF(n.id().text());
            writeNumbers(out, n.numbers());
        } else if (op instanceof ServerOp.Number n) {
            out.writeByte(11);
            out.writeUTF(n.id().text());
            out.writeUTF(n.by().name());
            out.writeLong(n.number());
        } else if (op instanceof ServerOp.Origin o) {
            out.writeByte(12);
            out.writeUTF(o.id().text());
            out.writeUTF(o.origin().name());
        } else if (op instanceof ServerOp.Complete c) {
            out.writeByte(13);
            out.writeUTF(c.id().text());
        } else if (op instanceof ServerOp.ConfirmRemoved c) {
            out.writeByte(14);
            out.writeUTF(c.id().text());
            out.writeUTF(c.by().name());
            out.writeLong(c.at());
        } else if (op instanceof ServerOp.SetIssue i) {
            out.writeByte(15);
            out.writeUTF(i.id().text());
            out.writeLong(i.issue());
        } else {
            throw new IllegalArgumentException("no encoding for server operation " + op);
        }
    }

    private static ServerOp readOp(DataInputStream in, int index) throws IOException {
        int kind = in.readUnsignedByte();
        return switch (kind) {
            case 1 -> new ServerOp.Enter(readNote(in), in.readLong());
            case 2 -> new ServerOp.Forget(NoteId.parse(in.readUTF()));
            case 3 -> new ServerOp.AddD(NoteId.parse(in.readUTF()));
            case 4 -> new ServerOp.AddRemoved(NoteId.parse(in.readUTF()));
            case 5 -> new ServerOp.DropRemoved(NoteId.parse(in.readUTF()));
            case 6 -> new ServerOp.SetCtr(in.readLong());
            case 7 -> new ServerOp.SetRound(in.readLong());
            case 8 -> new ServerOp.Issue(in.readLong(), in.readLong());
            case 9 -> new ServerOp.Confirm(in.readLong(), ServerId.of(in.readUTF()), in.readLong());
            case 10 -> {
                NoteId id = NoteId.parse(in.readUTF());
                yield new ServerOp.SetNumbers(id, readNumbers(in, "numbers[" + id + "]"));
            }
            case 11 -> new ServerOp.Number(NoteId.parse(in.readUTF()), ServerId.of(in.readUTF()), in.readLong());
            case 12 -> new ServerOp.Origin(NoteId.parse(in.readUTF()), ServerId.of(in.readUTF()));
            case 13 -> new ServerOp.Complete(NoteId.parse(in.readUTF()));
            case 14 -> new ServerOp.ConfirmRemoved(NoteId.parse(in.readUTF()), ServerId.of(in.readUTF()), in.readLong());
            case 15 -> new ServerOp.SetIssue(NoteId.parse(in.readUTF()), in.readLong());
            default -> throw new IOException("operation " + index + ": unknown server operation kind " + kind);
        };
    }

    private static void writeNote(DataOutputStream out, Note note) throws IOException {
        out.writeUTF(note.id().text());
        out.writeUTF(note.client().name());
        out.writeUTF(note.body());
    }

    private static Note readNote(DataInputStream in) throws IOException {
        return new Note(NoteId.parse(in.readUTF()), ClientId.of(in.readUTF()), in.readUTF());
    }

    private static void writeNumbers(DataOutputStream out, SortedMap<ServerId, Long> numbers) throws IOException {
        out.writeInt(numbers.size());
        for (Map.Entry<ServerId, Long> c : numbers.entrySet()) {
            out.writeUTF(c.getKey().name());
            out.writeLong(c.getValue());
        }
    }

    private static TreeMap<ServerId, Long> readNumbers(DataInputStream in, String what) throws IOException {
        TreeMap<ServerId, Long> byServer = new TreeMap<>();
        int m = count(in, what);
        for (int j = 0; j < m; j++) {
            byServer.put(ServerId.of(in.readUTF()), in.readLong());
        }
        return byServer;
    }

    private StateCodec() {
    }

    static byte[] encodeClient(ClientStableState stable, byte[] application) {
        return write(out -> {
            out.writeInt(CLIENT_TAG);
            writeStable(out, stable);
            out.writeInt(application.length);
            out.write(application);
        });
    }

    private static void writeStable(DataOutputStream out, ClientStableState stable) throws IOException {
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
    }

    static ClientStore.Contents decodeClient(String where, byte[] payload) {
        return read(where, payload, in -> {
            expectTag(in, CLIENT_TAG, "client state");
            ClientStableState stable = readStable(in);
            byte[] application = new byte[count(in, "application state")];
            in.readFully(application);
            return new ClientStore.Contents(stable, application);
        });
    }

    private static ClientStableState readStable(DataInputStream in) throws IOException {
        int kind = in.readUnsignedByte();
        return switch (kind) {
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
    }

    static byte[] encodeServer(ServerDurableState s) {
        return write(out -> {
            out.writeInt(SERVER_TAG);
            out.writeInt(s.k().size());
            for (Note note : s.k().values()) {
                writeNote(out, note);
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
            out.writeInt(s.removedConf().size());
            for (Map.Entry<NoteId, SortedMap<ServerId, Long>> e : s.removedConf().entrySet()) {
                out.writeUTF(e.getKey().text());
                writeNumbers(out, e.getValue());
            }
            out.writeInt(s.issues().size());
            for (Map.Entry<NoteId, Long> e : s.issues().entrySet()) {
                out.writeUTF(e.getKey().text());
                out.writeLong(e.getValue());
            }
        });
    }

    static ServerDurableState decodeServer(String where, byte[] payload) {
        return read(where, payload, in -> {
            int tag = in.readInt();
            if (tag != SERVER_TAG && tag != SERVER_TAG_V4 && tag != SERVER_TAG_V3 && tag != SERVER_TAG_V2) {
                throw new IOException("not a server state: tag 0x" + Integer.toHexString(tag) + ", expected 0x"
                        + Integer.toHexString(SERVER_TAG) + ", 0x" + Integer.toHexString(SERVER_TAG_V4) + ", 0x"
                        + Integer.toHexString(SERVER_TAG_V3) + " or 0x" + Integer.toHexString(SERVER_TAG_V2));
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
            if (tag != SERVER_TAG_V2) {
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
            TreeMap<NoteId, SortedMap<ServerId, Long>> removedConf = new TreeMap<>();
            if (tag == SERVER_TAG || tag == SERVER_TAG_V4) {
                n = count(in, "removedConf");
                for (int i = 0; i < n; i++) {
                    NoteId id = NoteId.parse(in.readUTF());
                    removedConf.put(id, readNumbers(in, "removedConf[" + id + "]"));
                }
            }
            TreeMap<NoteId, Long> issues = new TreeMap<>();
            if (tag == SERVER_TAG) {
                n = count(in, "issues");
                for (int i = 0; i < n; i++) {
                    issues.put(NoteId.parse(in.readUTF()), in.readLong());
                }
            }
            return new ServerDurableState(k, d, ctr, removed, round, issued, conf, entered, seen, numbers, origins,
                    removedConf, issues);
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
}
