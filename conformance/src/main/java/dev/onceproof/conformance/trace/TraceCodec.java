package dev.onceproof.conformance.trace;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads and writes trace files (specs/CONVENTIONS.md). Writing is canonical (sorted keys, one
 * object per line, \n line ends); reading is strict: a malformed line, a missing or unknown field,
 * or a step number out of sequence is an error naming the file and line.
 */
public final class TraceCodec {

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Set<String> HEADER_FIELDS = Set.of("trace", "spec", "module", "cfg", "kind", "seed",
            "depth", "trap", "constants", "command");
    /**
     * Written in every generated file, optional when reading: they serve only the freshness check
     * (which regenerates a file without them), and a trace written by hand for a test has no inputs.
     */
    private static final Set<String> OPTIONAL_HEADER_FIELDS = Set.of("inputs", "digest");
    private static final Set<String> STEP_FIELDS = Set.of("step", "action", "params", "state");

    private TraceCodec() {
    }

    public static String write(TraceHeader h, List<TraceStep> steps) {
        ObjectNode header = F.objectNode();
        header.put("trace", h.trace());
        header.put("spec", h.spec());
        header.put("module", h.module());
        header.put("cfg", h.cfg());
        header.put("kind", h.kind());
        header.put("seed", h.seed());
        header.put("depth", h.depth());
        header.put("trap", h.trap());
        header.set("constants", h.constants());
        header.put("command", h.command());
        if (h.inputs() != null) {
            header.put("inputs", h.inputs()); // always, for a generated trace
        }
        StringBuilder body = new StringBuilder();
        for (TraceStep s : steps) {
            ObjectNode line = F.objectNode();
            line.put("step", s.step());
            line.put("action", s.action());
            line.set("params", s.params());
            line.set("state", s.state());
            body.append(CanonicalJson.write(line)).append('\n');
        }
        header.put("digest", digest(CanonicalJson.write(header), body.toString()));
        return CanonicalJson.write(header) + "\n" + body;
    }

    /**
     * The header's digest: SHA-256 of the header line written without its digest field, a newline,
     * and the step lines, all as UTF-8.
     */
    static String digest(String headerWithoutDigest, String stepLines) {
        return TraceInputs.sha256((headerWithoutDigest + "\n" + stepLines).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Whether a stored file is byte for byte what {@link #write} made for the inputs its header names:
     * the header line is canonical and the digest matches the rest. Returns the reason it is not, or
     * null when it is. Never throws on a malformed file (that is a reason too).
     */
    public static String notAsWritten(String text) {
        int nl = text.indexOf('\n');
        if (nl < 0 || !text.endsWith("\n")) {
            return "the file is empty or its last line has no \\n";
        }
        String line1 = text.substring(0, nl);
        JsonNode n;
        try {
            n = CanonicalJson.read(line1);
        } catch (JsonProcessingException e) {
            return "line 1 is not JSON";
        }
        if (n == null || !n.isObject() || !n.path("digest").isTextual()) {
            return "line 1 has no digest";
        }
        if (!CanonicalJson.write(n).equals(line1)) {
            return "line 1 is not in canonical form";
        }
        ObjectNode without = ((ObjectNode) n).deepCopy();
        without.remove("digest");
        if (!digest(CanonicalJson.write(without), text.substring(nl + 1)).equals(n.get("digest").asText())) {
            return "the digest does not match the content (changed after generation)";
        }
        return null;
    }

    public static TraceFile read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + file, e);
        }
        return parse(file, text);
    }

    public static TraceFile parse(Path file, String text) {
        if (text.isEmpty()) {
            throw new TraceFormatException(file, 1, "the file is empty; line 1 must be the header");
        }
        if (!text.endsWith("\n")) {
            throw new TraceFormatException(file, (int) text.lines().count(), "the last line does not end with \\n"
                    + " (truncated file?)");
        }
        String[] lines = text.substring(0, text.length() - 1).split("\n", -1);
        TraceHeader header = header(file, object(file, 1, lines[0]));
        List<TraceStep> steps = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            int lineNo = i + 1;
            ObjectNode o = object(file, lineNo, lines[i]);
            fields(file, lineNo, o, STEP_FIELDS, Set.of(), "a step");
            JsonNode step = o.get("step");
            if (!step.isIntegralNumber() || step.asLong() != i - 1) {
                throw new TraceFormatException(file, lineNo, "field \"step\" is " + step + ", expected " + (i - 1)
                        + " (steps count from 0, one per line)");
            }
            String action = text(file, lineNo, o, "action");
            ObjectNode params = obj(file, lineNo, o, "params");
            ObjectNode state = obj(file, lineNo, o, "state");
            steps.add(new TraceStep(i - 1, action, params, state, lineNo));
        }
        if (steps.isEmpty()) {
            throw new TraceFormatException(file, 2, "the trace has a header but no steps (step 0 is the initial state)");
        }
        return new TraceFile(file, header, steps);
    }

    private static TraceHeader header(Path file, ObjectNode o) {
        fields(file, 1, o, HEADER_FIELDS, OPTIONAL_HEADER_FIELDS, "the header");
        JsonNode seed = o.get("seed");
        JsonNode depth = o.get("depth");
        JsonNode trap = o.get("trap");
        if (!seed.isNull() && !seed.isIntegralNumber()) {
            throw new TraceFormatException(file, 1, "field \"seed\" must be an integer or null, is " + seed);
        }
        if (!depth.isNull() && !depth.isIntegralNumber()) {
            throw new TraceFormatException(file, 1, "field \"depth\" must be an integer or null, is " + depth);
        }
        if (!trap.isNull() && !trap.isTextual()) {
            throw new TraceFormatException(file, 1, "field \"trap\" must be a string or null, is " + trap);
        }
        return new TraceHeader(text(file, 1, o, "trace"), text(file, 1, o, "spec"), text(file, 1, o, "module"),
                text(file, 1, o, "cfg"), text(file, 1, o, "kind"), seed.isNull() ? null : seed.asLong(),
                depth.isNull() ? null : depth.asInt(), trap.isNull() ? null : trap.asText(),
                obj(file, 1, o, "constants"), text(file, 1, o, "command"),
                o.has("inputs") ? text(file, 1, o, "inputs") : null, o.has("digest") ? text(file, 1, o, "digest") : null);
    }

    private static ObjectNode object(Path file, int line, String text) {
        JsonNode n;
        try {
            n = CanonicalJson.read(text);
        } catch (JsonProcessingException e) {
            throw new TraceFormatException(file, line, "malformed JSON: " + e.getOriginalMessage(), e);
        }
        if (n == null || !n.isObject()) {
            throw new TraceFormatException(file, line, "expected a JSON object, found " + (n == null ? "nothing" : n));
        }
        return (ObjectNode) n;
    }

    private static void fields(Path file, int line, ObjectNode o, Set<String> expected, Set<String> optional,
                               String what) {
        Set<String> present = new TreeSet<>();
        for (Iterator<String> it = o.fieldNames(); it.hasNext(); ) {
            present.add(it.next());
        }
        for (String f : present) {
            if (!expected.contains(f) && !optional.contains(f)) {
                throw new TraceFormatException(file, line, what + " has an unknown field \"" + f + "\"");
            }
        }
        for (String f : new TreeSet<>(expected)) {
            if (!present.contains(f)) {
                throw new TraceFormatException(file, line, what + " is missing field \"" + f + "\"");
            }
        }
    }

    private static String text(Path file, int line, ObjectNode o, String field) {
        JsonNode v = o.get(field);
        if (!v.isTextual() || v.asText().isEmpty()) {
            throw new TraceFormatException(file, line, "field \"" + field + "\" must be a non-empty string, is " + v);
        }
        return v.asText();
    }

    private static ObjectNode obj(Path file, int line, ObjectNode o, String field) {
        JsonNode v = o.get(field);
        // TLC prints an empty function as <<>>, which renders as []; an empty record means the same.
        if (v.isArray() && v.isEmpty()) {
            return F.objectNode();
        }
        if (!v.isObject()) {
            throw new TraceFormatException(file, line, "field \"" + field + "\" must be an object, is " + v);
        }
        return (ObjectNode) v;
    }
}
