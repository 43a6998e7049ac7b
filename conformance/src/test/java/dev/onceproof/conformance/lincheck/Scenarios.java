package dev.onceproof.conformance.lincheck;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.Options;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;

/**
 * Targeted Lincheck scenarios, written as text so that each reads like the race it is about:
 * {@code {"before", "thread 1", "thread 2", "after"}}, each part a {@code ;}-separated list of
 * operations of the test class such as {@code receive(1, 2); tick()} (int arguments only).
 * They run besides Lincheck's random scenarios, in both modes: random scenarios over seven or more
 * operations seldom put the two racing steps of one safety argument in parallel (measured on the
 * filter's four reorderings with random scenarios only, 8 scenarios x 25 interleavings in model
 * checking and 8 x 500 runs in stress mode: none of the four was caught, in either mode).
 */
public final class Scenarios {

    private Scenarios() {
    }

    /** The options with every scenario added. */
    public static <O extends Options<O, ?>> O with(O options, Class<?> testClass, String[][] scenarios) {
        for (String[] s : scenarios) {
            options.addCustomScenario(parse(testClass, s));
        }
        return options;
    }

    static ExecutionScenario parse(Class<?> testClass, String[] parts) {
        if (parts.length != 4) {
            throw new IllegalArgumentException("a scenario has 4 parts (before, thread 1, thread 2, after), not "
                    + Arrays.toString(parts));
        }
        // A test class whose starting state is built on first use says so with a prelude() method.
        String before = Arrays.stream(testClass.getMethods()).anyMatch(m -> m.getName().equals("prelude"))
                ? "prelude(); " + parts[0] : parts[0];
        return new ExecutionScenario(actors(testClass, before),
                List.of(actors(testClass, parts[1]), actors(testClass, parts[2])), actors(testClass, parts[3]), null);
    }

    private static List<Actor> actors(Class<?> testClass, String text) {
        List<Actor> out = new ArrayList<>();
        for (String call : text.split(";")) {
            String c = call.strip();
            if (c.isEmpty()) {
                continue;
            }
            int open = c.indexOf('(');
            if (open < 0 || !c.endsWith(")")) {
                throw new IllegalArgumentException("not an operation call: \"" + c + "\"");
            }
            String name = c.substring(0, open);
            String inner = c.substring(open + 1, c.length() - 1).strip();
            List<Object> args = new ArrayList<>();
            if (!inner.isEmpty()) {
                for (String a : inner.split(",")) {
                    args.add(Integer.parseInt(a.strip()));
                }
            }
            out.add(new Actor(method(testClass, name, args.size()), args));
        }
        return out;
    }

    private static Method method(Class<?> testClass, String name, int arity) {
        return Arrays.stream(testClass.getMethods())
                .filter(m -> m.getName().equals(name) && m.getParameterCount() == arity).findFirst()
                .orElseThrow(() -> new IllegalArgumentException(testClass.getSimpleName() + " has no operation "
                        + name + " with " + arity + " arguments"));
    }
}
