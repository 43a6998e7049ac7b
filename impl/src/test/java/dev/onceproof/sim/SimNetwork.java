package dev.onceproof.sim;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The simulated network of every test world (ScmpWorld, the causal Group, EoWorld, GatherWorld):
 * the messages in flight, oldest first, each with the time it was sent. A world's seeded schedule
 * (jqwik's, or a hand-made one) chooses each step by an index into them, so one schedule replays
 * the same run:
 * <ul>
 *   <li>reordering: any message in flight may be delivered next ({@link #take});</li>
 *   <li>loss: {@link #lose};</li>
 *   <li>duplication: a delivery that leaves its copy in place ({@link #take} with {@code keepCopy}),
 *       or a second copy sent after the others ({@link #duplicate});</li>
 *   <li>the lifetime bound T_e (SCMP 3.2, the exactly-once papers' T_e), read as the timed specs read
 *       it (ExactlyOnceS0MsgTimed's, ExactlyOnceS2Timed's and ExactlyOnceS3Timed's Tick keep a message
 *       while {@code now - sent < Te}): a message lives fewer than {@code lifetime} ticks, and
 *       {@link #expire} drops it at age {@code lifetime}, so no schedule delivers a message that old
 *       (a world whose cores may see a message of age T_e passes {@code T_e + 1});</li>
 *   <li>partitions: a message between two nodes that are {@link #cut} is dropped when it would be
 *       delivered ({@link #take} gives nothing), as a link that is down loses what it carries.</li>
 * </ul>
 * An index is taken modulo the number of messages in flight, so any int a generator draws is a
 * valid choice. Not thread-safe: a world is one thread.
 *
 * @param <M> a message; {@code ends} names its sender and receiver for partitions
 */
public final class SimNetwork<M> {

    /** A message's sender and receiver, by node name (for {@link #cut}). */
    public record Ends(String from, String to) {
        public Ends {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
        }
    }

    private record InFlight<M>(M message, long born) {
    }

    /** No lifetime bound: nothing expires. */
    public static final long FOREVER = Long.MAX_VALUE;

    private final long lifetime;
    private final Function<? super M, Ends> ends;
    private final List<InFlight<M>> flight = new ArrayList<>();
    /** Unordered pairs of nodes that cannot talk, as "a|b" with a before b. */
    private final Set<String> cuts = new HashSet<>();
    private String isolated;
    /** Ghost: the latest time {@link #send} or {@link #expire} was told, and the oldest age taken at it. */
    private long latest = Long.MIN_VALUE;
    private long oldestTaken = -1;

    /**
     * A network whose messages live fewer than {@code lifetime} time units, gone once they are that
     * old ({@link #FOREVER} for no bound), with {@code ends} naming a message's two nodes (null: a
     * world without partitions). With a lifetime of 1 no message lives across a tick.
     */
    public SimNetwork(long lifetime, Function<? super M, Ends> ends) {
        if (lifetime < 0) {
            throw new IllegalArgumentException("lifetime " + lifetime + " is negative");
        }
        this.lifetime = lifetime;
        this.ends = ends;
    }

    /** A network without a lifetime bound or partitions. */
    public static <M> SimNetwork<M> plain() {
        return new SimNetwork<>(FOREVER, null);
    }

    /** Sends {@code m} at time {@code now}: it joins the messages in flight, the newest. */
    public void send(M m, long now) {
        flight.add(new InFlight<>(Objects.requireNonNull(m, "message"), now));
        latest = Math.max(latest, now);
    }

    public void sendAll(Collection<? extends M> ms, long now) {
        for (M m : ms) {
            send(m, now);
        }
    }

    public boolean isEmpty() {
        return flight.isEmpty();
    }

    public int size() {
        return flight.size();
    }

    /** The messages in flight, oldest first (the order the indices count in). */
    public List<M> messages() {
        return flight.stream().map(InFlight::message).toList();
    }

    /** The message at {@code index} (modulo the number in flight), left in flight. */
    public M peek(int index) {
        return flight.get(at(index)).message();
    }

    private int at(int index) {
        if (flight.isEmpty()) {
            throw new IllegalStateException("no message in flight");
        }
        return Math.floorMod(index, flight.size());
    }

    /**
     * Takes the message at {@code index} (modulo the number in flight) for delivery: removed, or,
     * with {@code keepCopy}, delivered while a copy stays where it was. Empty when nothing is in
     * flight or when its two nodes are cut off from each other (then it is lost, copy or not).
     */
    public Optional<M> take(int index, boolean keepCopy) {
        if (flight.isEmpty()) {
            return Optional.empty();
        }
        int i = at(index);
        oldestTaken = Math.max(oldestTaken, latest - flight.get(i).born());
        M m = keepCopy ? flight.get(i).message() : flight.remove(i).message();
        return isCut(m) ? Optional.empty() : Optional.of(m);
    }

    /** Takes the oldest message {@code which} picks, if any (a hand-made schedule's step). */
    public Optional<M> takeFirst(Predicate<? super M> which) {
        OptionalInt i = first(which);
        return i.isPresent() ? take(i.getAsInt(), false) : Optional.empty();
    }

    /** The index of the oldest message {@code which} picks. */
    public OptionalInt first(Predicate<? super M> which) {
        for (int i = 0; i < flight.size(); i++) {
            if (which.test(flight.get(i).message())) {
                return OptionalInt.of(i);
            }
        }
        return OptionalInt.empty();
    }

    /** The index of the newest message, sent last (-1, which {@link #take} wraps to it, as any negative does). */
    public int newest() {
        return flight.size() - 1;
    }

    /** Loses the message at {@code index} (modulo the number in flight); nothing when none is in flight. */
    public void lose(int index) {
        if (!flight.isEmpty()) {
            flight.remove(at(index));
        }
    }

    /** Loses the message itself (the first copy of it in flight), if it is in flight. */
    public boolean remove(M m) {
        OptionalInt i = first(x -> x.equals(m));
        i.ifPresent(flight::remove);
        return i.isPresent();
    }

    /** Every message in flight is lost. */
    public void clear() {
        flight.clear();
    }

    /** A second copy of the message at {@code index}, sent after every other (same send time). */
    public void duplicate(int index) {
        if (!flight.isEmpty()) {
            flight.add(flight.get(at(index)));
        }
    }

    /**
     * Time is {@code now}: what has been in flight for {@code lifetime} ticks or more is gone (the
     * specs' Tick keeps a message while {@code now - sent < Te}; S2Server counts a number settled at
     * its issue + T_e on that reading, so a replica of age T_e must not arrive).
     */
    public void expire(long now) {
        latest = Math.max(latest, now);
        if (lifetime != FOREVER) {
            flight.removeIf(f -> now - f.born() >= lifetime);
        }
    }

    /**
     * Ghost, for the lifetime's controls: the greatest age (the latest time this network was told,
     * by {@link #send} or {@link #expire}, minus the send time) of a message taken for delivery, -1
     * before any. A world that ticks through {@link #expire} keeps it below the lifetime.
     */
    public long oldestTaken() {
        return oldestTaken;
    }

    /** Nodes {@code a} and {@code b} cannot talk, both ways, until {@link #heal}. */
    public void cut(String a, String b) {
        requireEnds();
        cuts.add(pair(a, b));
    }

    /** Node {@code n} cannot talk to any other; {@link #heal} does not undo it (a partition for good). */
    public void isolate(String n) {
        requireEnds();
        isolated = Objects.requireNonNull(n, "node");
    }

    /** Every cut is mended (an isolated node stays isolated). */
    public void heal() {
        cuts.clear();
    }

    /** True when {@code a} and {@code b} cannot talk now. */
    public boolean isCut(String a, String b) {
        return a.equals(isolated) || b.equals(isolated) || cuts.contains(pair(a, b));
    }

    private boolean isCut(M m) {
        if (ends == null) {
            return false;
        }
        Ends e = ends.apply(m);
        return e != null && isCut(e.from(), e.to());
    }

    private void requireEnds() {
        if (ends == null) {
            throw new IllegalStateException("this network was made without a message's ends: it has no partitions");
        }
    }

    private static String pair(String a, String b) {
        return a.compareTo(b) < 0 ? a + "|" + b : b + "|" + a;
    }

    @Override
    public String toString() {
        return messages().toString();
    }
}
