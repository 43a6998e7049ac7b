package dev.onceproof.conformance.manifest;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Whether a cfg's PROPERTY needs TLC's liveness checking, read from the family's modules.
 *
 * <p>TLC sorts each property before it checks: a state predicate, {@code []P} of one and
 * {@code [][A]_v} are checked state by state and step by step, as invariants are; only what uses
 * {@code <>}, {@code ~>}, fairness, {@code ENABLED} or temporal quantifiers goes through the
 * liveness tableau, whose cost does not follow the states the manifest counts (causal-live-crash,
 * 512 states, took 40 s). So a model whose properties are all of the first kind is as cheap to
 * start with the client compiler, in-process, as a model with invariants only
 * ({@link ModelExpectation#smallModelCfgs}).
 *
 * <p>The reading is textual and errs one way: a property is temporal if any definition of a name it
 * reaches, in any module of the family (mutants included; a name defined in two modules counts as
 * the union of both), holds one of those operators. A misreading can only send a cheap model the
 * slow way (forked, both compilers), never change a result: which compiler runs TLC decides
 * nothing TLC reports.
 */
final class TemporalProperties {

    /** A definition's head at the start of a line: {@code [LOCAL] Name [(params)] ==}. */
    private static final Pattern DEFINITION = Pattern.compile(
            "(?m)^[ \\t]*(?:LOCAL[ \\t]+)?([A-Za-z_][A-Za-z0-9_]*)[ \\t]*(?:\\([^)\\n]*\\))?[ \\t]*==(?!=)");
    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** Temporal operators; {@code <>} only where it is not part of a tuple's {@code <<} or {@code >>}. */
    private static final Pattern TEMPORAL = Pattern.compile("~>|\\bWF_|\\bSF_|\\bENABLED\\b|\\\\EE|\\\\AA|-\\+->|(?<!<)<>(?!>)");

    private final Map<String, List<String>> bodies = new HashMap<>();
    private final Map<String, Boolean> memo = new HashMap<>();

    private TemporalProperties(Path familyDir) {
        try (Stream<Path> files = Files.walk(familyDir)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".tla")).toList()) {
                read(Files.readString(f));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the modules of " + familyDir, e);
        }
    }

    /** The reader of one family's modules (every {@code .tla} under {@code familyDir}). */
    static TemporalProperties of(Path familyDir) {
        return new TemporalProperties(familyDir);
    }

    /** Whether checking {@code property} needs the liveness tableau, by the reading above. */
    boolean temporal(String property) {
        return reaches(property, new HashSet<>());
    }

    private void read(String module) {
        String text = module.replaceAll("\\(\\*(?s:.*?)\\*\\)", " ").replaceAll("\\\\\\*[^\\n]*", "");
        int end = text.indexOf("\n====");
        if (end >= 0) {
            text = text.substring(0, end);
        }
        Matcher m = DEFINITION.matcher(text);
        List<int[]> heads = new ArrayList<>();
        List<String> names = new ArrayList<>();
        while (m.find()) {
            heads.add(new int[] {m.start(), m.end()});
            names.add(m.group(1));
        }
        for (int i = 0; i < heads.size(); i++) {
            int to = i + 1 < heads.size() ? heads.get(i + 1)[0] : text.length();
            bodies.computeIfAbsent(names.get(i), k -> new ArrayList<>()).add(text.substring(heads.get(i)[1], to));
        }
    }

    private boolean reaches(String name, Set<String> visiting) {
        Boolean known = memo.get(name);
        if (known != null) {
            return known;
        }
        if (!visiting.add(name)) {
            return false; // a recursive definition: its other parts decide
        }
        boolean temporal = false;
        for (String body : bodies.getOrDefault(name, List.of())) {
            if (TEMPORAL.matcher(body).find()) {
                temporal = true;
                break;
            }
            Matcher id = IDENTIFIER.matcher(body);
            while (!temporal && id.find()) {
                String used = id.group();
                if (bodies.containsKey(used) && reaches(used, visiting)) {
                    temporal = true;
                }
            }
            if (temporal) {
                break;
            }
        }
        visiting.remove(name);
        memo.put(name, temporal);
        return temporal;
    }
}
