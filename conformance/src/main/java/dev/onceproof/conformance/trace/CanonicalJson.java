package dev.onceproof.conformance.trace;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * One-line JSON with keys sorted at every level, so regenerating a trace gives the same bytes.
 * Reading is strict about duplicate keys, which would otherwise silently keep the last value.
 */
public final class CanonicalJson {

    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_LONG_FOR_INTS);

    private CanonicalJson() {
    }

    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(sorted(node));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + node, e);
        }
    }

    public static JsonNode read(String line) throws JsonProcessingException {
        return MAPPER.readTree(line);
    }

    public static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            List<String> keys = new ArrayList<>();
            node.fieldNames().forEachRemaining(keys::add);
            Collections.sort(keys);
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            keys.forEach(k -> o.set(k, sorted(node.get(k))));
            return o;
        }
        if (node.isArray()) {
            ArrayNode a = JsonNodeFactory.instance.arrayNode();
            node.forEach(e -> a.add(sorted(e)));
            return a;
        }
        return node;
    }
}
