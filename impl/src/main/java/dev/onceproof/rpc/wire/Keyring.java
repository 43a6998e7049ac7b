package dev.onceproof.rpc.wire;

import dev.onceproof.scmp.ConnId;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * The per-connection keys of authenticated RPC (wire format version 2), as the server and the
 * client load them from the same kind of key file. Immutable.
 *
 * <p>Key file: UTF-8 text, one key per line, {@code <conn> <keyId> <key in hex>}, fields separated by
 * spaces or tabs; blank lines and lines starting with {@code #} are ignored. {@code conn} is a
 * connection id (printable ASCII), {@code keyId} 1..255, the key at least 32 bytes (64 hex digits).
 * A connection may have several key ids (rotation): a sender uses its highest, a receiver accepts
 * every one listed. A missing, unreadable or malformed file, a short key or a repeated (conn, keyId)
 * is an error naming the file and the line.
 */
public final class Keyring {

    private final Map<ConnId, NavigableMap<Integer, RpcKey>> keys;

    private Keyring(Map<ConnId, NavigableMap<Integer, RpcKey>> keys) {
        this.keys = keys;
    }

    /** A keyring built in code (tests, benchmarks): one key per connection, key id 1. */
    public static Keyring of(Map<ConnId, byte[]> keyPerConnection) {
        Map<ConnId, NavigableMap<Integer, RpcKey>> map = new HashMap<>();
        keyPerConnection.forEach((c, k) -> map.put(c, new TreeMap<>(Map.of(1, new RpcKey(1, k)))));
        return new Keyring(Collections.unmodifiableMap(map));
    }

    public static Keyring load(Path file) throws KeyFileException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new KeyFileException(file, 0, "cannot read the key file: " + e, e);
        }
        Map<ConnId, NavigableMap<Integer, RpcKey>> map = new HashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int n = i + 1;
            String[] f = line.split("[ \t]+");
            if (f.length != 3) {
                throw new KeyFileException(file, n, "expected \"<conn> <keyId> <key in hex>\", found "
                        + f.length + " fields", null);
            }
            ConnId conn;
            try {
                conn = ConnId.of(f[0]);
            } catch (IllegalArgumentException e) {
                throw new KeyFileException(file, n, "connection id: " + e.getMessage(), e);
            }
            int keyId;
            try {
                keyId = Integer.parseInt(f[1]);
            } catch (NumberFormatException e) {
                throw new KeyFileException(file, n, "key id \"" + f[1] + "\" is not a number", e);
            }
            byte[] key;
            try {
                key = HexFormat.of().parseHex(f[2]);
            } catch (IllegalArgumentException e) {
                throw new KeyFileException(file, n, "key of " + conn + " is not hex: " + e.getMessage(), e);
            }
            RpcKey k;
            try {
                k = new RpcKey(keyId, key);
            } catch (IllegalArgumentException e) {
                throw new KeyFileException(file, n, conn + ": " + e.getMessage(), e);
            }
            if (map.computeIfAbsent(conn, c -> new TreeMap<>()).putIfAbsent(keyId, k) != null) {
                throw new KeyFileException(file, n, "key id " + keyId + " of " + conn + " is listed twice", null);
            }
        }
        if (map.isEmpty()) {
            throw new KeyFileException(file, 0, "holds no keys", null);
        }
        return new Keyring(Collections.unmodifiableMap(map));
    }

    /** The key a sender on conn uses (its highest key id), or null if conn has none. */
    public RpcKey sendingKey(ConnId conn) {
        NavigableMap<Integer, RpcKey> k = keys.get(conn);
        return k == null ? null : k.lastEntry().getValue();
    }

    /** Conn's key with that id, or null. */
    public RpcKey key(ConnId conn, int keyId) {
        NavigableMap<Integer, RpcKey> k = keys.get(conn);
        return k == null ? null : k.get(keyId);
    }

    public Set<ConnId> connections() {
        return keys.keySet();
    }
}
