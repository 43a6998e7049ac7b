package dev.onceproof.exactlyonce;

import java.util.Optional;

/**
 * The one step interface of an exactly-once server, for one client, whatever the strategy: what a
 * runtime, a test world or a simulation drives. One method per kind of input: a message arrives
 * ({@link #receive}), or a local event happens (a note is created, the client connects, the
 * session loop wants its next delivery, a timer fires, a sync is due, aDeliver returns). Every
 * step returns the one {@link ServerStep}, whose effects are carried out in its order.
 *
 * <p>The spec-named steps stay on the strategy classes ({@link ServerCore} for Strategies 0-3,
 * {@link GatherServer} for 4-6), where trace replay calls them by the action's name; the methods
 * here route to them. A strategy that has no such step refuses it with
 * {@link UnsupportedOperationException} naming the strategy and the step (never a silent no-op):
 * a runtime that sends a NoteAck to a Strategy 4 server is broken, not unlucky.
 */
public interface EoServer {

    /** Which strategy this core runs. */
    Strategy strategy();

    /**
     * The spec's {@code CreateNote}: a new note for the client at this server, replicated to the
     * others. {@code id} is the caller's name for it where the strategy needs globally unique ids
     * (Strategies 0 and 3-6); empty for Strategies 1-2, which number their stream themselves. Outcome
     * {@code "blocked"} (no change) while Strategy 2's Condition 1 forbids the next number.
     *
     * @throws IllegalArgumentException an id where the strategy numbers notes, none where it needs one,
     *     or an id that already exists
     */
    ServerStep createNote(Optional<NoteId> id, String body);

    /**
     * A message from a peer server or from the client: a replica, an acknowledgement, a sync
     * request or reply, a purge acknowledgement (Strategy 3), a request or reply for D, a sync of D
     * (Strategies 4-6: merged and purged, {@code recvPeerSync}), the client's history upload (Strategy 6's
     * StartSession).
     *
     * @throws UnsupportedOperationException a message this strategy's server never receives
     * @throws InvalidMessageException the message is malformed or not for this core (nothing changes)
     */
    ServerStep receive(EoMessage m);

    /** The spec's {@code StartSession(s)}: the client connected (Strategy 6: see {@link #receive}). */
    ServerStep startSession();

    /**
     * The session loop's next delivery: Strategies 0-3 send the next note ({@code SendNote}),
     * 4-6 start the next aDeliver call of the delivery phase. "idle" when nothing is left.
     */
    ServerStep deliverNext();

    /**
     * A timer fired: Strategies 0-3, the outstanding Deliver failed ({@code Timeout}); 4-6, a
     * stale server did not reply in time ({@code GatherFail}). Either way the session aborts.
     */
    ServerStep timeout();

    /** The session ends without a failure (the client went away; the runtime noticed). */
    ServerStep endSession();

    /**
     * A synchronization is due: Strategies 0-3 start a sync round ({@code startSync}); 4 syncs its
     * K and D to every peer; 5 its periodic sync ({@code PeriodicSync}), 6 its push sync
     * ({@code PushSync}).
     */
    ServerStep sync();

    /**
     * Strategy 3's {@code Authorize(s, i)} for the first note that may be purged ("none" if none).
     *
     * @throws UnsupportedOperationException any other strategy
     */
    ServerStep authorize();

    /**
     * Strategies 4-6: aDeliver returned success for the call of session {@code session} for
     * {@code i} ({@code ADeliverOK}).
     *
     * @throws UnsupportedOperationException Strategies 0-3
     */
    ServerStep aDeliverOk(long session, NoteId i);

    /**
     * Strategies 4-6: aDeliver returned an error ({@code ADeliverErr}).
     *
     * @throws UnsupportedOperationException Strategies 0-3
     */
    ServerStep aDeliverErr(long session, NoteId i);

    /** The spec's {@code ServerCrash(s)}: volatile state is lost, the durable state stays. */
    void crash();

    /** What this core keeps on stable storage now. */
    DurableState durable();

    /** {@code sess[s].pending}: the note whose delivery is outstanding, if any. */
    Optional<NoteId> pending();

    /** The caller's id of a new note, for a strategy that names notes by it (not 1-2), or an error. */
    static NoteId named(Strategy strategy, Optional<NoteId> id) {
        return id.orElseThrow(() -> new IllegalArgumentException(strategy
                + " needs the caller's globally unique id for a note"));
    }

    /** The refusal of a step {@code strategy} does not have, naming both and why. */
    static UnsupportedOperationException noStep(Strategy strategy, String step, String why) {
        return new UnsupportedOperationException(strategy + "'s server has no step " + step + ": " + why);
    }
}
