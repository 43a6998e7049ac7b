package dev.onceproof.conformance.tlc;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Splits TLC's -tool output into messages. Messages nest (code 1000 wraps the real error, with the
 * inner STARTMSG in the middle of a line), so this keeps a stack; the outer message's text holds the
 * inner text without markers. Text outside every message is kept as {@link TlcMessage#FREE_TEXT}
 * runs, since SANY prints its parse errors and TLC its PrintT output there.
 */
public final class TlcOutputParser {

    private static final Pattern MARKER =
            Pattern.compile("@!@!@STARTMSG (\\d+):(\\d+) @!@!@|@!@!@ENDMSG (\\d+) @!@!@");

    private TlcOutputParser() {
    }

    public static List<TlcMessage> parse(List<String> lines) {
        List<TlcMessage> out = new ArrayList<>();
        Deque<Open> stack = new ArrayDeque<>();
        StringBuilder free = new StringBuilder();
        for (String line : lines) {
            Matcher m = MARKER.matcher(line);
            int from = 0;
            boolean sawMarker = false;
            while (m.find()) {
                sawMarker = true;
                append(stack, free, line.substring(from, m.start()), false);
                from = m.end();
                if (m.group(1) != null) {
                    if (stack.isEmpty()) {
                        flushFree(out, free);
                    }
                    stack.push(new Open(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2))));
                } else if (!stack.isEmpty()) {
                    Open o = stack.pop();
                    String text = stripTrailingNewline(o.text.toString());
                    out.add(new TlcMessage(o.code, o.severity, text));
                    if (!stack.isEmpty()) {
                        stack.peek().text.append(text);
                    }
                }
            }
            String rest = line.substring(from);
            // A marker line ends with the marker; only real text gets a line break.
            if (!sawMarker || !rest.isEmpty()) {
                append(stack, free, rest, true);
            }
        }
        flushFree(out, free);
        return out;
    }

    private static void append(Deque<Open> stack, StringBuilder free, String text, boolean newline) {
        StringBuilder target = stack.isEmpty() ? free : stack.peek().text;
        target.append(text);
        if (newline) {
            target.append('\n');
        }
    }

    private static void flushFree(List<TlcMessage> out, StringBuilder free) {
        String text = stripTrailingNewline(free.toString());
        if (!text.isBlank()) {
            out.add(new TlcMessage(TlcMessage.FREE_TEXT, 0, text));
        }
        free.setLength(0);
    }

    private static String stripTrailingNewline(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == '\n') {
            end--;
        }
        return s.substring(0, end);
    }

    private static final class Open {
        final int code;
        final int severity;
        final StringBuilder text = new StringBuilder();

        Open(int code, int severity) {
            this.code = code;
            this.severity = severity;
        }
    }
}
