package dev.onceproof.conformance.lincheck.exactlyonce;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.annotations.Validate;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.kotlinx.lincheck.strategy.managed.ManagedStrategyGuarantee;
import org.jetbrains.kotlinx.lincheck.strategy.managed.ManagedStrategyGuaranteeKt;

/**
 * What the Strategy 4-6 Lincheck suites add to Lincheck's random scenarios: targeted scenarios,
 * written as text ({@code "before | thread 1 | thread 2 | ... | after"}, each part a {@code ;}-list
 * of argument-less operations), and the model-checking guarantee that the sequential cores run
 * atomically.
 *
 * <p>The guarantee loses no behaviour: {@link dev.onceproof.exactlyonce.ConcurrentGatherServer}
 * calls its core only under its monitor, and the world calls the client core only under the
 * client's, so no other thread can run between two steps of a core method anyway. What it removes
 * is the core's own memory accesses (tree maps, sets) as switch points, which model checking would
 * otherwise spend its interleavings on: the wrapper's lock, its wait and the unlocked aDeliver
 * call stay switch points, and they are what the tests are about.
 */
final class GatherScenarios {

    /** The sequential cores and their value types (all called under a monitor). */
    static final String CORE_PACKAGE = "dev.onceproof.exactlyonce.";

    private GatherScenarios() {
    }

    /**
     * Top-level classes of the exactly-once package other than the concurrent wrappers (the one
     * wrapper {@code ConcurrentServer} and its subclasses, whose lock, wait and hand-off are what
     * the tests are about) run atomically. Lincheck 2.39 matches the canonical name of the receiver's class (so a GatherServer
     * method called on an S4Server is S4Server's); nested types (the EoMessage records) and static
     * calls keep their switch points, which costs interleavings but no behaviour.
     */
    static ManagedStrategyGuarantee coresAtomic() {
        return ManagedStrategyGuaranteeKt.forClasses(GatherScenarios::isCore).allMethods().treatAsAtomic();
    }

    private static Boolean isCore(String className) {
        if (!className.startsWith(CORE_PACKAGE)) {
            return false;
        }
        String simple = className.substring(CORE_PACKAGE.length());
        return !simple.contains(".") && !simple.startsWith("Concurrent");
    }

    /** {@code "visitA | deliverA | visitB; deliverB | "}: before, the threads, after. */
    static ExecutionScenario parse(Class<?> testClass, String text) {
        String[] parts = text.split("\\|", -1);
        if (parts.length < 3) {
            throw new IllegalArgumentException("a scenario is \"before | thread 1 | ... | after\", not \"" + text + "\"");
        }
        List<List<Actor>> threads = new ArrayList<>();
        for (int t = 1; t < parts.length - 1; t++) {
            threads.add(actors(testClass, parts[t]));
        }
        // Lincheck adds the @Validate function to the scenarios it generates only; a custom one names it.
        Method validate = Arrays.stream(testClass.getMethods()).filter(m -> m.isAnnotationPresent(Validate.class))
                .findFirst().orElseThrow(() -> new IllegalArgumentException(testClass.getSimpleName()
                        + " has no @Validate function"));
        return new ExecutionScenario(actors(testClass, parts[0]), threads, actors(testClass, parts[parts.length - 1]),
                new Actor(validate, List.of()));
    }

    private static List<Actor> actors(Class<?> testClass, String text) {
        List<Actor> out = new ArrayList<>();
        for (String call : text.split(";")) {
            String name = call.strip();
            if (!name.isEmpty()) {
                out.add(new Actor(method(testClass, name), List.of()));
            }
        }
        return out;
    }

    private static Method method(Class<?> testClass, String name) {
        return Arrays.stream(testClass.getMethods())
                .filter(m -> m.getName().equals(name) && m.getParameterCount() == 0).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(testClass.getSimpleName() + " has no operation " + name));
    }
}
