package dev.onceproof.conformance.tla;

import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

/**
 * Parses the values TLC 2.18 prints in counterexamples, simulation trace files and PrintT output.
 * Recursive descent over the whole input; anything left over is an error, so a value TLC printed in
 * a shape we did not foresee fails loudly with its position instead of being half-read.
 */
public final class TlaParser {

    private final String in;
    private int pos;

    private TlaParser(String in) {
        this.in = in;
    }

    public static TlaValue parse(String text) {
        TlaParser p = new TlaParser(text);
        TlaValue v = p.value();
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("unexpected text after the value");
        }
        return v;
    }

    private TlaValue value() {
        skipSpace();
        if (pos >= in.length()) {
            throw error("expected a value, found the end of the input");
        }
        char c = in.charAt(pos);
        if (c == '"') {
            return new TlaValue.Str(string());
        }
        if (c == '-' || Character.isDigit(c)) {
            long n = integer();
            if (peek("..")) {
                pos += 2;
                skipSpace();
                long hi = integer();
                return interval(n, hi);
            }
            return new TlaValue.Int(n);
        }
        if (peek("<<")) {
            pos += 2;
            return new TlaValue.Seq(list(">>"));
        }
        if (c == '{') {
            pos++;
            return new TlaValue.Set(list("}"));
        }
        if (c == '[') {
            pos++;
            return record();
        }
        if (c == '(') {
            pos++;
            return parenthesized();
        }
        if (Character.isLetter(c) || c == '_') {
            String word = identifier();
            return switch (word) {
                case "TRUE" -> new TlaValue.Bool(true);
                case "FALSE" -> new TlaValue.Bool(false);
                default -> new TlaValue.ModelValue(word);
            };
        }
        throw error("unexpected character '" + c + "'");
    }

    private List<TlaValue> list(String close) {
        List<TlaValue> out = new ArrayList<>();
        skipSpace();
        if (peek(close)) {
            pos += close.length();
            return out;
        }
        while (true) {
            out.add(value());
            skipSpace();
            if (peek(close)) {
                pos += close.length();
                return out;
            }
            expect(",");
        }
    }

    private TlaValue record() {
        List<Map.Entry<String, TlaValue>> fields = new ArrayList<>();
        java.util.Set<String> seen = new HashSet<>();
        while (true) {
            skipSpace();
            int at = pos;
            String name = identifier();
            if (!seen.add(name)) {
                pos = at;
                throw error("record field " + name + " appears twice");
            }
            skipSpace();
            expect("|->");
            fields.add(new SimpleImmutableEntry<>(name, value()));
            skipSpace();
            if (peek("]")) {
                pos++;
                return new TlaValue.Record(fields);
            }
            expect(",");
        }
    }

    /** {@code (k :> v @@ k2 :> v2)}, or a value in parentheses. */
    private TlaValue parenthesized() {
        TlaValue first = value();
        skipSpace();
        if (peek(")")) {
            pos++;
            return first;
        }
        List<Map.Entry<TlaValue, TlaValue>> pairs = new ArrayList<>();
        TlaValue key = first;
        while (true) {
            expect(":>");
            pairs.add(new SimpleImmutableEntry<>(key, value()));
            skipSpace();
            if (peek(")")) {
                pos++;
                return new TlaValue.Function(pairs);
            }
            expect("@@");
            key = value();
            skipSpace();
        }
    }

    private String string() {
        int start = pos;
        pos++; // opening quote
        StringBuilder sb = new StringBuilder();
        while (pos < in.length()) {
            char c = in.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c == '\\') {
                if (pos >= in.length()) {
                    break;
                }
                char e = in.charAt(pos++);
                switch (e) {
                    case '"' -> sb.append('"');
                    case '\\' -> sb.append('\\');
                    case 'n' -> sb.append('\n');
                    case 't' -> sb.append('\t');
                    case 'r' -> sb.append('\r');
                    case 'f' -> sb.append('\f');
                    default -> {
                        pos -= 2;
                        throw error("unknown escape \\" + e + " in a string");
                    }
                }
            } else {
                sb.append(c);
            }
        }
        pos = start;
        throw error("string is not closed");
    }

    private long integer() {
        int start = pos;
        if (pos < in.length() && in.charAt(pos) == '-') {
            pos++;
        }
        int digits = pos;
        while (pos < in.length() && Character.isDigit(in.charAt(pos))) {
            pos++;
        }
        if (pos == digits) {
            pos = start;
            throw error("expected digits");
        }
        try {
            return Long.parseLong(in.substring(start, pos));
        } catch (NumberFormatException e) {
            pos = start;
            throw error("integer out of range");
        }
    }

    private TlaValue interval(long lo, long hi) {
        if (hi - lo > 100_000) {
            throw error("interval " + lo + ".." + hi + " is too large to expand");
        }
        List<TlaValue> out = new ArrayList<>();
        for (long i = lo; i <= hi; i++) {
            out.add(new TlaValue.Int(i));
        }
        return new TlaValue.Set(out);
    }

    private String identifier() {
        int start = pos;
        while (pos < in.length() && (Character.isLetterOrDigit(in.charAt(pos)) || in.charAt(pos) == '_')) {
            pos++;
        }
        if (pos == start) {
            throw error("expected an identifier");
        }
        return in.substring(start, pos);
    }

    private void expect(String token) {
        skipSpace();
        if (!peek(token)) {
            throw error("expected '" + token + "'");
        }
        pos += token.length();
    }

    private boolean peek(String token) {
        return in.startsWith(token, pos);
    }

    private void skipSpace() {
        while (pos < in.length() && Character.isWhitespace(in.charAt(pos))) {
            pos++;
        }
    }

    private TlaParseException error(String problem) {
        return new TlaParseException(in, pos, problem);
    }
}
