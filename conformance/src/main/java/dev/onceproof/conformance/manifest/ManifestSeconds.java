package dev.onceproof.conformance.manifest;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes the measured {@code "seconds"} of manifest entries into specs/manifest.json as a text edit
 * of those entries alone, so the file keeps its layout, its order and every other byte: people edit
 * the manifest by hand and review its diffs, and a rewrite by a JSON printer would reflow all of it.
 *
 * <p>Each entry's object is located with Jackson's parser (character offsets of its braces, so a
 * name that also appears in a "why" text cannot mislead it). An existing {@code "seconds"} value is
 * replaced in place; a missing one is inserted just before the entry's {@code "why"} (every entry has
 * one), on a line of its own when "why" starts its line, else inline.
 */
public final class ManifestSeconds {

    /** Which array an entry is in: the same name may be a model and a trace. */
    public enum Section { MODELS, TRACES }

    public record Key(Section section, String name) {
    }

    private static final Pattern SECONDS = Pattern.compile("\"seconds\"\\s*:\\s*(null|-?[0-9.eE+-]+)");
    private static final Pattern WHY = Pattern.compile("\"why\"\\s*:");

    private ManifestSeconds() {
    }

    /** Rewrites the file with the given entries' seconds (one decimal); checks the result still loads. */
    public static void write(Path manifest, Map<Key, Double> seconds) {
        String text;
        try {
            text = Files.readString(manifest, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + manifest, e);
        }
        String updated = apply(manifest, text, seconds);
        try {
            Path tmp = manifest.resolveSibling(manifest.getFileName() + ".tmp");
            Files.writeString(tmp, updated, StandardCharsets.UTF_8);
            ManifestLoader.load(tmp); // never replace a good manifest with one the tools cannot read
            Files.move(tmp, manifest, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + manifest, e);
        }
    }

    /** The text with the seconds set; every entry named must exist. */
    static String apply(Path file, String text, Map<Key, Double> seconds) {
        record Span(int start, int end) {
        }
        Map<Key, Span> spans = new java.util.HashMap<>();
        try (JsonParser p = new JsonFactory().createParser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new ManifestException(file, null, null, "must be a JSON object");
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                Section section = field.equals("models") ? Section.MODELS : field.equals("traces") ? Section.TRACES : null;
                if (section == null || t != JsonToken.START_ARRAY) {
                    p.skipChildren();
                    continue;
                }
                while (p.nextToken() == JsonToken.START_OBJECT) {
                    int start = (int) p.currentTokenLocation().getCharOffset();
                    String name = null;
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String f = p.currentName();
                        p.nextToken();
                        if (f.equals("name") && p.currentToken() == JsonToken.VALUE_STRING) {
                            name = p.getText();
                        }
                        p.skipChildren();
                    }
                    int end = (int) p.currentTokenLocation().getCharOffset(); // the closing brace
                    if (name != null) {
                        spans.put(new Key(section, name), new Span(start, end));
                    }
                }
            }
        } catch (IOException e) {
            throw new ManifestException(file, "is not valid JSON: " + e.getMessage(), e);
        }
        List<Map.Entry<Key, Double>> edits = new ArrayList<>(seconds.entrySet());
        for (Map.Entry<Key, Double> e : edits) {
            if (!spans.containsKey(e.getKey())) {
                throw new ManifestException(file, e.getKey().name(), "seconds", "no "
                        + e.getKey().section().name().toLowerCase(Locale.ROOT) + " entry of that name");
            }
        }
        // From the end of the file backwards, so earlier offsets stay valid.
        edits.sort(Comparator.comparingInt((Map.Entry<Key, Double> e) -> spans.get(e.getKey()).start()).reversed());
        StringBuilder sb = new StringBuilder(text);
        for (Map.Entry<Key, Double> e : edits) {
            Span s = spans.get(e.getKey());
            String value = format(e.getValue());
            String entry = text.substring(s.start(), s.end());
            Matcher m = SECONDS.matcher(entry);
            if (m.find()) {
                sb.replace(s.start() + m.start(1), s.start() + m.end(1), value);
                continue;
            }
            Matcher why = WHY.matcher(entry);
            if (!why.find()) {
                throw new ManifestException(file, e.getKey().name(), "why", "is missing");
            }
            int at = s.start() + why.start();
            int lineStart = text.lastIndexOf('\n', at - 1) + 1;
            String before = text.substring(lineStart, at);
            String insert = before.isBlank() ? "\"seconds\": " + value + ",\n" + before : "\"seconds\": " + value + ", ";
            sb.insert(at, insert);
        }
        return sb.toString();
    }

    /** One decimal: the noise of a shared machine is larger than that. */
    static String format(double seconds) {
        return String.format(Locale.ROOT, "%.1f", seconds);
    }
}
