package dev.onceproof.exactlyonce.wire;

import dev.onceproof.exactlyonce.ClientHistory;
import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.InvalidMessageException;
import dev.onceproof.exactlyonce.Note;
import dev.onceproof.exactlyonce.NoteId;
import dev.onceproof.exactlyonce.ServerId;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Encoder and decoder of the exactly-once wire format described in {@code package-info.java}.
 * Stateless and thread-safe. {@link #decode} is strict and canonical: it accepts exactly the byte
 * strings {@link #encode} produces, so {@code encode(decode(b))} equals {@code b} for every accepted
 * {@code b}; anything else is refused with an {@link InvalidMessageException} naming the field and
 * its offset, and decoding changes nothing anywhere (it builds a new message or throws).
 */
public final class EoWire {

    static final int MAGIC = 0x45; // 'E'
    public static final int VERSION = 1;

    static final int NOTE_DELIVERY = 1;
    static final int NOTE_ACK = 2;
    static final int PURGE_REQUEST = 3;
    static final int PURGE_ACK = 4;
    static final int SYNC_REQUEST = 5;
    static final int SYNC_REPLY = 6;
    static final int REPLICA = 7;
    static final int D_REQUEST = 8;
    static final int D_REPLY = 9;
    static final int D_SYNC = 10;
    static final int HISTORY_UPLOAD = 11;
    static final int REPLICA_ACK = 12;
    static final int REPLICA_COMMIT = 13;
    static final int LAST_TYPE = REPLICA_COMMIT;

    static final int ID_SEQUENCED = 0;
    static final int ID_GLOBAL = 1;
    /** In an id set only: sequenced, same server as the previous id, seq as a positive delta. */
    static final int ID_SAME_SERVER = 2;

    /** Longest name (ids are 1..64 printable ASCII characters). */
    static final int MAX_NAME = 64;
    /** Most UTF-8 bytes of a note body of at most {@link Note#MAX_BODY} UTF-16 chars. */
    static final int MAX_BODY_BYTES = 3 * Note.MAX_BODY;

    private EoWire() {
    }

    // ---------------------------------------------------------------------------------------- encode

    /**
     * The message's bytes. Every {@link EoMessage} has an encoding, except a note body that is not
     * well-formed Unicode (an unpaired surrogate), refused naming {@code note.body}: UTF-8 cannot carry it.
     */
    public static byte[] encode(EoMessage m) {
        Out o = new Out();
        o.write(MAGIC);
        o.write(VERSION);
        if (m instanceof EoMessage.NoteDelivery d) {
            o.write(NOTE_DELIVERY);
            o.name(d.from().name());
            o.name(d.to().name());
            o.id(d.note().id());
            o.body(d.note().body()); // the note's client is the message's addressee (the record checks it)
        } else if (m instanceof EoMessage.NoteAck a) {
            idMessage(o, NOTE_ACK, a.from().name(), a.to().name(), a.id());
        } else if (m instanceof EoMessage.PurgeRequest r) {
            idMessage(o, PURGE_REQUEST, r.from().name(), r.to().name(), r.id());
        } else if (m instanceof EoMessage.PurgeAck a) {
            idMessage(o, PURGE_ACK, a.from().name(), a.to().name(), a.id());
        } else if (m instanceof EoMessage.SyncRequest r) {
            sync(o, SYNC_REQUEST, r.from(), r.to(), r.client(), r.round(), r.seen(), r.k(), r.d(), r.removed(),
                    r.tags());
        } else if (m instanceof EoMessage.SyncReply r) {
            sync(o, SYNC_REPLY, r.from(), r.to(), r.client(), r.round(), r.seen(), r.k(), r.d(), r.removed(),
                    r.tags());
        } else if (m instanceof EoMessage.Replica r) {
            o.write(REPLICA);
            o.name(r.from().name());
            o.name(r.to().name());
            o.id(r.note().id());
            o.name(r.note().client().name());
            o.body(r.note().body());
            o.varint(r.issue() + 1); // NO_ISSUE (-1) is 0
        } else if (m instanceof EoMessage.DRequest r) {
            o.write(D_REQUEST);
            o.name(r.from().name());
            o.name(r.to().name());
            o.name(r.client().name());
            o.varint(r.session());
        } else if (m instanceof EoMessage.DReply r) {
            o.write(D_REPLY);
            o.name(r.from().name());
            o.name(r.to().name());
            o.name(r.client().name());
            o.varint(r.session());
            o.varint(r.ts());
            o.ids(r.d());
        } else if (m instanceof EoMessage.DSync y) {
            o.write(D_SYNC);
            o.name(y.from().name());
            o.name(y.to().name());
            o.name(y.client().name());
            o.varint(y.ts());
            o.ids(y.k());
            o.ids(y.d());
            o.varint(y.seen());
        } else if (m instanceof EoMessage.HistoryUpload u) {
            o.write(HISTORY_UPLOAD);
            o.name(u.from().name());
            o.name(u.to().name());
            ClientHistory h = u.history();
            o.write(h.complete() ? 1 : 0);
            o.varint(h.ended().size());
            for (Map.Entry<ServerId, Long> e : h.ended().entrySet()) {
                o.name(e.getKey().name());
                o.varint(e.getValue());
            }
            o.varint(h.open().size());
            for (ServerId s : h.open()) {
                o.name(s.name());
            }
        } else if (m instanceof EoMessage.ReplicaAck a) {
            o.write(REPLICA_ACK);
            o.name(a.from().name());
            o.name(a.to().name());
            o.name(a.client().name());
            o.id(a.id());
            o.varint(a.number());
        } else if (m instanceof EoMessage.ReplicaCommit c) {
            o.write(REPLICA_COMMIT);
            o.name(c.from().name());
            o.name(c.to().name());
            o.name(c.client().name());
            o.id(c.id());
            o.varint(c.numbers().size());
            for (Map.Entry<ServerId, Long> e : c.numbers().entrySet()) {
                o.name(e.getKey().name());
                o.varint(e.getValue());
            }
        } else {
            // Java 17 has no exhaustive pattern switch; EoWireTest checks every permitted variant has a type.
            throw new IllegalArgumentException("no wire encoding for " + m.getClass().getName());
        }
        return o.toByteArray();
    }

    /** The encoded size in bytes (what a message costs on the wire). */
    public static int size(EoMessage m) {
        return encode(m).length;
    }

    private static void idMessage(Out o, int type, String from, String to, NoteId id) {
        o.write(type);
        o.name(from);
        o.name(to);
        o.id(id);
    }

    private static void sync(Out o, int type, ServerId from, ServerId to, ClientId client, long round, long seen,
            SortedSet<NoteId> k, SortedSet<NoteId> d, SortedSet<NoteId> removed, SortedMap<NoteId, Long> tags) {
        o.write(type);
        o.name(from.name());
        o.name(to.name());
        o.name(client.name());
        o.varint(round);
        o.varint(seen);
        o.ids(k);
        o.ids(d);
        o.ids(removed);
        o.ids(new java.util.TreeSet<>(tags.keySet())); // Strategy 2: each tagged removal's issue number
        for (long issue : tags.values()) {
            o.varint(issue);
        }
    }

    private static final class Out extends ByteArrayOutputStream {
        Out() {
            super(64);
        }

        void varint(long v) {
            while ((v & ~0x7FL) != 0) {
                write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            write((int) v);
        }

        void name(String s) {
            varint(s.length());
            for (int i = 0; i < s.length(); i++) {
                write(s.charAt(i)); // printable ASCII, checked by the id classes
            }
        }

        void body(String s) {
            for (int i = 0; i < s.length(); i++) {
                char ch = s.charAt(i);
                if (Character.isHighSurrogate(ch) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                    i++;
                } else if (Character.isSurrogate(ch)) {
                    throw new InvalidMessageException("note.body", "unpaired surrogate 0x" + Integer.toHexString(ch)
                            + " at index " + i + " (the wire carries well-formed Unicode as UTF-8)");
                }
            }
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            varint(b.length);
            writeBytes(b);
        }

        void id(NoteId id) {
            if (id instanceof NoteId.Sequenced s) {
                write(ID_SEQUENCED);
                name(s.server().name());
                varint(s.seq());
            } else {
                write(ID_GLOBAL);
                name(((NoteId.Global) id).name());
            }
        }

        /** Count, then the ids in their order; a sequenced id of the previous id's server as a delta. */
        void ids(SortedSet<NoteId> ids) {
            varint(ids.size());
            NoteId.Sequenced prev = null;
            for (NoteId id : ids) {
                if (id instanceof NoteId.Sequenced s && prev != null && prev.server().equals(s.server())) {
                    write(ID_SAME_SERVER);
                    varint(s.seq() - prev.seq());
                } else {
                    id(id);
                }
                prev = id instanceof NoteId.Sequenced s ? s : null;
            }
        }
    }

    // ---------------------------------------------------------------------------------------- decode

    /** Decodes a whole message; an error names the field, its offset and the rule it breaks. */
    public static EoMessage decode(byte[] data) {
        if (data == null) {
            throw new InvalidMessageException("message", "is null");
        }
        return decode(data, 0, data.length);
    }

    /** Decodes {@code length} bytes of {@code data} from {@code offset}. */
    public static EoMessage decode(byte[] data, int offset, int length) {
        if (data == null) {
            throw new InvalidMessageException("message", "is null");
        }
        if (offset < 0 || length < 0 || offset > data.length - length) {
            throw new InvalidMessageException("message", "range " + offset + "+" + length + " is outside an array of "
                    + data.length + " bytes");
        }
        In in = new In(data, offset, length);
        int magic = in.u8("magic");
        if (magic != MAGIC) {
            throw in.bad("magic", 0, "0x" + Integer.toHexString(magic) + ", expected 0x45 ('E')");
        }
        int version = in.u8("version");
        if (version != VERSION) {
            throw in.bad("version", 1, version + ", this decoder reads version " + VERSION);
        }
        int type = in.u8("type");
        EoMessage m = switch (type) {
            case NOTE_DELIVERY -> {
                ServerId from = in.server("from");
                ClientId to = in.client("to");
                NoteId id = in.id("note.id");
                yield new EoMessage.NoteDelivery(from, to, in.note(id, to));
            }
            case NOTE_ACK -> new EoMessage.NoteAck(in.client("from"), in.server("to"), in.id("id"));
            case PURGE_REQUEST -> new EoMessage.PurgeRequest(in.server("from"), in.client("to"), in.id("id"));
            case PURGE_ACK -> new EoMessage.PurgeAck(in.client("from"), in.server("to"), in.id("id"));
            case SYNC_REQUEST, SYNC_REPLY -> {
                ServerId from = in.server("from");
                ServerId to = in.server("to");
                ClientId client = in.client("client");
                long round = in.varint("round");
                long seen = in.varint("seen");
                SortedSet<NoteId> k = in.ids("k");
                SortedSet<NoteId> d = in.ids("d");
                SortedSet<NoteId> removed = in.ids("removed");
                java.util.TreeMap<NoteId, Long> tags = new java.util.TreeMap<>();
                for (NoteId id : in.ids("tags")) {
                    tags.put(id, in.varint("tags[" + id.text() + "]"));
                }
                yield type == SYNC_REQUEST ? new EoMessage.SyncRequest(from, to, client, round, k, d, removed, seen, tags)
                        : new EoMessage.SyncReply(from, to, client, round, k, d, removed, seen, tags);
            }
            case REPLICA -> {
                ServerId from = in.server("from");
                ServerId to = in.server("to");
                NoteId id = in.id("note.id");
                ClientId client = in.client("note.client");
                Note note = in.note(id, client);
                yield new EoMessage.Replica(from, to, note, in.varint("issue") - 1);
            }
            case D_REQUEST -> {
                ServerId from = in.server("from");
                ServerId to = in.server("to");
                ClientId client = in.client("client");
                yield new EoMessage.DRequest(from, to, client, in.session());
            }
            case D_REPLY -> {
                ServerId from = in.server("from");
                ServerId to = in.server("to");
                ClientId client = in.client("client");
                long session = in.session();
                long ts = in.varint("ts");
                yield new EoMessage.DReply(from, to, client, session, ts, in.ids("d"));
            }
            case D_SYNC -> {
                ServerId from = in.server("from");
                ServerId to = in.server("to");
                ClientId client = in.client("client");
                long ts = in.varint("ts");
                SortedSet<NoteId> k = in.ids("k");
                int dAt = in.pos();
                SortedSet<NoteId> d = in.ids("d");
                if (!k.containsAll(d)) {
                    throw in.bad("d", dAt, "an id of d is not in k (D is a subset of K)");
                }
                yield new EoMessage.DSync(from, to, client, ts, k, d, in.varint("seen"));
            }
            case HISTORY_UPLOAD -> {
                ClientId from = in.client("from");
                ServerId to = in.server("to");
                yield new EoMessage.HistoryUpload(from, to, in.history());
            }
            case REPLICA_ACK -> {
                ServerId from = in.server("from");
                ServerId to = in.server("to");
                ClientId client = in.client("client");
                NoteId id = in.id("id");
                yield new EoMessage.ReplicaAck(from, to, client, id, in.number("number"));
            }
            case REPLICA_COMMIT -> {
                ServerId from = in.server("from");
                ServerId to = in.server("to");
                ClientId client = in.client("client");
                NoteId id = in.id("id");
                yield new EoMessage.ReplicaCommit(from, to, client, id, in.numbers());
            }
            default -> throw in.bad("type", 2, type + " is not a message type (1.." + LAST_TYPE + ")");
        };
        if (in.remaining() > 0) {
            throw in.bad("end", in.pos(), in.remaining() + " bytes after the end of the message");
        }
        return m;
    }

    /** A reader that names the field it is in when the bytes end or break a rule. */
    private static final class In {
        private final byte[] data;
        private final int start;
        private final int end;
        private int at;

        In(byte[] data, int offset, int length) {
            this.data = data;
            this.start = offset;
            this.end = offset + length;
            this.at = offset;
        }

        int pos() {
            return at - start;
        }

        int remaining() {
            return end - at;
        }

        InvalidMessageException bad(String field, int offset, String problem) {
            return new InvalidMessageException(field, "at offset " + offset + ": " + problem);
        }

        private InvalidMessageException truncated(String field) {
            return bad(field, pos(), "truncated (message of " + (end - start) + " bytes ends inside the field)");
        }

        int u8(String field) {
            if (at >= end) {
                throw truncated(field);
            }
            return data[at++] & 0xFF;
        }

        /** An unsigned LEB128 number of at most 63 bits, in its shortest form. */
        long varint(String field) {
            int from = pos();
            long v = 0;
            for (int shift = 0; ; shift += 7) {
                int b = u8(field);
                if (shift == 63 && b > 0) {
                    throw bad(field, from, "number does not fit in 63 bits");
                }
                v |= (long) (b & 0x7F) << shift;
                if ((b & 0x80) == 0) {
                    if (b == 0 && shift > 0) {
                        throw bad(field, from, "number is not in its shortest form (a trailing zero byte)");
                    }
                    return v;
                }
            }
        }

        int length(String field, int min, int max) {
            int from = pos();
            long n = varint(field);
            if (n < min || n > max) {
                throw bad(field, from, n + " is outside " + min + ".." + max);
            }
            return (int) n;
        }

        String name(String field) {
            int len = length(field + ".length", 1, MAX_NAME);
            int from = pos();
            if (remaining() < len) {
                throw truncated(field);
            }
            char[] c = new char[len];
            for (int i = 0; i < len; i++) {
                c[i] = (char) (data[at++] & 0xFF);
            }
            String s = new String(c);
            for (int i = 0; i < len; i++) {
                if (c[i] < 0x21 || c[i] > 0x7E || c[i] == '.') {
                    throw bad(field, from + i, "byte 0x" + Integer.toHexString(c[i])
                            + " is not allowed in a name (printable ASCII, no '.')");
                }
            }
            return s;
        }

        ServerId server(String field) {
            return new ServerId(name(field));
        }

        ClientId client(String field) {
            return new ClientId(name(field));
        }

        NoteId id(String field) {
            int from = pos();
            int kind = u8(field + ".kind");
            return switch (kind) {
                case ID_SEQUENCED -> new NoteId.Sequenced(server(field + ".server"), seq(field + ".seq"));
                case ID_GLOBAL -> new NoteId.Global(name(field + ".name"));
                default -> throw bad(field + ".kind", from, kind + " is not a note id kind (0 sequenced, 1 global)");
            };
        }

        long session() {
            int from = pos();
            long v = varint("session");
            if (v < 1) {
                throw bad("session", from, v + " is below 1 (sessions are numbered from 1)");
            }
            return v;
        }

        /** A note's number at a server: a varint of at least 1. */
        long number(String field) {
            int from = pos();
            long v = varint(field);
            if (v < 1) {
                throw bad(field, from, v + " is below 1 (notes are numbered from 1)");
            }
            return v;
        }

        /** A commit's numbers: count 2..MAX_SERVERS, then (server name, number) ascending by server. */
        TreeMap<ServerId, Long> numbers() {
            int n = length("numbers.count", 2, EoMessage.MAX_SERVERS);
            TreeMap<ServerId, Long> out = new TreeMap<>();
            ServerId prev = null;
            for (int i = 0; i < n; i++) {
                int at = pos();
                ServerId s = server("numbers[" + i + "]");
                if (prev != null && prev.compareTo(s) >= 0) {
                    throw bad("numbers[" + i + "]", at, s + " does not follow " + prev + " (ascending, no repeats)");
                }
                out.put(s, number("numbers[" + i + "].number"));
                prev = s;
            }
            return out;
        }

        /** A connect history: complete flag, ended entries and OPEN servers, each list ascending by server. */
        ClientHistory history() {
            int flagAt = pos();
            int flag = u8("history.complete");
            if (flag > 1) {
                throw bad("history.complete", flagAt, flag + " is not 0 (UNKNOWN) or 1 (complete)");
            }
            int n = length("history.ended.count", 0, ClientHistory.MAX_SERVERS);
            TreeMap<ServerId, Long> ended = new TreeMap<>();
            ServerId prev = null;
            for (int i = 0; i < n; i++) {
                int at = pos();
                ServerId s = server("history.ended[" + i + "]");
                if (prev != null && prev.compareTo(s) >= 0) {
                    throw bad("history.ended[" + i + "]", at, s + " does not follow " + prev + " (ascending, no repeats)");
                }
                ended.put(s, varint("history.ended[" + i + "].time"));
                prev = s;
            }
            int m = length("history.open.count", 0, ClientHistory.MAX_SERVERS - n);
            TreeSet<ServerId> open = new TreeSet<>();
            prev = null;
            for (int i = 0; i < m; i++) {
                int at = pos();
                ServerId s = server("history.open[" + i + "]");
                if (prev != null && prev.compareTo(s) >= 0) {
                    throw bad("history.open[" + i + "]", at, s + " does not follow " + prev + " (ascending, no repeats)");
                }
                if (ended.containsKey(s)) {
                    throw bad("history.open[" + i + "]", at, s + " is also in ended (a server is OPEN or ended, not both)");
                }
                open.add(s);
                prev = s;
            }
            return new ClientHistory(flag == 1, ended, open);
        }

        private long seq(String field) {
            return varint(field);
        }

        Note note(NoteId id, ClientId client) {
            int len = length("note.body.length", 0, MAX_BODY_BYTES);
            int from = pos();
            if (remaining() < len) {
                throw truncated("note.body");
            }
            String body;
            try {
                body = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(data, at, len)).toString();
            } catch (CharacterCodingException e) {
                throw bad("note.body", from, "is not valid UTF-8 (" + e.getMessage() + ")");
            }
            at += len;
            if (body.length() > Note.MAX_BODY) {
                throw bad("note.body", from, body.length() + " characters, above " + Note.MAX_BODY);
            }
            return new Note(id, client, body);
        }

        /** An id set, which must be in strictly ascending order (the canonical form {@link Out#ids} writes). */
        SortedSet<NoteId> ids(String field) {
            int n = length(field + ".count", 0, EoMessage.MAX_IDS);
            TreeSet<NoteId> out = new TreeSet<>();
            NoteId prev = null;
            for (int i = 0; i < n; i++) {
                String f = field + "[" + i + "]";
                int from = pos();
                NoteId id;
                if (remaining() > 0 && (data[at] & 0xFF) == ID_SAME_SERVER) {
                    at++;
                    if (!(prev instanceof NoteId.Sequenced p)) {
                        throw bad(f + ".kind", from, "a same-server delta needs a sequenced id before it");
                    }
                    long delta = varint(f + ".delta");
                    if (delta < 1 || delta > Long.MAX_VALUE - p.seq()) {
                        throw bad(f + ".delta", from + 1, delta + " is outside 1.." + (Long.MAX_VALUE - p.seq()));
                    }
                    id = new NoteId.Sequenced(p.server(), p.seq() + delta);
                } else {
                    id = id(f);
                    if (prev instanceof NoteId.Sequenced p && id instanceof NoteId.Sequenced s
                            && p.server().equals(s.server())) {
                        throw bad(f, from, "id " + id.text() + " repeats the previous id's server (the canonical form"
                                + " writes it as a delta)");
                    }
                }
                if (prev != null && prev.compareTo(id) >= 0) {
                    throw bad(f, from, "id " + id.text() + " does not follow " + prev.text()
                            + " (ids are in strictly ascending order)");
                }
                out.add(id);
                prev = id;
            }
            return out;
        }
    }
}
