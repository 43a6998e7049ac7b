/**
 * The causal broadcast wire format: one UDP datagram per {@link dev.onceproof.causal.CausalMessage},
 * big-endian, no padding.
 *
 * <pre>
 * offset size  field
 *      0    2  magic 0x43 0x42 ("CB")
 *      2    1  version, 1
 *      3    1  type: 1 DATA, 2 RESEND, 3 REQUEST, 4 HEARTBEAT; the view change's
 *              ({@link dev.onceproof.causal.wire.ViewMessage}): 5 FLUSH, 6 REPORT, 7 DECIDE,
 *              8 FORWARDED, 9 INSTALLED, 10 ENDED; the join's (JoinWire): 11 JOIN_ASK,
 *              12 JOIN_CHUNK, 13 JOIN_REFUSED, 14 JOIN_INSTALL, 15 JOIN_INSTALLED
 *      4    2  from: sender's node index (unsigned)
 *   DATA, RESEND:
 *      6    2  origin: event's node index (unsigned); for DATA equal to from
 *      8    8  seq (signed, &ge; 1)
 *     16    2  n: vector clock size (unsigned, 1..MAX_NODES)
 *     18  8n   vc[0..n-1] (signed, each &ge; 0)
 *  18+8n    2  payload length L (unsigned, 0..MAX_PAYLOAD)
 *  20+8n    L  payload
 *   REQUEST:
 *      6    2  origin of the requested event
 *      8    8  seq of the requested event (&ge; 1)
 *   HEARTBEAT:
 *      6    2  n
 *      8   8n  vc
 *   every view-change type (the targets: the nodes the change removes, more than one after a restart):
 *      6    2  t: targets (unsigned, 1..MAX_NODES)
 *      8   2t  their node indexes (unsigned, strictly ascending)
 *   FLUSH, FORWARDED, INSTALLED, ENDED: the targets only
 *   REPORT:
 *   8+2t       t seq sets, one per target in order: the reporter's delivered seqs of it
 *   DECIDE:
 *   8+2t       t seq sets: agreed, one per target
 *      .    2  r: reports (unsigned, 1..MAX_NODES)
 *      .       r times: node index (2, unsigned, strictly ascending), its t seq sets
 *   every join type: 6 2 the joiner's node index (unsigned), then
 *   JOIN_ASK (from the joiner itself):   8 4 next: the first chunk it lacks (0..MAX_CHUNKS)
 *   JOIN_CHUNK:   8 4 index, 12 4 total (1..MAX_CHUNKS), 16 4 L (0..CHUNK), 20 L the bytes of the
 *              donor's JoinState from index * CHUNK (JoinWire.encodeState)
 *   JOIN_REFUSED: 8 2 L (0..1024), 10 L the reason, UTF-8
 *   JOIN_INSTALL: 8 the handed prefix, a clock as HEARTBEAT's (n, then vc)
 *   JOIN_INSTALLED: nothing more
 *   seq set (every seq 1..prefix, and the seqs listed):
 *      0    8  prefix (signed, &ge; 0)
 *      8    2  a: seqs above the prefix (unsigned, 0..MAX_ABOVE)
 *     10   8a  the seqs, strictly ascending, the first above prefix + 1
 * </pre>
 *
 * The datagram ends exactly where its last field ends. The decoder is strict and total: any other
 * input (short, long, bad magic, version, type, a negative or zero count, a size out of range, a DATA
 * whose origin is not its sender, a seq set out of order, targets or reports out of order) gives an error that names the field and its offset, never an
 * exception; the node counts it as {@link dev.onceproof.causal.Refusal#MALFORMED}. Whether a node
 * index is in the group and a clock has the group's size is the node's check, not the decoder's, so
 * those refusals are counted under their own names.
 */
package dev.onceproof.causal.wire;
