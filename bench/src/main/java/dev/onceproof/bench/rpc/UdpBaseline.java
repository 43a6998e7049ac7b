package dev.onceproof.bench.rpc;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Plain UDP request/response with no duplicate detection: the zero-or-more semantics of Sun's
 * UDP-based RPC (paper 3.1). A request is a transaction id (8 bytes) and the arguments; the server
 * runs the null call for every datagram it gets, retransmissions included, and echoes the id.
 *
 * <p>Built like the SCMP-RPC runtime in its single-threaded configuration (one thread receives,
 * computes and sends; the client retransmits on a timed receive) so the comparison isolates the
 * protocol, not the plumbing.
 */
public final class UdpBaseline implements RpcSystem {

    private static final int XID = Long.BYTES;

    private final DatagramChannel channel;
    private final Thread server;
    private final InetSocketAddress address;
    private final int retransmitMillis;
    private final int tries;

    public UdpBaseline(int retransmitMillis, int tries) throws IOException {
        this.retransmitMillis = retransmitMillis;
        this.tries = tries;
        channel = DatagramChannel.open();
        channel.bind(new InetSocketAddress("127.0.0.1", 0));
        address = (InetSocketAddress) channel.getLocalAddress();
        server = new Thread(this::serve, "udp-baseline-server");
        server.setDaemon(true);
        server.start();
    }

    private void serve() {
        ByteBuffer buf = ByteBuffer.allocateDirect(65_536);
        try {
            while (true) {
                buf.clear();
                SocketAddress from = channel.receive(buf);
                buf.flip();
                if (buf.remaining() < XID) {
                    continue; // not ours
                }
                // The null call: the reply is the transaction id and no results.
                buf.limit(XID);
                channel.send(buf, from);
            }
        } catch (ClosedChannelException e) {
            // close() ends the loop
        } catch (IOException e) {
            System.err.println("udp baseline server stopped: " + e);
        }
    }

    @Override
    public String name() {
        return "UDP";
    }

    @Override
    public String description() {
        return "plain UDP request/response, no duplicate detection (zero-or-more), one server thread";
    }

    @Override
    public Client newClient() throws IOException {
        return new UdpClient();
    }

    @Override
    public void close() throws IOException {
        channel.close();
        try {
            server.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private final class UdpClient implements Client {

        private final DatagramChannel socket;
        /** The socket adaptor for its timed receive, fetched once as the SCMP-RPC client does. */
        private final java.net.DatagramSocket adaptor;
        /** Per thread, as in the SCMP-RPC client: no 64 KB allocation per short-lived client. */
        private static final ThreadLocal<DatagramPacket> PACKET =
                ThreadLocal.withInitial(() -> new DatagramPacket(new byte[65_536], 65_536));
        private long xid = ThreadLocalRandom.current().nextLong();

        UdpClient() throws IOException {
            socket = DatagramChannel.open();
            socket.connect(address);
            adaptor = socket.socket();
            adaptor.setSoTimeout(retransmitMillis);
        }

        @Override
        public byte[] call(byte[] args) throws IOException {
            long id = ++xid;
            DatagramPacket packet = PACKET.get();
            ByteBuffer request = ByteBuffer.allocate(XID + args.length).putLong(id).put(args).flip();
            for (int attempt = 1; attempt <= tries; attempt++) {
                socket.write(request.rewind());
                long deadline = System.nanoTime() + retransmitMillis * 1_000_000L;
                while (true) {
                    try {
                        adaptor.receive(packet);
                    } catch (SocketTimeoutException e) {
                        break; // retransmit
                    }
                    ByteBuffer reply = ByteBuffer.wrap(packet.getData(), 0, packet.getLength());
                    if (reply.remaining() >= XID && reply.getLong() == id) {
                        return Arrays.copyOfRange(packet.getData(), XID, packet.getLength());
                    }
                    if (System.nanoTime() >= deadline) {
                        break; // only stale replies came: retransmit
                    }
                }
            }
            throw new SocketTimeoutException("no reply from " + address + " after " + tries + " tries");
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
