/**
 * The exactly-once wire format: one byte string per {@link dev.onceproof.exactlyonce.EoMessage},
 * compact (variable-length numbers, no padding), versioned, and canonical (one encoding per message).
 *
 * <pre>
 * byte 0     magic 0x45 ('E')
 * byte 1     version, 1
 * byte 2     type: 1 NoteDelivery, 2 NoteAck, 3 PurgeRequest, 4 PurgeAck, 5 SyncRequest, 6 SyncReply, 7 Replica,
 *            8 DRequest, 9 DReply, 10 DSync, 11 HistoryUpload (Strategies 4-6), 12 ReplicaAck, 13 ReplicaCommit
 *            (the acknowledged replication round)
 * then, by type (a "name" is a varint length 1..64 and that many printable ASCII bytes other than '.'):
 *   NoteDelivery       from (server name), to (client name), note id, body
 *                      (the note's client is the addressee, so it is not repeated)
 *   NoteAck, PurgeAck  from (client name), to (server name), note id
 *   PurgeRequest       from (server name), to (client name), note id
 *   SyncRequest/Reply  from, to (server names), client (name), round (varint), seen (varint, Strategy 3's
 *                      watermark, 0 for Strategies 0-2), k, d, removed (id sets)
 *   Replica            from, to (server names), note id, note client (name), body
 *   ReplicaAck         from, to (server names), client (name), note id, number (varint &ge; 1)
 *   ReplicaCommit      from, to (server names), client (name), note id, count (varint 2..4096), that many
 *                      (server name, number varint &ge; 1) ascending by server, from and to among them
 *   DRequest           from, to (server names), client (name), session (varint &ge; 1)
 *   DReply             from, to, client, session (varint &ge; 1), ts (varint), d (id set)
 *   DSync              from, to, client, ts (varint), k, d (id sets; d a subset of k), seen (varint, the
 *                      sender's watermark)
 *   HistoryUpload      from (client name), to (server name), complete (byte 0 UNKNOWN / 1), ended count
 *                      (varint), that many (server name, end time varint) ascending by server, open count,
 *                      that many server names ascending, none also ended
 * note id   kind byte 0: sequenced, server name, seq (varint); kind 1: global, name
 * body      varint length 0..3*4096, UTF-8 (strict), at most 4096 UTF-16 chars
 * id set    varint count 0..65536, then the ids in strictly ascending order; an id of the same server as
 *           the sequenced id before it is kind 2 and a varint delta &ge; 1 (so a run A.1..A.40 costs
 *           about 2 bytes an id)
 * varint    unsigned LEB128, at most 63 bits, shortest form
 * </pre>
 *
 * The message ends where its last field ends. {@link dev.onceproof.exactlyonce.wire.EoWire#decode}
 * accepts exactly what {@code encode} writes; any other input (truncated, bad magic or version, an
 * unknown type or id kind, a count, length or number out of range, a name with a forbidden byte,
 * unordered or repeated ids, bytes after the end) is refused with an
 * {@link dev.onceproof.exactlyonce.InvalidMessageException} whose field names the part and whose
 * text gives the offset and the rule. Decoding is a pure function: a refused message changes no
 * state. Whether ids suit a strategy (sequenced or global, W) stays the core's check
 * ({@link dev.onceproof.exactlyonce.Limits}).
 */
package dev.onceproof.exactlyonce.wire;
