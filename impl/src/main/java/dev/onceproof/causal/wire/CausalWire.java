package dev.onceproof.causal.wire;

import dev.onceproof.causal.CausalMessage;
import dev.onceproof.causal.Event;
import dev.onceproof.causal.EventId;
import dev.onceproof.causal.NodeId;
import dev.onceproof.causal.Payload;
import dev.onceproof.causal.VectorClock;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

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

    private CausalWire() {
    }

    /** A decoded message, or the reason the datagram is malformed (exactly one is non-null). */
    public record Decoded(CausalMessage message, String error) {
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
                default -> {
                    return bad("byte 3: message type " + type + " is not 1..4");
                }
            }
            if (b.hasRemaining()) {
                return bad("offset " + b.position() + ": " + b.remaining() + " bytes after the end of the message");
            }
            return new Decoded(m, null);
        } catch (BufferUnderflowException e) {
            return bad("datagram of " + length + " bytes ends inside a field");
        }
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
