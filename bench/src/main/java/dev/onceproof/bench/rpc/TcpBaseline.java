package dev.onceproof.bench.rpc;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Iterator;

/**
 * RPC over TCP, length-prefixed frames: at-most-once while the connection lasts, the semantics of
 * Sun's TCP-based RPC (paper 3.1). The server is one thread with a selector, as a single-threaded
 * SunRPC server multiplexes its sockets with select(). Nagle is off on both ends, since a
 * request/response protocol with Nagle on waits for delayed acks and would make TCP look worse
 * than it is.
 *
 * <p>A client is one connection: case (a) reuses it for all calls (the paper's TCP-RPC), case (b)
 * opens one per client, which is the cost the paper's Figure 3-3 shows.
 */
public final class TcpBaseline implements RpcSystem {

    private static final int MAX_FRAME = 65_536;

    private final ServerSocketChannel listener;
    private final Selector selector;
    private final Thread server;
    private final InetSocketAddress address;
    private final int timeoutMillis;
    private volatile boolean running = true;

    public TcpBaseline(int timeoutMillis) throws IOException {
        this.timeoutMillis = timeoutMillis;
        listener = ServerSocketChannel.open();
        listener.bind(new InetSocketAddress("127.0.0.1", 0), 1024);
        listener.configureBlocking(false);
        address = (InetSocketAddress) listener.getLocalAddress();
        selector = Selector.open();
        listener.register(selector, SelectionKey.OP_ACCEPT);
        server = new Thread(this::serve, "tcp-baseline-server");
        server.setDaemon(true);
        server.start();
    }

    /**
     * Per-connection read buffer; a frame is a 4-byte length and that many bytes. It starts small
     * and grows to the largest frame seen, so a connection for one null call does not zero 64 KB.
     */
    private static final class Conn {
        ByteBuffer in = ByteBuffer.allocate(4 + 256);
        ByteBuffer pendingOut;

        /** Makes room for a whole frame of {@code length} bytes; the buffer is in read mode. */
        void ensureFrame(int length) {
            if (in.capacity() < 4 + length) {
                ByteBuffer bigger = ByteBuffer.allocate(4 + length);
                bigger.put(in);
                bigger.flip();
                in = bigger;
            }
        }
    }

    private void serve() {
        try {
            while (running) {
                selector.select();
                Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
                while (keys.hasNext()) {
                    SelectionKey key = keys.next();
                    keys.remove();
                    try {
                        if (key.isAcceptable()) {
                            accept();
                        } else if (key.isReadable()) {
                            read(key);
                        } else if (key.isWritable()) {
                            flush(key);
                        }
                    } catch (IOException e) {
                        key.channel().close(); // a broken client must not stop the server
                    }
                }
            }
        } catch (IOException e) {
            System.err.println("tcp baseline server stopped: " + e);
        } finally {
            // The selector thread owns every channel; it closes them so none outlives close().
            for (SelectionKey key : selector.keys()) {
                try {
                    key.channel().close();
                } catch (IOException ignored) {
                    // closing anyway
                }
            }
            try {
                selector.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private void accept() throws IOException {
        SocketChannel c;
        while ((c = listener.accept()) != null) {
            c.configureBlocking(false);
            c.setOption(StandardSocketOptions.TCP_NODELAY, true);
            c.register(selector, SelectionKey.OP_READ, new Conn());
        }
    }

    private void read(SelectionKey key) throws IOException {
        SocketChannel c = (SocketChannel) key.channel();
        Conn conn = (Conn) key.attachment();
        if (c.read(conn.in) < 0) {
            c.close();
            return;
        }
        conn.in.flip();
        while (conn.in.remaining() >= 4) {
            int length = conn.in.getInt(conn.in.position());
            if (length < 0 || length > MAX_FRAME) {
                c.close();
                return;
            }
            if (conn.in.remaining() < 4 + length) {
                conn.ensureFrame(length);
                break;
            }
            conn.in.position(conn.in.position() + 4 + length);
            // The null call: a reply frame with no results.
            ByteBuffer reply = ByteBuffer.allocate(4).putInt(0).flip();
            c.write(reply);
            if (reply.hasRemaining()) {
                conn.pendingOut = reply;
                key.interestOps(SelectionKey.OP_WRITE);
                break;
            }
        }
        conn.in.compact();
    }

    private void flush(SelectionKey key) throws IOException {
        Conn conn = (Conn) key.attachment();
        ((SocketChannel) key.channel()).write(conn.pendingOut);
        if (!conn.pendingOut.hasRemaining()) {
            conn.pendingOut = null;
            key.interestOps(SelectionKey.OP_READ);
        }
    }

    @Override
    public String name() {
        return "TCP";
    }

    @Override
    public String description() {
        return "length-prefixed RPC over TCP, TCP_NODELAY, one selector thread; a connection per client";
    }

    @Override
    public Client newClient() throws IOException {
        return new TcpClient();
    }

    @Override
    public void close() throws IOException {
        running = false;
        selector.wakeup();
        try {
            server.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private final class TcpClient implements Client {

        private final Socket socket;
        private final OutputStream out;
        private final DataInputStream in;

        TcpClient() throws IOException {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(address, timeoutMillis);
            socket.setSoTimeout(timeoutMillis);
            out = socket.getOutputStream();
            in = new DataInputStream(socket.getInputStream());
        }

        @Override
        public byte[] call(byte[] args) throws IOException {
            // One write per request, so the frame leaves in one segment.
            out.write(ByteBuffer.allocate(4 + args.length).putInt(args.length).put(args).array());
            int length = in.readInt();
            return in.readNBytes(length);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}
