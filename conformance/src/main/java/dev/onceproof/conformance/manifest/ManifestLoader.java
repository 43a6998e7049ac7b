package dev.onceproof.conformance.manifest;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceproof.conformance.tlc.CfgFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads specs/manifest.json strictly: an unknown or missing field, a bad mode or kind, a duplicate
 * name or a file that does not exist is an error naming the file, the entry and the field. Nothing is
 * skipped, because a model silently dropped from the manifest is a model nobody checks.
 */
public final class ManifestLoader {

    private static final ObjectMapper JSON = new ObjectMapper().enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
    private static final Pattern KEBAB = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");
    private static final Set<String> MODEL_FIELDS = Set.of("name", "family", "module", "cfg", "mode", "expect",
            "distinctStates", "depth", "why", "checkDeadlock", "seconds", "simulate");
    private static final Set<String> SIMULATE_FIELDS = Set.of("behaviours", "depth", "seed");
    private static final Set<String> TRACE_FIELDS = Set.of("name", "family", "module", "cfg", "kind", "seeds",
            "depth", "trap", "why", "seconds");

    private final Path file;
    private final Path specs;

    private ManifestLoader(Path file) {
        this.file = file;
        this.specs = file.toAbsolutePath().getParent();
    }

    public static Manifest load(Path file) {
        return new ManifestLoader(file).load();
    }

    private Manifest load() {
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file));
        } catch (JsonProcessingException e) {
            throw new ManifestException(file, "is not valid JSON: " + e.getOriginalMessage() + " at line "
                    + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr(), e);
        } catch (IOException e) {
            throw new ManifestException(file, "cannot be read: " + e, e);
        }
        if (root == null || !root.isObject()) {
            throw new ManifestException(file, null, null, "must be a JSON object with \"models\" and \"traces\"");
        }
        onlyFields(root, Set.of("models", "traces"), null);
        List<ModelEntry> models = new ArrayList<>();
        Set<String> names = new HashSet<>();
        JsonNode ms = array(root, "models", null);
        for (int i = 0; i < ms.size(); i++) {
            ModelEntry m = model(ms.get(i), "models[" + i + "]");
            if (!names.add(m.name())) {
                throw new ManifestException(file, label(ms.get(i), "models[" + i + "]"), "name",
                        "another model is already called \"" + m.name() + "\"");
            }
            models.add(m);
        }
        List<TraceEntry> traces = new ArrayList<>();
        Set<String> traceNames = new HashSet<>();
        JsonNode ts = array(root, "traces", null);
        for (int i = 0; i < ts.size(); i++) {
            TraceEntry t = trace(ts.get(i), "traces[" + i + "]");
            if (!traceNames.add(t.name())) {
                throw new ManifestException(file, label(ts.get(i), "traces[" + i + "]"), "name",
                        "another trace is already called \"" + t.name() + "\"");
            }
            traces.add(t);
        }
        return new Manifest(models, traces);
    }

    private ModelEntry model(JsonNode n, String index) {
        String entry = label(n, index);
        if (!n.isObject()) {
            throw new ManifestException(file, entry, null, "must be a JSON object");
        }
        onlyFields(n, MODEL_FIELDS, entry);
        String name = name(n, entry);
        String family = family(n, entry, name);
        String module = file(n, "module", ".tla", family, entry);
        String cfg = file(n, "cfg", ".cfg", family, entry);
        String modeText = text(n, "mode", entry);
        ModelEntry.Mode mode = switch (modeText) {
            case "ci" -> ModelEntry.Mode.CI;
            case "deep" -> ModelEntry.Mode.DEEP;
            default -> throw new ManifestException(file, entry, "mode", "is \"" + modeText + "\"; it must be ci or deep");
        };
        String expect = text(n, "expect", entry);
        long distinct = number(n, "distinctStates", entry);
        long depth = number(n, "depth", entry);
        String why = text(n, "why", entry);
        boolean deadlock = false;
        if (n.has("checkDeadlock")) {
            if (!n.get("checkDeadlock").isBoolean()) {
                throw new ManifestException(file, entry, "checkDeadlock", "must be true or false");
            }
            deadlock = n.get("checkDeadlock").booleanValue();
        }
        ModelEntry.Simulate simulate = simulate(n, entry);
        if (simulate != null && !expect.equals("pass") && distinct != 0) {
            // TLC's count when a simulation stops at a violation is read while its worker runs: not
            // repeatable, so not recorded.
            throw new ManifestException(file, entry, "distinctStates", "must be 0 for a simulation that must"
                    + " find a violation (its depth is the violating behaviour's length), is " + distinct);
        }
        return new ModelEntry(name, family, module, cfg, mode, expect, distinct, (int) depth, why,
                deadlock || expect.equals("deadlock"), seconds(n, entry), simulate);
    }

    /** Optional: {"behaviours": N, "depth": D, "seed": S}, all three, N and D at least 1. */
    private ModelEntry.Simulate simulate(JsonNode n, String entry) {
        JsonNode v = n.get("simulate");
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isObject()) {
            throw new ManifestException(file, entry, "simulate",
                    "must be an object {\"behaviours\": N, \"depth\": D, \"seed\": S}, is " + v);
        }
        onlyFields(v, SIMULATE_FIELDS, entry + " simulate");
        long behaviours = number(v, "behaviours", entry + " simulate");
        long depth = number(v, "depth", entry + " simulate");
        long seed = number(v, "seed", entry + " simulate");
        if (behaviours < 1 || depth < 1 || depth > Integer.MAX_VALUE) {
            throw new ManifestException(file, entry, "simulate", "needs behaviours >= 1 and depth >= 1, has "
                    + behaviours + " behaviours of depth " + depth);
        }
        return new ModelEntry.Simulate(behaviours, (int) depth, seed);
    }

    private TraceEntry trace(JsonNode n, String index) {
        String entry = label(n, index);
        if (!n.isObject()) {
            throw new ManifestException(file, entry, null, "must be a JSON object");
        }
        onlyFields(n, TRACE_FIELDS, entry);
        String name = name(n, entry);
        String family = family(n, entry, name);
        String module = file(n, "module", ".tla", family, entry);
        String cfg = file(n, "cfg", ".cfg", family, entry);
        String kindText = text(n, "kind", entry);
        String why = text(n, "why", entry);
        if (kindText.equals("simulate")) {
            JsonNode seeds = n.get("seeds");
            if (seeds == null || !seeds.isArray() || seeds.isEmpty()) {
                throw new ManifestException(file, entry, "seeds", "a simulate trace needs a non-empty array of seeds");
            }
            List<Long> list = new ArrayList<>();
            for (JsonNode s : seeds) {
                if (!s.isIntegralNumber() || s.asLong() < 0 || list.contains(s.asLong())) {
                    throw new ManifestException(file, entry, "seeds", "seed " + s + " is not a distinct non-negative integer");
                }
                list.add(s.asLong());
            }
            long depth = number(n, "depth", entry);
            if (depth < 1) {
                throw new ManifestException(file, entry, "depth", "a simulation needs depth >= 1");
            }
            if (n.hasNonNull("trap")) {
                throw new ManifestException(file, entry, "trap", "only a targeted trace has a trap; use null");
            }
            return new TraceEntry(name, family, module, cfg, TraceEntry.Kind.SIMULATE, list, (int) depth, null, why,
                    seconds(n, entry));
        }
        if (kindText.equals("targeted")) {
            String trap = text(n, "trap", entry);
            for (String unused : List.of("seeds", "depth")) {
                JsonNode u = n.get(unused);
                if (u != null && !u.isNull() && !(u.isArray() && u.isEmpty())) {
                    throw new ManifestException(file, entry, unused, "a targeted trace is TLC's BFS counterexample;"
                            + " it has no " + unused + " (use null)");
                }
            }
            List<String> invariants = CfgFile.read(specs.resolve(cfg)).invariants();
            if (!invariants.equals(List.of(trap))) {
                throw new ManifestException(file, entry, "trap", "the cfg " + cfg + " must list exactly the trap "
                        + trap + " as INVARIANT, but lists " + invariants);
            }
            return new TraceEntry(name, family, module, cfg, TraceEntry.Kind.TARGETED, List.of(), 0, trap, why,
                    seconds(n, entry));
        }
        throw new ManifestException(file, entry, "kind", "is \"" + kindText + "\"; it must be simulate or targeted");
    }

    /** Optional: the measured wall seconds of the entry's run (ManifestSeconds writes it); null if never measured. */
    private Double seconds(JsonNode n, String entry) {
        JsonNode v = n.get("seconds");
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isNumber() || v.asDouble() < 0 || !Double.isFinite(v.asDouble())) {
            throw new ManifestException(file, entry, "seconds", "must be a non-negative number of seconds, is " + v);
        }
        return v.asDouble();
    }

    private String name(JsonNode n, String entry) {
        String name = text(n, "name", entry);
        if (!KEBAB.matcher(name).matches()) {
            throw new ManifestException(file, entry, "name", "\"" + name + "\" is not kebab-case");
        }
        return name;
    }

    private String family(JsonNode n, String entry, String name) {
        String family = text(n, "family", entry);
        if (!name.startsWith(family + "-") && !name.equals(family)) {
            throw new ManifestException(file, entry, "name", "\"" + name + "\" must start with its family \"" + family + "-\"");
        }
        if (!Files.isDirectory(specs.resolve(family))) {
            throw new ManifestException(file, entry, "family", "there is no folder specs/" + family);
        }
        return family;
    }

    /** A path relative to specs/, inside the family's folder, that exists. */
    private String file(JsonNode n, String field, String suffix, String family, String entry) {
        String path = text(n, field, entry);
        if (!path.endsWith(suffix)) {
            throw new ManifestException(file, entry, field, "\"" + path + "\" must end with " + suffix);
        }
        if (!path.startsWith(family + "/") || path.contains("..")) {
            throw new ManifestException(file, entry, field, "\"" + path + "\" must lie in the family folder " + family + "/");
        }
        if (!Files.isRegularFile(specs.resolve(path))) {
            throw new ManifestException(file, entry, field, "file specs/" + path + " does not exist");
        }
        return path;
    }

    private String text(JsonNode n, String field, String entry) {
        JsonNode v = n.get(field);
        if (v == null) {
            throw new ManifestException(file, entry, field, "is missing");
        }
        if (!v.isTextual() || v.asText().isBlank()) {
            throw new ManifestException(file, entry, field, "must be a non-empty string, is " + v);
        }
        return v.asText();
    }

    private long number(JsonNode n, String field, String entry) {
        JsonNode v = n.get(field);
        if (v == null) {
            throw new ManifestException(file, entry, field, "is missing");
        }
        if (!v.isIntegralNumber() || v.asLong() < 0) {
            throw new ManifestException(file, entry, field, "must be a non-negative integer, is " + v);
        }
        return v.asLong();
    }

    private JsonNode array(JsonNode n, String field, String entry) {
        JsonNode v = n.get(field);
        if (v == null) {
            throw new ManifestException(file, entry, field, "is missing");
        }
        if (!v.isArray()) {
            throw new ManifestException(file, entry, field, "must be an array");
        }
        return v;
    }

    private void onlyFields(JsonNode n, Set<String> allowed, String entry) {
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!allowed.contains(f)) {
                throw new ManifestException(file, entry, f, "is not a known field (known: "
                        + new java.util.TreeSet<>(allowed) + ")");
            }
        }
    }

    /** models[3] "scmp-resilient" when the entry has a name, else models[3]. */
    private static String label(JsonNode n, String index) {
        JsonNode name = n == null ? null : n.get("name");
        return name != null && name.isTextual() ? index + " \"" + name.asText() + "\"" : index;
    }
}
