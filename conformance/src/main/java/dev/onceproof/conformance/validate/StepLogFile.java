package dev.onceproof.conformance.validate;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One step log as impl's {@code StepLog} writes it: a header line (spec, mode, process, constants)
 * and one JSON object per step. A last line without its newline is the torn tail of a process
 * killed mid-write: the log counts up to the kill, so it is dropped (and counted in {@link #torn}).
 *
 * @param file    where it was read from
 * @param header  the header object
 * @param steps   the step objects, in file order (file line = index + 2)
 * @param torn    whether a torn last line was dropped
 */
public record StepLogFile(Path file, ObjectNode header, List<ObjectNode> steps, boolean torn) {

    private static final ObjectMapper JSON = new ObjectMapper();

    public StepLogFile {
        steps = List.copyOf(steps);
    }

    public String spec() {
        return header.path("spec").asText();
    }

    public String mode() {
        return header.path("mode").asText();
    }

    public String process() {
        return header.path("process").asText();
    }

    public JsonNode constants() {
        return header.path("constants");
    }

    /** Reads a log; a malformed one gets a one-line error naming the file and line. */
    public static StepLogFile read(Path file) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read step log " + file, e);
        }
        boolean torn = !text.isEmpty() && !text.endsWith("\n");
        List<String> lines = new ArrayList<>(text.lines().toList());
        if (torn) {
            lines.remove(lines.size() - 1);
        }
        if (lines.isEmpty()) {
            throw new StepLogException(file + ": empty, expected a header line naming the spec");
        }
        ObjectNode header = object(file, 1, lines.get(0));
        if (header.path("steplog").asInt() != 1 || !header.path("spec").isTextual()
                || !header.path("constants").isObject()) {
            throw new StepLogException(file + ":1: not a step log header (needs \"steplog\":1, \"spec\" and"
                    + " \"constants\")");
        }
        List<ObjectNode> steps = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            ObjectNode step = object(file, i + 1, lines.get(i));
            if (!step.path("action").isTextual()) {
                throw new StepLogException(file + ":" + (i + 1) + ": step has no \"action\"");
            }
            steps.add(step);
        }
        return new StepLogFile(file, header, steps, torn);
    }

    private static ObjectNode object(Path file, int line, String text) {
        try {
            JsonNode node = JSON.readTree(text);
            if (node instanceof ObjectNode o) {
                return o;
            }
            throw new StepLogException(file + ":" + line + ": expected a JSON object, found " + node.getNodeType());
        } catch (JsonProcessingException e) {
            throw new StepLogException(file + ":" + line + ": not JSON: " + e.getOriginalMessage());
        }
    }

    /** The same log with other steps (hand-edited controls, merged incarnations). */
    public StepLogFile withSteps(List<ObjectNode> newSteps) {
        return new StepLogFile(file, header, newSteps, torn);
    }
}
