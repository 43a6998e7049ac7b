package dev.onceproof.causal.wire;

import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.SeqSet;
import dev.onceproof.causal.VectorClock;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/** Encoder and decoder of the format in {@code package-info.java}. Stateless. */
public final class CausalWire {

    public static final int MAX_NODES = 1024;
    public static final int MAX_PAYLOAD = 16 * 1024;
    /** Largest datagram: a DATA with MAX_NODES components and MAX_PAYLOAD bytes. */
    public static final int MAX_DATAGRAM = 20 + 8 * MAX_NODES + MAX_PAYLOAD;

    static final byte M0 = 0x43;
    static final byte M1 = 0x42;
    static final byte VERSION = 1;
    static final byte DATA = 1;
    static final byte RESEND = 2;
    static final byte REQUEST = 3;
    static final byte HEARTBEAT = 4;
    static final byte FLUSH = 5;
    static final byte REPORT = 6;
    static final byte DECIDE = 7;
    static final byte FORWARDED = 8;
    static final byte INSTALLED = 9;
    static final byte ENDED = 10;
    /**
     * Seqs above the prefix one seq set may carry. Only the unordered mode delivers above the
     * prefix, and a bound keeps a decision within {@link #MAX_DATAGRAM} for a few survivors.
     */
    public static final int MAX_ABOVE = 256;

    private CausalWire() {
    }

    /** A decoded message or view-change message, or the reason the datagram is malformed (exactly one is non-null). */
    public record Decoded(CausalMessage message, ViewMessage view, String error) {

        public Decoded(CausalMessage message, String error) {
            this(message, null, error);
        }
    }

    public static byte[] encode(CausalMessage m) {
        ByteBuffer b;
        if (m instanceof CausalMessage.Data d) {
            b = event(DATA, d.from(), d.event());
        } else if (m instanceof CausalMessage.Resend r) {
            b = event(RESEND, r.from(), r.event());
        } else if (m instanceof CausalMessage.Request q) {
            b = header(REQUEST, q.from(), 16);
            b.putShort(index(q.id().origin())).putLong(q.id().seq());
        } else {
            CausalMessage.Heartbeat h = (CausalMessage.Heartbeat) m;
            b = header(HEARTBEAT, h.from(), 8 + 8 * size(h.vc()));
            clock(b, h.vc());
        }
        return b.array();
    }

    /** The view change's datagrams; throws if a seq set or the whole is above its bound. */
    public static byte[] encode(ViewMessage m) {
        if (JoinWire.isJoin(m)) {
            return JoinWire.encode(m);
        }
        SortedSet<NodeId> targets = m.targets();
        int len = 8 + 2 * targets.size();
        if (m instanceof ViewMessage.Report r) {
            for (SeqSet s : r.seqs().values()) {
                len += seqSetSize(s);
            }
        } else if (m instanceof ViewMessage.Decide d) {
            for (SeqSet s : d.agreed().values()) {
                len += seqSetSize(s);
            }
            len += 2;
            for (SortedMap<NodeId, SeqSet> r : d.report().values()) {
                len += 2;
                for (SeqSet s : r.values()) {
                    len += seqSetSize(s);
                }
            }
            if (d.report().isEmpty() || d.report().size() > MAX_NODES) {
                throw new IllegalArgumentException("decision with " + d.report().size() + " reports: needs 1.." + MAX_NODES);
            }
        }
        if (len > MAX_DATAGRAM || targets.size() > MAX_NODES) {
            throw new IllegalArgumentException(m.getClass().getSimpleName() + " on " + targets.size() + " targets in " + len
                    + " bytes: needs at most " + MAX_NODES + " targets and MAX_DATAGRAM " + MAX_DATAGRAM + " bytes");
        }
        byte type = m instanceof ViewMessage.Flush ? FLUSH : m instanceof ViewMessage.Report ? REPORT
                : m instanceof ViewMessage.Decide ? DECIDE : m instanceof ViewMessage.Forwarded ? FORWARDED
                : m instanceof ViewMessage.Installed ? INSTALLED : ENDED;
        ByteBuffer b = header(type, m.from(), len);
        b.putShort((short) targets.size());
        targets.forEach(x -> b.putShort(index(x)));
        if (m instanceof ViewMessage.Report r) {
            r.seqs().values().forEach(s -> seqSet(b, s));
        } else if (m instanceof ViewMessage.Decide d) {
            d.agreed().values().forEach(s -> seqSet(b, s));
            b.putShort((short) d.report().size());
            for (Map.Entry<NodeId, SortedMap<NodeId, SeqSet>> r : d.report().entrySet()) {
                b.putShort(index(r.getKey()));
                r.getValue().values().forEach(s -> seqSet(b, s));
            }
        }
        return b.array();
    }

    private static int seqSetSize(SeqSet s) {
        if (s.above().size() > MAX_ABOVE) {
            throw new IllegalArgumentException("seq set with " + s.above().size() + " seqs above its prefix, above MAX_ABOVE "
                    + MAX_ABOVE);
        }
        return 10 + 8 * s.above().size();
    }

    private static void seqSet(ByteBuffer b, SeqSet s) {
        b.putLong(s.prefix()).putShort((short) s.above().size());
        s.above().forEach(b::putLong);
    }

    private static ByteBuffer event(byte type, NodeId from, Event e) {
        int len = e.payload().length();
        if (len > MAX_PAYLOAD) {
            throw new IllegalArgumentException("payload of " + len + " bytes is above MAX_PAYLOAD " + MAX_PAYLOAD);
        }
        ByteBuffer b = header(type, from, 20 + 8 * size(e.vc()) + len);
        b.putShort(index(e.origin())).putLong(e.seq());
        clock(b, e.vc());
        b.putShort((short) len).put(e.payload().toByteArray());
        return b;
    }

    private static ByteBuffer header(byte type, NodeId from, int length) {
        ByteBuffer b = ByteBuffer.allocate(length);
        b.put(M0).put(M1).put(VERSION).put(type).putShort(index(from));
        return b;
    }

    private static void clock(ByteBuffer b, VectorClock vc) {
        b.putShort((short) vc.size());
        for (int k = 0; k < vc.size(); k++) {
            b.putLong(vc.get(k));
        }
    }

    private static int size(VectorClock vc) {
        if (vc.size() > MAX_NODES) {
            throw new IllegalArgumentException("vector clock of size " + vc.size() + " is above MAX_NODES " + MAX_NODES);
        }
        return vc.size();
    }

    private static short index(NodeId k) {
        if (k.index() >= MAX_NODES) {
            throw new IllegalArgumentException("node " + k + " is above MAX_NODES " + MAX_NODES);
        }
        return (short) k.index();
    }

    /** Decodes {@code length} bytes of {@code data} from {@code offset}. Never throws on any content. */
    public static Decoded decode(byte[] data, int offset, int length) {
        ByteBuffer b = ByteBuffer.wrap(data, offset, length).slice();
        try {
            if (b.remaining() < 6) {
                return bad("datagram of " + length + " bytes is shorter than the 6-byte header");
            }
            if (b.get() != M0 || b.get() != M1) {
                return bad("bytes 0-1: magic is not \"CB\"");
            }
            byte version = b.get();
            if (version != VERSION) {
                return bad("byte 2: version " + version + ", expected " + VERSION);
            }
            byte type = b.get();
            int fromIndex = Short.toUnsignedInt(b.getShort());
            if (fromIndex >= MAX_NODES) {
                return bad("bytes 4-5: sender index " + fromIndex + " is not below MAX_NODES " + MAX_NODES);
            }
            NodeId from = NodeId.of(fromIndex);
            CausalMessage m;
            switch (type) {
                case DATA, RESEND -> {
                    String badId = idError(b);
                    if (badId != null) {
                        return bad(badId);
                    }
                    NodeId origin = NodeId.of(Short.toUnsignedInt(b.getShort(6)));
                    long seq = b.getLong(8);
                    ClockRead vc = clock(b);
                    if (vc.error() != null) {
                        return bad(vc.error());
                    }
                    int len = Short.toUnsignedInt(b.getShort());
                    if (len > MAX_PAYLOAD) {
                        return bad("offset " + (b.position() - 2) + ": payload length " + len + " is above " + MAX_PAYLOAD);
                    }
                    if (b.remaining() != len) {
                        return bad("offset " + b.position() + ": payload length " + len + " but " + b.remaining()
                                + " bytes remain");
                    }
                    byte[] p = new byte[len];
                    b.get(p);
                    Event e = new Event(new EventId(origin, seq), vc.vc(), Payload.of(p));
                    if (type == DATA && !origin.equals(from)) {
                        return bad("bytes 4-7: DATA from " + from + " carries an event of " + origin
                                + " (a DATA is sent by its origin)");
                    }
                    m = type == DATA ? new CausalMessage.Data(e) : new CausalMessage.Resend(from, e);
                }
                case REQUEST -> {
                    String badId = idError(b);
                    if (badId != null) {
                        return bad(badId);
                    }
                    m = new CausalMessage.Request(from, new EventId(NodeId.of(Short.toUnsignedInt(b.getShort(6))), b.getLong(8)));
                }
                case HEARTBEAT -> {
                    ClockRead vc = clock(b);
                    if (vc.error() != null) {
                        return bad(vc.error());
                    }
                    m = new CausalMessage.Heartbeat(from, vc.vc());
                }
                case FLUSH, REPORT, DECIDE, FORWARDED, INSTALLED, ENDED -> {
                    return view(b, type, from);
                }
                case JoinWire.JOIN_ASK, JoinWire.JOIN_CHUNK, JoinWire.JOIN_REFUSED, JoinWire.JOIN_INSTALL,
                        JoinWire.JOIN_INSTALLED -> {
                    return JoinWire.decode(b, type, from);
                }
                default -> {
                    return bad("byte 3: message type " + type + " is not 1..15");
                }
            }
            return end(b, new Decoded(m, null));
        } catch (BufferUnderflowException e) {
            return bad("datagram of " + length + " bytes ends inside a field");
        }
    }

    private static Decoded end(ByteBuffer b, Decoded d) {
        if (b.hasRemaining()) {
            return bad("offset " + b.position() + ": " + b.remaining() + " bytes after the end of the message");
        }
        return d;
    }

    /** The view change's types, after the header: the targets, then what the type carries. */
    private static Decoded view(ByteBuffer b, byte type, NodeId from) {
        int at = b.position();
        int t = Short.toUnsignedInt(b.getShort());
        if (t < 1 || t > MAX_NODES) {
            return bad("offset " + at + ": target count " + t + " is not 1.." + MAX_NODES);
        }
        TreeSet<NodeId> targets = new TreeSet<>();
        int last = -1;
        for (int k = 0; k < t; k++) {
            at = b.position();
            int x = Short.toUnsignedInt(b.getShort());
            if (x >= MAX_NODES || x <= last) {
                return bad("offset " + at + ": target " + k + "'s node index " + x
                        + " is not above the previous one (" + last + ") and below MAX_NODES " + MAX_NODES);
            }
            last = x;
            targets.add(NodeId.of(x));
        }
        ViewMessage m;
        switch (type) {
            case FLUSH -> m = new ViewMessage.Flush(from, targets);
            case FORWARDED -> m = new ViewMessage.Forwarded(from, targets);
            case INSTALLED -> m = new ViewMessage.Installed(from, targets);
            case ENDED -> m = new ViewMessage.Ended(from, targets);
            case REPORT -> {
                SeqMapRead s = seqMap(b, targets, "report");
                if (s.error() != null) {
                    return bad(s.error());
                }
                m = new ViewMessage.Report(from, s.map());
            }
            default -> {
                SeqMapRead agreed = seqMap(b, targets, "agreed set");
                if (agreed.error() != null) {
                    return bad(agreed.error());
                }
                at = b.position();
                int r = Short.toUnsignedInt(b.getShort());
                if (r < 1 || r > MAX_NODES) {
                    return bad("offset " + at + ": report count " + r + " is not 1.." + MAX_NODES);
                }
                TreeMap<NodeId, SortedMap<NodeId, SeqSet>> report = new TreeMap<>();
                last = -1;
                for (int k = 0; k < r; k++) {
                    at = b.position();
                    int node = Short.toUnsignedInt(b.getShort());
                    if (node >= MAX_NODES || node <= last) {
                        return bad("offset " + at + ": report " + k + "'s node index " + node
                                + " is not above the previous one (" + last + ") and below MAX_NODES " + MAX_NODES);
                    }
                    last = node;
                    SeqMapRead s = seqMap(b, targets, "report of n" + (node + 1));
                    if (s.error() != null) {
                        return bad(s.error());
                    }
                    report.put(NodeId.of(node), s.map());
                }
                m = new ViewMessage.Decide(from, agreed.map(), report);
            }
        }
        return end(b, new Decoded(null, m, null));
    }

    private record SeqMapRead(SortedMap<NodeId, SeqSet> map, String error) {
    }

    /** One seq set per target, in the targets' order. */
    private static SeqMapRead seqMap(ByteBuffer b, SortedSet<NodeId> targets, String what) {
        TreeMap<NodeId, SeqSet> out = new TreeMap<>();
        for (NodeId x : targets) {
            SeqSetRead s = seqSet(b, what);
            if (s.error() != null) {
                return new SeqMapRead(null, s.error());
            }
            out.put(x, s.set());
        }
        return new SeqMapRead(out, null);
    }

    private record SeqSetRead(SeqSet set, String error) {
    }

    /** Reads a seq set, or says which field breaks its rules and where. */
    private static SeqSetRead seqSet(ByteBuffer b, String what) {
        int at = b.position();
        long prefix = b.getLong();
        if (prefix < 0) {
            return new SeqSetRead(null, "offset " + at + ": " + what + " prefix " + prefix + " is negative");
        }
        int a = Short.toUnsignedInt(b.getShort());
        if (a > MAX_ABOVE) {
            return new SeqSetRead(null, "offset " + (at + 8) + ": " + what + " has " + a + " seqs above its prefix, above "
                    + MAX_ABOVE);
        }
        TreeSet<Long> above = new TreeSet<>();
        long previous = prefix + 1;
        for (int k = 0; k < a; k++) {
            long s = b.getLong();
            if (s <= previous) {
                return new SeqSetRead(null, "offset " + (b.position() - 8) + ": " + what + " seq " + s
                        + " is not above " + previous + " (the seqs above the prefix " + prefix
                        + " ascend and skip prefix + 1)");
            }
            above.add(s);
            previous = s;
        }
        return new SeqSetRead(new SeqSet(prefix, above), null);
    }

    /** Reads the event id at bytes 6-15 (origin, seq); the error naming the bad field, or null. */
    private static String idError(ByteBuffer b) {
        int origin = Short.toUnsignedInt(b.getShort());
        long seq = b.getLong();
        if (origin >= MAX_NODES) {
            return "bytes 6-7: origin index " + origin + " is not below MAX_NODES " + MAX_NODES;
        }
        return seq < 1 ? "bytes 8-15: seq " + seq + " is below 1" : null;
    }

    private record ClockRead(VectorClock vc, String error) {
    }

    /** Reads a clock, or says which field is out of range and where. */
    private static ClockRead clock(ByteBuffer b) {
        int at = b.position();
        int n = Short.toUnsignedInt(b.getShort());
        if (n < 1 || n > MAX_NODES) {
            return new ClockRead(null, "offset " + at + ": vector clock size " + n + " is not 1.." + MAX_NODES);
        }
        long[] vc = new long[n];
        for (int k = 0; k < n; k++) {
            vc[k] = b.getLong();
            if (vc[k] < 0) {
                return new ClockRead(null, "offset " + (b.position() - 8) + ": vector clock component " + k
                        + " is negative (" + vc[k] + ")");
            }
        }
        return new ClockRead(VectorClock.of(vc), null);
    }

    private static Decoded bad(String why) {
        return new Decoded(null, why);
    }
}
