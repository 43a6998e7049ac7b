/**
 * The RPC wire format: how the messages of the at-most-once RPC protocol (paper section 3.1,
 * Figure 3-1) travel in one UDP datagram each.
 *
 * <p>The paper sends the CALL as an SCMP at-most-once message and REPLY, ACK and REPLY-ACK as plain
 * datagrams. We add REJECT so that a client can tell "the server ruled my call out as a possible
 * duplicate" from "nothing came back" (see {@link dev.onceproof.rpc.wire.RpcMessage.Reject}).
 *
 * <h2>Layout, version 1</h2>
 *
 * All integers are big-endian. Offsets are from the first byte of the datagram.
 *
 * <pre>
 * offset  size  field        rule
 * 0       2     magic        0x4F 0x50 ("OP")
 * 2       1     version      1
 * 3       1     type         1 CALL, 2 CALL_TRUNCATED, 3 ACK, 4 REPLY, 5 REPLY_ACK, 6 REJECT
 * 4       1     connLength   1..128 (ConnId.MAX_LENGTH)
 * 5       n     conn         connLength bytes, each printable ASCII 0x21..0x7E
 * 5+n     8     ts           the call id: the CALL's timestamp in ms, signed, -2^62..2^62
 * 13+n    4     payloadLength   only CALL and REPLY: unsigned, 0..MAX_PAYLOAD
 * 17+n    m     payload         only CALL and REPLY: payloadLength bytes
 * </pre>
 *
 * Every message carries the connection id and the call id: the client demultiplexes ACK, REPLY and
 * REJECT by (conn, ts), and the server matches a REPLY-ACK to the call whose reply it stores.
 *
 * <table>
 *   <caption>Message types</caption>
 *   <tr><th>type</th><th>name</th><th>from</th><th>fields</th><th>size (bytes)</th></tr>
 *   <tr><td>1</td><td>CALL</td><td>client</td><td>conn, ts, payload</td><td>17+n+m</td></tr>
 *   <tr><td>2</td><td>CALL_TRUNCATED</td><td>client</td><td>conn, ts</td><td>13+n</td></tr>
 *   <tr><td>3</td><td>ACK</td><td>server</td><td>conn, ts</td><td>13+n</td></tr>
 *   <tr><td>4</td><td>REPLY</td><td>server</td><td>conn, ts, payload</td><td>17+n+m</td></tr>
 *   <tr><td>5</td><td>REPLY_ACK</td><td>client</td><td>conn, ts</td><td>13+n</td></tr>
 *   <tr><td>6</td><td>REJECT</td><td>server</td><td>conn, ts</td><td>13+n</td></tr>
 * </table>
 *
 * <h2>Layout, version 2 (authenticated)</h2>
 *
 * Optional, per connection: a server or client given a key file ({@link
 * dev.onceproof.rpc.wire.Keyring}) sends and accepts only version 2; without one, only version 1,
 * unchanged. Version 2 is version 1's layout with version byte 2, followed by a trailer:
 *
 * <pre>
 * offset  size  field        rule
 * 0       L     body         a version 1 encoding (offsets as above) whose version byte is 2
 * L       1     keyId        1..255: which of the connection's keys (rotation: send with the highest
 *                            id, accept any id the keyring lists for the connection)
 * L+1     32    tag          HMAC-SHA256, under key (conn, keyId), of bytes 0..L (body and keyId)
 * </pre>
 *
 * {@link dev.onceproof.rpc.wire.DatagramAuth#open} checks the body as strictly as version 1, then
 * the tag, compared in constant time ({@code MessageDigest.isEqual}); a version 1 datagram, an
 * unknown (conn, keyId) or a wrong tag is {@link dev.onceproof.rpc.wire.DecodeResult.Unauthenticated}:
 * the server counts it ({@code unauthenticated}) and drops it before the protocol core sees it, so
 * a forged datagram changes no protocol state. Server replies are sealed under the same
 * connection's key, so a client with keys ignores forged ACKs, REPLYs and REJECTs too. A key is at
 * least 32 bytes; the largest version 2 payload is {@link
 * dev.onceproof.rpc.wire.WireFormat#MAX_PAYLOAD_AUTHENTICATED} = 65362 - 33 = 65329 bytes. The tag
 * does not hide the payload (no encryption) and does not stop replay of a captured datagram, which
 * the protocol already handles: a replayed CALL is a duplicate SCMP rejects or answers from the
 * stored reply.
 *
 * <h2>Limits</h2>
 *
 * A datagram is at most {@link dev.onceproof.rpc.wire.WireFormat#MAX_DATAGRAM} = 65507 bytes (the
 * largest UDP payload over IPv4; the paper: "these messages can contain up to 64K bytes"), so a
 * payload is at most {@link dev.onceproof.rpc.wire.WireFormat#MAX_PAYLOAD} = 65507 - 145 = 65362
 * bytes, 145 being the largest header (17 + 128).
 *
 * <h2>Strictness</h2>
 *
 * {@link dev.onceproof.rpc.wire.RpcDecoder#decode} accepts exactly the encodings that
 * {@link dev.onceproof.rpc.wire.RpcEncoder#encode} produces: no trailing bytes, no payload length
 * that disagrees with the datagram, no unknown version or type. Anything else is a
 * {@link dev.onceproof.rpc.wire.DecodeResult.Malformed} naming the {@link
 * dev.onceproof.rpc.wire.DecodeError} and the byte offset of the offending field; the decoder never
 * throws for any input. The format carries no checksum: UDP's covers corruption, and the paper
 * assumes the network does not deliver corrupted messages (2.1).
 *
 * <h2>Versioning</h2>
 *
 * The version byte changes whenever a field is added, removed or reinterpreted; a decoder refuses
 * versions it does not know rather than guess, so a mixed deployment fails loudly.
 */
package dev.onceproof.rpc.wire;
