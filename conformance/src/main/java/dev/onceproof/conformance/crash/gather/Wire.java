package dev.onceproof.conformance.crash.gather;

import dev.onceproof.exactlyonce.ClientId;
import dev.onceproof.exactlyonce.EoMessage;
import dev.onceproof.exactlyonce.InvalidMessageException;
import dev.onceproof.exactlyonce.ServerId;
import dev.onceproof.exactlyonce.Strategy;
import dev.onceproof.exactlyonce.wire.EoWire;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What the crash test's processes share: the names, a message on a text line ({@link EoWire}'s
 * bytes in base64, so a message is one line of a pipe), the monotonic clock, and flag parsing.
 */
final class Wire {

    static final ClientId CLIENT = ClientId.of("c");

    private Wire() {
    }

    static String encode(EoMessage m) {
        return Base64.getEncoder().encodeToString(EoWire.encode(m));
    }

    /** Decodes a line's message; bad base64 or a bad frame is an {@link InvalidMessageException}. */
    static EoMessage decode(String b64) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(b64);
        } catch (IllegalArgumentException e) {
            throw new InvalidMessageException("line", "not base64: " + e.getMessage());
        }
        return EoWire.decode(bytes);
    }

    static SortedSet<ServerId> servers(String csv) {
        TreeSet<ServerId> out = new TreeSet<>();
        for (String s : csv.split(",")) {
            out.add(ServerId.of(s));
        }
        return out;
    }

    /**
     * The machine's wall clock in milliseconds, never decreasing within a process (an {@code EoClock}
     * must not go back). Every process of the test runs on the same machine, so their clocks agree
     * to within what a skew of a few milliseconds covers.
     */
    static final class Clock {
        private long last;

        synchronized long now() {
            last = Math.max(last, System.currentTimeMillis());
            return last;
        }
    }

    /** {@code --name value} pairs; an unknown or valueless flag is refused, naming it. */
    static Map<String, String> flags(String[] args, List<String> known) {
        TreeMap<String, String> out = new TreeMap<>();
        for (int i = 0; i < args.length; i += 2) {
            if (!known.contains(args[i])) {
                throw new IllegalArgumentException("unknown flag " + args[i] + " (known: " + known + ")");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            out.put(args[i], args[i + 1]);
        }
        return out;
    }

    /** The {@code --strategy} flag's value: 4, 5 or 6, else an error naming it. */
    static Strategy gatherStrategy(String flag) {
        Strategy s;
        try {
            s = Strategy.of(Integer.parseInt(flag));
        } catch (IllegalArgumentException e) {
            s = null;
        }
        if (s == null || !s.gathers()) {
            throw new IllegalArgumentException("--strategy " + flag + ": 4, 5 or 6");
        }
        return s;
    }

    static String need(Map<String, String> flags, String name) {
        String v = flags.get(name);
        if (v == null) {
            throw new IllegalArgumentException("missing " + name);
        }
        return v;
    }
}
