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

    /**
     * The cores' clock in a timed run that writes step logs (Strategy 5, issue 21): the machine's
     * clock in units of {@code unit} ms since the run's {@code epoch}, read by floor, plus this
     * server's fixed {@code offset} (0 for the client). Every process reads the same system clock,
     * so these offsets are the only skew there is, and they are the spec's ClockOffset exactly. The
     * unit is coarse (10 ms) so that the validator's Tick steps, one per unit, stay few.
     *
     * <p>A step reads the clock once: {@link #pin} at the step's start (after its inputs arrived),
     * held until {@link #unpin}, so every reading the core takes in the step, and the step's line,
     * carry one value. That is what lets the validator merge the processes' lines by (reading, then
     * the microsecond they were written) in an order consistent with happens-before.
     */
    static final class UnitClock {
        private final Clock ms = new Clock();
        private final long epoch;
        private final long unit;
        private final long offset;
        private long pinned = -1;

        UnitClock(long epoch, long unit, long offset) {
            if (unit < 1 || offset < 0) {
                throw new IllegalArgumentException("--unit " + unit + " --offset " + offset + ": need unit >= 1, offset >= 0");
            }
            this.epoch = epoch;
            this.unit = unit;
            this.offset = offset;
        }

        /** True time (no offset) in units: the spec's {@code now}. */
        long live() {
            return Math.floorDiv(Math.max(0, ms.now() - epoch), unit);
        }

        /** The core's clock: the pinned (else live) true time plus this process's offset. */
        synchronized long now() {
            return (pinned >= 0 ? pinned : live()) + offset;
        }

        /** Reads true time once for the step that begins now and holds it; returns it. */
        synchronized long pin() {
            pinned = live();
            return pinned;
        }

        synchronized long pinned() {
            return pinned >= 0 ? pinned : live();
        }

        synchronized void unpin() {
            pinned = -1;
        }

        long unit() {
            return unit;
        }
    }

    /** {@code A:0,B:1,C:2}: each server's clock offset in units (not negative). */
    static Map<String, Long> offsets(String csv) {
        Map<String, Long> out = new TreeMap<>();
        for (String pair : csv.split(",")) {
            String[] kv = pair.split(":");
            long o;
            try {
                o = kv.length == 2 ? Long.parseLong(kv[1]) : -1;
            } catch (NumberFormatException e) {
                o = -1;
            }
            if (o < 0) {
                throw new IllegalArgumentException("--offsets " + csv + ": \"" + pair + "\" is not server:offset >= 0");
            }
            out.put(kv[0], o);
        }
        return out;
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
