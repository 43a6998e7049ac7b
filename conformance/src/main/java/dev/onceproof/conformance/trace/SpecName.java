package dev.onceproof.conformance.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The spec a model module checks, which is what the replayer dispatches on: follow EXTENDS from the
 * model through the family's MC* modules to the first module of the family that is not a model
 * (MCScmpTrace -> MCScmp -> SCMP). A module that extends nothing of its family is its own spec.
 */
public final class SpecName {

    private static final Pattern EXTENDS = Pattern.compile("(?m)^\\s*EXTENDS\\s+([^\\n]+)");

    private SpecName() {
    }

    public static String of(Path familyDir, Path module) {
        String name = stem(module);
        for (int hops = 0; hops < 20; hops++) {
            if (!name.startsWith("MC")) {
                return name;
            }
            String next = extendedInFamily(familyDir, familyDir.resolve(name + ".tla"));
            if (next == null) {
                return name;
            }
            name = next;
        }
        throw new IllegalArgumentException("EXTENDS from " + module + " does not reach a spec within 20 modules");
    }

    /** The model and every family module it reaches by EXTENDS, model first. */
    public static java.util.List<Path> chain(Path familyDir, Path module) {
        java.util.List<Path> out = new java.util.ArrayList<>();
        Path m = module;
        for (int hops = 0; hops < 20 && m != null; hops++) {
            out.add(m);
            String next = extendedInFamily(familyDir, m);
            m = next == null ? null : familyDir.resolve(next + ".tla");
        }
        return out;
    }

    private static String extendedInFamily(Path familyDir, Path module) {
        String text;
        try {
            text = Files.readString(module);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + module, e);
        }
        text = text.replaceAll("\\\\\\*[^\\n]*", "").replaceAll("(?s)\\(\\*.*?\\*\\)", "");
        Matcher m = EXTENDS.matcher(text);
        if (!m.find()) {
            return null;
        }
        for (String ext : m.group(1).split(",")) {
            String e = ext.strip();
            if (!e.isEmpty() && Files.isRegularFile(familyDir.resolve(e + ".tla"))) {
                return e;
            }
        }
        return null;
    }

    private static String stem(Path module) {
        String f = module.getFileName().toString();
        return f.endsWith(".tla") ? f.substring(0, f.length() - 4) : f;
    }
}
