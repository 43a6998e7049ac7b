package dev.onceproof.provenance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The hash of the files a result was made from, so that a committed result (a bench's claims, a
 * verify run's entry) shows as stale once any of them changes. The bench (which writes claims) and
 * the conformance tools (which read them) both use this one definition, so they cannot disagree on
 * what "stale" means.
 *
 * <p>Definition: the inputs are repository-relative paths, each a file or a folder (taken
 * recursively, regular files only). Every file is named by its relative path with '/' separators;
 * the files are taken in the order of those names, and SHA-256 runs over, for each, the name's UTF-8
 * bytes, a 0 byte, the file's bytes with CRLF read as LF (a checkout on another platform must not
 * look stale), and a 0 byte. The result is {@code "sha256:" + hex}. A path that does not exist is an
 * error naming it: a result cannot be fresh against an input that is gone.
 */
public final class InputsHash {

    private InputsHash() {
    }

    /** The hash of the given inputs (repository-relative paths) under {@code root}. */
    public static String of(Path root, Collection<String> inputs) {
        TreeMap<String, Path> files = new TreeMap<>();
        for (String input : inputs) {
            Path p = root.resolve(input).normalize();
            if (!p.startsWith(root.normalize())) {
                throw new IllegalArgumentException("input \"" + input + "\" lies outside " + root);
            }
            if (Files.isRegularFile(p)) {
                files.put(relative(root, p), p);
            } else if (Files.isDirectory(p)) {
                for (Path f : walk(p)) {
                    files.put(relative(root, f), f);
                }
            } else {
                throw new IllegalArgumentException("input \"" + input + "\" does not exist under " + root);
            }
        }
        MessageDigest md = sha256();
        files.forEach((name, file) -> {
            md.update(name.getBytes(StandardCharsets.UTF_8));
            md.update((byte) 0);
            md.update(lf(read(file)));
            md.update((byte) 0);
        });
        return "sha256:" + HexFormat.of().formatHex(md.digest());
    }

    private static List<Path> walk(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            return new ArrayList<>(s.filter(Files::isRegularFile).toList());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir, e);
        }
    }

    private static String relative(Path root, Path file) {
        return root.normalize().relativize(file.normalize()).toString().replace('\\', '/');
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read input " + file, e);
        }
    }

    /** CRLF as LF; a lone CR stays. */
    static byte[] lf(byte[] in) {
        byte[] out = new byte[in.length];
        int n = 0;
        for (int i = 0; i < in.length; i++) {
            if (in[i] == '\r' && i + 1 < in.length && in[i + 1] == '\n') {
                continue;
            }
            out[n++] = in[i];
        }
        return n == in.length ? in : java.util.Arrays.copyOf(out, n);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no SHA-256", e);
        }
    }
}
