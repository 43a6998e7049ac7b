package dev.onceproof.conformance.tlc;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The few facts this tool reads from a TLC .cfg file: the constants it assigns, its invariants and
 * its properties. Not a full cfg parser; TLC itself rejects a malformed cfg when it runs.
 */
public record CfgFile(List<String> constants, List<String> invariants, List<String> properties) {

    private static final Set<String> KEYWORDS = Set.of("CONSTANT", "CONSTANTS", "INIT", "NEXT",
            "SPECIFICATION", "INVARIANT", "INVARIANTS", "PROPERTY", "PROPERTIES", "VIEW", "SYMMETRY",
            "CONSTRAINT", "CONSTRAINTS", "ACTION_CONSTRAINT", "ACTION_CONSTRAINTS", "CHECK_DEADLOCK",
            "POSTCONDITION", "ALIAS", "TYPE", "TYPE_CONSTRAINT");
    private static final Pattern TOKEN = Pattern.compile("<-|[A-Za-z_][A-Za-z0-9_!]*|\\S");

    public static CfgFile read(Path cfg) {
        try {
            return parse(Files.readString(cfg));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + cfg, e);
        }
    }

    public static CfgFile parse(String text) {
        String noComments = text.replaceAll("(?s)\\(\\*.*?\\*\\)", " ").replaceAll("\\\\\\*[^\n]*", " ");
        List<String> tokens = new ArrayList<>();
        Matcher m = TOKEN.matcher(noComments);
        while (m.find()) {
            tokens.add(m.group());
        }
        List<String> constants = new ArrayList<>();
        List<String> invariants = new ArrayList<>();
        List<String> properties = new ArrayList<>();
        String section = "";
        for (int i = 0; i < tokens.size(); i++) {
            String t = tokens.get(i);
            if (KEYWORDS.contains(t)) {
                section = t;
                continue;
            }
            boolean name = Character.isLetter(t.charAt(0)) || t.charAt(0) == '_';
            switch (section) {
                case "CONSTANT", "CONSTANTS" -> {
                    String next = i + 1 < tokens.size() ? tokens.get(i + 1) : "";
                    // A constant is the identifier left of "=" or "<-"; values are skipped.
                    boolean prevIsAssign = i > 0 && (tokens.get(i - 1).equals("=") || tokens.get(i - 1).equals("<-"));
                    if (name && !prevIsAssign && (next.equals("=") || next.equals("<-"))) {
                        constants.add(t);
                    }
                }
                case "INVARIANT", "INVARIANTS" -> {
                    if (name) {
                        invariants.add(t);
                    }
                }
                case "PROPERTY", "PROPERTIES" -> {
                    if (name) {
                        properties.add(t);
                    }
                }
                default -> { }
            }
        }
        return new CfgFile(List.copyOf(constants), List.copyOf(invariants), List.copyOf(properties));
    }
}
