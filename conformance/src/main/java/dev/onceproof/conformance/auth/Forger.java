package dev.onceproof.conformance.auth;

import dev.onceproof.rpc.wire.DatagramAuth;
import dev.onceproof.rpc.wire.Payload;
import dev.onceproof.rpc.wire.RpcEncoder;
import dev.onceproof.rpc.wire.RpcKey;
import dev.onceproof.rpc.wire.RpcMessage;
import dev.onceproof.scmp.ConnId;
import dev.onceproof.scmp.Timestamp;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.security.SecureRandom;

/**
 * The attacker process of {@link AuthAttack}: anyone who can send a UDP datagram to the server,
 * without the victim's key. For a given time it sends CALLs on the victim's connection id with a
 * timestamp just below the server's latest (clock + beta, beta being public), each above the last,
 * as version 1 datagrams and as version 2 datagrams under a key of its own, so that a server that
 * takes them executes them and then judges the victim's real calls duplicates.
 *
 * <p>Arguments: host port victimConn durationMillis betaMillis. Prints "forged N datagrams".
 */
public final class Forger {

    /** The arguments every forged call carries, so the server's journal tells them apart. */
    public static final String FORGED_ARGS = "forged";

    private Forger() {
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress server = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        ConnId victim = ConnId.of(args[2]);
        long duration = Long.parseLong(args[3]);
        long beta = Long.parseLong(args[4]);
        byte[] ownKey = new byte[32];
        new SecureRandom().nextBytes(ownKey);
        RpcKey guess = new RpcKey(1, ownKey);
        long sent = 0;
        long lastTs = 0;
        long end = System.currentTimeMillis() + duration;
        try (DatagramSocket socket = new DatagramSocket()) {
            while (System.currentTimeMillis() < end) {
                long ts = Math.max(lastTs + 1, System.currentTimeMillis() + beta - 50);
                lastTs = ts;
                RpcMessage.Call call = new RpcMessage.Call(victim, Timestamp.of(ts), Payload.ofUtf8(FORGED_ARGS));
                for (byte[] d : new byte[][] {RpcEncoder.encode(call), DatagramAuth.seal(call, guess)}) {
                    socket.send(new DatagramPacket(d, d.length, server));
                    sent++;
                }
                Thread.sleep(5);
            }
        }
        System.out.println("forged " + sent + " datagrams");
    }
}
