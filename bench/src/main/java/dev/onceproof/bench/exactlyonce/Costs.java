package dev.onceproof.bench.exactlyonce;

import dev.onceproof.exactlyonce.EoMessage;

/**
 * What one simulated connection cost beyond the notes themselves: messages by kind, note ids carried
 * in sync messages (their size grows with K and D), and durable writes on each side.
 */
final class Costs {

    long deliveries;
    long acks;
    long syncMessages;
    long syncIds;
    long purgeMessages;
    long clientWrites;
    long serverWrites;

    void count(EoMessage m) {
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
        }
    }

    long messages() {
        return deliveries + acks + syncMessages + purgeMessages;
    }
}
