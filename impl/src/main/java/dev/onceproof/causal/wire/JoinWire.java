package dev.onceproof.causal.wire;

import dev.onceproof.causal.Event;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.JoinState;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.SeqSet;
import dev.onceproof.causal.VectorClock;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The join's datagrams (types 11-15, after CausalWire's 6-byte header) and the donor's {@link
 * JoinState} as bytes. A state holds the donor's whole recovery store, which may not fit one
 * datagram: it travels as {@link ViewMessage.JoinChunk}s of at most {@link #CHUNK} bytes, at most
 * {@link #MAX_CHUNKS} of them (just under 2 GB). A node told of a spare refuses it, naming the sizes,
 * if its config's largest state could exceed that ({@link #largestState}); the donor's encoding
 * refuses a larger state too, naming its size.
 */
public final class JoinWire {

    static final byte JOIN_ASK = 11;
    static final byte JOIN_CHUNK = 12;
    static final byte JOIN_REFUSED = 13;
    static final byte JOIN_INSTALL = 14;
    static final byte JOIN_INSTALLED = 15;
    /** Bytes of state per chunk: well inside a loopback or LAN datagram with room for the header. */
    public static final int CHUNK = 8 * 1024;
    /**
     * Chunks of one state at most: just under 2 GB, a Java array's bound. A node checks when it is
     * told of a spare that its config's largest state ({@link #largestState}) fits.
     */
    public static final int MAX_CHUNKS = Integer.MAX_VALUE / CHUNK;
    static final int MAX_REASON = 1024;

    private JoinWire() {
    }

    static boolean isJoin(ViewMessage m) {
        return m instanceof ViewMessage.JoinAsk || m instanceof ViewMessage.JoinChunk
                || m instanceof ViewMessage.JoinRefused || m instanceof ViewMessage.JoinInstall
                || m instanceof ViewMessage.JoinInstalled;
    }

    static byte[] encode(ViewMessage m) {
        ByteBuffer b;
        if (m instanceof ViewMessage.JoinAsk a) {
            b = header(JOIN_ASK, a.from(), 8 + 2 + 4);
            b.putShort(index(a.from())).putInt(a.next());
        } else if (m instanceof ViewMessage.JoinChunk c) {
            if (c.bytes().length > CHUNK) {
                throw new IllegalArgumentException("join chunk of " + c.bytes().length + " bytes is above CHUNK " + CHUNK);
            }
            b = header(JOIN_CHUNK, c.from(), 8 + 2 + 12 + c.bytes().length);
            b.putShort(index(c.joiner())).putInt(c.index()).putInt(c.total()).putInt(c.bytes().length).put(c.bytes());
        } else if (m instanceof ViewMessage.JoinRefused r) {
            byte[] why = r.reason().getBytes(StandardCharsets.UTF_8);
            if (why.length > MAX_REASON) {
                why = java.util.Arrays.copyOf(why, MAX_REASON);
            }
            b = header(JOIN_REFUSED, r.from(), 8 + 2 + 2 + why.length);
            b.putShort(index(r.joiner())).putShort((short) why.length).put(why);
        } else if (m instanceof ViewMessage.JoinInstall i) {
            b = header(JOIN_INSTALL, i.from(), 8 + 2 + 2 + 8 * i.start().size());
            b.putShort(index(i.joiner()));
            clock(b, i.start());
        } else {
            ViewMessage.JoinInstalled i = (ViewMessage.JoinInstalled) m;
            b = header(JOIN_INSTALLED, i.from(), 8 + 2);
            b.putShort(index(i.joiner()));
        }
        return java.util.Arrays.copyOf(b.array(), b.position());
    }

    /** After the header: the message of {@code type}, or the field that is wrong and where. */
    static CausalWire.Decoded decode(ByteBuffer b, byte type, NodeId from) {
        int at = b.position();
        int j = Short.toUnsignedInt(b.getShort());
        if (j >= CausalWire.MAX_NODES) {
            return bad("offset " + at + ": joiner index " + j + " is not below MAX_NODES " + CausalWire.MAX_NODES);
        }
        NodeId joiner = NodeId.of(j);
        ViewMessage m;
        switch (type) {
            case JOIN_ASK -> {
                int next = b.getInt();
                if (next < 0 || next > MAX_CHUNKS || !joiner.equals(from)) {
                    return bad("offset " + at + ": join ask from " + from + " for " + joiner + " from chunk " + next
                            + " (a joiner asks for itself, from a chunk in 0.." + MAX_CHUNKS + ")");
                }
                m = new ViewMessage.JoinAsk(from, next);
            }
            case JOIN_CHUNK -> {
                int index = b.getInt();
                int total = b.getInt();
                int len = b.getInt();
                if (total < 1 || total > MAX_CHUNKS || index < 0 || index >= total || len < 0 || len > CHUNK
                        || len != b.remaining()) {
                    return bad("offset " + (at + 2) + ": join chunk " + index + " of " + total + " with " + len
                            + " bytes (" + b.remaining() + " remain) breaks 0 <= index < total <= " + MAX_CHUNKS
                            + ", length <= " + CHUNK);
                }
                byte[] bytes = new byte[len];
                b.get(bytes);
                m = new ViewMessage.JoinChunk(from, joiner, index, total, bytes);
            }
            case JOIN_REFUSED -> {
                int len = Short.toUnsignedInt(b.getShort());
                if (len > MAX_REASON || len != b.remaining()) {
                    return bad("offset " + (at + 2) + ": join refusal reason of " + len + " bytes, " + b.remaining()
                            + " remain (at most " + MAX_REASON + ")");
                }
                byte[] why = new byte[len];
                b.get(why);
                String reason;
                try {
                    reason = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(why)).toString();
                } catch (java.nio.charset.CharacterCodingException e) {
                    // Strict, so that a decoded refusal re-encodes to the same bytes.
                    return bad("offset " + (at + 4) + ": join refusal reason of " + len + " bytes is not UTF-8");
                }
                m = new ViewMessage.JoinRefused(from, joiner, reason);
            }
            case JOIN_INSTALL -> {
                VectorClock start = clock(b);
                if (start == null) {
                    return bad("offset " + (at + 2) + ": join install's start prefix is not a clock of 1.."
                            + CausalWire.MAX_NODES + " non-negative components");
                }
                m = new ViewMessage.JoinInstall(from, joiner, start);
            }
            default -> m = new ViewMessage.JoinInstalled(from, joiner);
        }
        if (b.hasRemaining()) {
            return bad("offset " + b.position() + ": " + b.remaining() + " bytes after the end of the message");
        }
        return new CausalWire.Decoded(null, m, null);
    }

    /**
     * The largest state a donor of a group of {@code n} with at most {@code maxStored} stored events
     * can hand (each event's payload up to MAX_PAYLOAD), the agreed sets aside: those of removed nodes
     * list at most MAX_ABOVE seqs each on the view change's wire, so they add at most that.
     */
    public static long largestState(int n, int maxStored) {
        long fixed = 4 + 2 + 8L * n + n + n * (1 + 12 + 8L * CausalWire.MAX_ABOVE + 2 + 8L * n) + 4;
        return fixed + (long) maxStored * (10 + 2 + 8L * n + 4 + CausalWire.MAX_PAYLOAD);
    }

    /** The donor's state as bytes: ids, prefix, view, agreed sets, rows, store. */
    public static byte[] encodeState(JoinState s) {
        int n = s.prefix().size();
        long len = 4 + 2 + 8 * n + n;
        for (int k = 0; k < n; k++) {
            SeqSet a = s.agreed(k);
            len += 1 + (a == null ? 0 : 12 + 8 * a.above().size());
            len += 2 + 8 * s.row(k).size();
        }
        len += 4;
        for (Event e : s.store()) {
            len += 10 + 2 + 8 * e.vc().size() + 4 + e.payload().length();
        }
        if ((long) len > (long) CHUNK * MAX_CHUNKS) {
            throw new IllegalArgumentException("join state of " + s.joiner() + " is " + len + " bytes, above "
                    + MAX_CHUNKS + " chunks of " + CHUNK + " bytes");
        }
        ByteBuffer b = ByteBuffer.allocate((int) len);
        b.putShort(index(s.donor())).putShort(index(s.joiner()));
        clock(b, s.prefix());
        for (int k = 0; k < n; k++) {
            b.put((byte) (s.inView(k) ? 1 : 0));
        }
        for (int k = 0; k < n; k++) {
            SeqSet a = s.agreed(k);
            b.put((byte) (a == null ? 0 : 1));
            if (a != null) {
                b.putLong(a.prefix()).putInt(a.above().size());
                a.above().forEach(b::putLong);
            }
            clock(b, s.row(k));
        }
        b.putInt(s.store().size());
        for (Event e : s.store()) {
            b.putShort(index(e.origin())).putLong(e.seq());
            clock(b, e.vc());
            byte[] p = e.payload().toByteArray();
            b.putInt(p.length).put(p);
        }
        return b.array();
    }

    /** The state back from its bytes; throws naming the field if they are not a state. */
    public static JoinState decodeState(byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes);
        try {
            NodeId donor = NodeId.of(Short.toUnsignedInt(b.getShort()));
            NodeId joiner = NodeId.of(Short.toUnsignedInt(b.getShort()));
            VectorClock prefix = need(clock(b), "prefix", b);
            int n = prefix.size();
            boolean[] view = new boolean[n];
            for (int k = 0; k < n; k++) {
                view[k] = b.get() != 0;
            }
            SeqSet[] agreed = new SeqSet[n];
            VectorClock[] rows = new VectorClock[n];
            for (int k = 0; k < n; k++) {
                if (b.get() != 0) {
                    long p = b.getLong();
                    int c = b.getInt();
                    if (c < 0 || c > b.remaining() / 8) {
                        throw new IllegalArgumentException("join state: agreed set of node " + k + " claims " + c + " seqs");
                    }
                    TreeSet<Long> above = new TreeSet<>();
                    for (int i = 0; i < c; i++) {
                        above.add(b.getLong());
                    }
                    agreed[k] = new SeqSet(p, above);
                }
                rows[k] = need(clock(b), "row of node " + k, b);
            }
            int events = b.getInt();
            if (events < 0 || events > b.remaining()) {
                throw new IllegalArgumentException("join state: store of " + events + " events in " + b.remaining() + " bytes");
            }
            List<Event> store = new ArrayList<>();
            for (int i = 0; i < events; i++) {
                NodeId origin = NodeId.of(Short.toUnsignedInt(b.getShort()));
                long seq = b.getLong();
                VectorClock vc = need(clock(b), "clock of stored event " + i, b);
                int len = b.getInt();
                if (len < 0 || len > b.remaining()) {
                    throw new IllegalArgumentException("join state: stored event " + i + " has a payload of " + len + " bytes, "
                            + b.remaining() + " remain");
                }
                byte[] p = new byte[len];
                b.get(p);
                store.add(new Event(new EventId(origin, seq), vc, Payload.of(p)));
            }
            if (b.hasRemaining()) {
                throw new IllegalArgumentException("join state: " + b.remaining() + " bytes after its end");
            }
            return JoinState.of(donor, joiner, prefix, store, view, agreed, rows);
        } catch (BufferUnderflowException e) {
            throw new IllegalArgumentException("join state of " + bytes.length + " bytes ends inside a field", e);
        }
    }

    private static VectorClock need(VectorClock vc, String what, ByteBuffer b) {
        if (vc == null) {
            throw new IllegalArgumentException("join state: " + what + " before offset " + b.position() + " is not a clock");
        }
        return vc;
    }

    private static ByteBuffer header(byte type, NodeId from, int capacity) {
        ByteBuffer b = ByteBuffer.allocate(capacity);
        b.put(CausalWire.M0).put(CausalWire.M1).put(CausalWire.VERSION).put(type).putShort(index(from));
        return b;
    }

    private static void clock(ByteBuffer b, VectorClock vc) {
        b.putShort((short) vc.size());
        for (int k = 0; k < vc.size(); k++) {
            b.putLong(vc.get(k));
        }
    }

    /** A clock, or null if its size or a component is out of range. */
    private static VectorClock clock(ByteBuffer b) {
        int n = Short.toUnsignedInt(b.getShort());
        if (n < 1 || n > CausalWire.MAX_NODES) {
            return null;
        }
        long[] vc = new long[n];
        for (int k = 0; k < n; k++) {
            vc[k] = b.getLong();
            if (vc[k] < 0) {
                return null;
            }
        }
        return VectorClock.of(vc);
    }

    private static short index(NodeId k) {
        if (k.index() >= CausalWire.MAX_NODES) {
            throw new IllegalArgumentException("node " + k + " is above MAX_NODES " + CausalWire.MAX_NODES);
        }
        return (short) k.index();
    }

    private static CausalWire.Decoded bad(String why) {
        return new CausalWire.Decoded(null, why);
    }
}
