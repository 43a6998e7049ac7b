package dev.onceproof.bench.exactlyonce;

import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.wire.EoWire;

/**
 * What one simulated connection cost beyond the notes themselves: messages by kind, note ids carried
 * in sync messages (their size grows with K and D), bytes on the wire (every message the cores
 * send, encoded with {@link EoWire}, lost ones included: they were sent), and durable writes on each
 * side.
 */
final class Costs {

    long deliveries;
    long acks;
    long syncMessages;
    long syncIds;
    long purgeMessages;
    /** Strategy 6's history uploads (one per connect). */
    long uploads;
    long clientWrites;
    long serverWrites;
    long bytes;
    /** Messages the lossy wireless link dropped. */
    long lost;

    /** Whether {@link #bytes} is counted (encoding every message costs time; the cost table turns it on). */
    boolean measureBytes;

    void count(EoMessage m) {
        if (measureBytes) {
            bytes += EoWire.size(m);
        }
        if (m instanceof EoMessage.NoteDelivery) {
            deliveries++;
        } else if (m instanceof EoMessage.NoteAck) {
            acks++;
        } else if (m instanceof EoMessage.SyncRequest r) {
            syncMessages++;
            syncIds += r.k().size() + r.d().size() + r.removed().size();
        } else if (m instanceof EoMessage.SyncReply r) {
            syncMessages++;
            syncIds += r.k().size() + r.d().size() + r.removed().size();
        } else if (m instanceof EoMessage.PurgeRequest || m instanceof EoMessage.PurgeAck) {
            purgeMessages++;
        } else if (m instanceof EoMessage.DRequest) {
            syncMessages++;
        } else if (m instanceof EoMessage.DReply r) {
            syncMessages++;
            syncIds += r.d().size();
        } else if (m instanceof EoMessage.DSync y) {
            syncMessages++;
            syncIds += y.k().size() + y.d().size();
        } else if (m instanceof EoMessage.HistoryUpload) {
            uploads++;
        }
    }

    long messages() {
        return deliveries + acks + syncMessages + purgeMessages + uploads;
    }
}
