package dev.onceproof.conformance.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.onceproof.conformance.manifest.Repo;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Every action of every exactly-once spec occurs in some stored trace of that spec (issue 9, item 4).
 * The trace generator only notes, per family, the actions no trace takes; this family has five specs
 * that share action names, so the check here is per spec: the header's {@code spec} against that
 * spec's {@code ActionNames} (found along its EXTENDS chain, as the generator finds it).
 */
class ExactlyOnceTraceCoverageTest {

    private static final String FAMILY = "exactlyonce";
    private static final Pattern ACTION_NAMES = Pattern.compile("(?ms)^ActionNames\\s*==\\s*\\{(.*?)\\}");
    /**
     * A spec that EXTENDS another and swaps some of its actions names its own set as
     * {@code XActionNames == (ActionNames \ {removed...}) \cup {added...}} (ExactlyOnceS4Deliver).
     */
    private static final Pattern DERIVED_ACTION_NAMES = Pattern.compile(
            "(?ms)^\\w+ActionNames\\s*==\\s*\\(\\s*ActionNames\\s*\\\\\\s*\\{(.*?)\\}\\s*\\)\\s*\\\\cup\\s*\\{(.*?)\\}");
    private static final Pattern QUOTED = Pattern.compile("\"(\\w+)\"");

    @TestFactory
    Stream<DynamicTest> everyActionOfEverySpecIsInAStoredTrace() throws IOException {
        Repo repo = Repo.locate();
        Map<String, Set<String>> taken = takenBySpec(repo.traces().resolve(FAMILY));
        assertThat(taken).as("stored traces under traces/" + FAMILY).isNotEmpty();
        return taken.entrySet().stream().map(e -> DynamicTest.dynamicTest(e.getKey(), () -> {
            Set<String> missing = new TreeSet<>(actionNames(repo, e.getKey()));
            missing.remove("Init");
            missing.removeAll(e.getValue());
            assertThat(missing).as("actions of " + e.getKey() + " that no stored trace takes").isEmpty();
        }));
    }

    /**
     * Every exactly-once spec the registry replays (Strategies 0-6) has stored traces, so the check
     * above covers it: a spec with none would be skipped silently.
     */
    @org.junit.jupiter.api.Test
    void everyReplayedExactlyOnceSpecHasStoredTraces() throws IOException {
        Repo repo = Repo.locate();
        Set<String> withTraces = takenBySpec(repo.traces().resolve(FAMILY)).keySet();
        Set<String> replayed = new TreeSet<>();
        for (String spec : dev.onceproof.conformance.replay.ReplayerRegistry.standard().specs().split(", ")) {
            if (spec.startsWith("ExactlyOnce")) {
                replayed.add(spec);
            }
        }
        assertThat(replayed).contains("ExactlyOnceS3", "ExactlyOnceS4");
        assertThat(withTraces).as("specs with stored traces under traces/" + FAMILY).containsAll(replayed);
    }

    /** Spec (from each header) to the actions its traces take. */
    private static Map<String, Set<String>> takenBySpec(Path dir) throws IOException {
        ObjectMapper json = new ObjectMapper();
        Map<String, Set<String>> out = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".jsonl")).sorted().collect(Collectors.toList());
        }
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f);
            String spec = json.readTree(lines.get(0)).get("spec").asText();
            Set<String> actions = out.computeIfAbsent(spec, k -> new TreeSet<>());
            for (String line : lines.subList(2, lines.size())) {
                JsonNode step = json.readTree(line);
                actions.add(step.get("action").asText());
            }
        }
        return out;
    }

    private static Set<String> actionNames(Repo repo, String spec) throws IOException {
        Path familyDir = repo.familyDir(FAMILY);
        Set<String> removed = new TreeSet<>();
        Set<String> added = new TreeSet<>();
        for (Path module : SpecName.chain(familyDir, familyDir.resolve(spec + ".tla"))) {
            String text = Files.readString(module);
            Matcher d = DERIVED_ACTION_NAMES.matcher(text);
            if (d.find() && removed.isEmpty() && added.isEmpty()) {
                removed.addAll(quoted(d.group(1)));
                added.addAll(quoted(d.group(2)));
            }
            Matcher m = ACTION_NAMES.matcher(text);
            if (m.find()) {
                Set<String> names = quoted(m.group(1));
                names.removeAll(removed);
                names.addAll(added);
                return names;
            }
        }
        throw new AssertionError("spec " + spec + " has no ActionNames along its EXTENDS chain in " + familyDir);
    }

    private static Set<String> quoted(String setBody) {
        Set<String> names = new TreeSet<>();
        Matcher q = QUOTED.matcher(setBody);
        while (q.find()) {
            names.add(q.group(1));
        }
        return names;
    }
}
