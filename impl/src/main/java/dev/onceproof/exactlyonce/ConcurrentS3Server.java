package dev.onceproof.exactlyonce;

import dev.onceproof.exactlyonce.store.ServerStore;
import java.util.Objects;
import java.util.SortedSet;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The Strategy 3 server state one server keeps for one client, shared by the client's session
 * thread (HandleClient) and the threads that run synchronization rounds and their handler
 * (ServerSynch, App. A.4). Every step runs the sequential {@link S3Server} under one lock and
 * appends the step's operations to the store's journal there (so the journal's order is the
 * core's); it commits outside the lock (group commit: no other step waits for its fsync), before
 * anything leaves (ordering rule of {@link ServerStep}); it hands messages for the client to the
 * {@link ClientChannel} while still holding the lock, after a commit there (see {@code locked}).
 *
 * <p>That last point is the fix of race R3 (notes Z5): choosing a note ({@code i in K - D}) and
 * handing it to the client are one critical section, and so are authorizing a purge and handing
 * over "Please purge i". A purge can therefore never slip between the check and the send, and the
 * client sees notes and purge requests in the order the server decided them (FIFO channel). The
 * printed pseudo-code's race is reachable through the core's {@link S3Variant#PRINTED} seam, and
 * this class's own safeguard can be moved "one line later" through the {@link Handoff} seam.
 */
public final class ConcurrentS3Server implements EoServer {

    /**
     * The session's ordered channel to the client (a connection's send queue). Called under the
     * server's lock, so it must only enqueue, never block on the network.
     */
    @FunctionalInterface
    public interface ClientChannel {
        void send(EoMessage message);
    }

    /**
     * Mutation seam: where a chosen note or purge request is handed to the client.
     * {@link #UNDER_LOCK} is the safeguard (inside the critical section that chose it).
     * {@link #AFTER_UNLOCK} moves the hand-over one line later, just after the lock is released:
     * the choice {@code i in K - D} is still made atomically, but a sync that learns of i's delivery
     * elsewhere and a purge of i can complete before the note reaches the client, which no longer
     * remembers i and processes it again. Only for the Lincheck control; never use it for real.
     */
    public enum Handoff {
        UNDER_LOCK,
        AFTER_UNLOCK
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final S3Server core;
    private final ServerStore store;
    private final Handoff handoff;
    /** The session's channel for the step interface's {@link #deliverNext} and {@link #authorize}, or null. */
    private final ClientChannel session;
    /**
     * Mutation seam, tests only: false hands the client its message before the commit (the commit
     * then comes after the lock, as for every other step), so a note can reach the client while
     * the state it was chosen from is not yet durable.
     */
    private boolean commitBeforeHandoff = true;

    public ConcurrentS3Server(S3Server core, ServerStore store) {
        this(core, store, Handoff.UNDER_LOCK);
    }

    /** With the hand-over seam; see {@link Handoff} (the racy one is a test control only). */
    public ConcurrentS3Server(S3Server core, ServerStore store, Handoff handoff) {
        this(core, store, handoff, null);
    }

    /**
     * With the channel to the client that the step interface's {@link #deliverNext} and
     * {@link #authorize} hand their messages to (null: those two refuse; use the methods that take
     * a channel).
     */
    public ConcurrentS3Server(S3Server core, ServerStore store, Handoff handoff, ClientChannel session) {
        this.core = Objects.requireNonNull(core, "core");
        this.store = Objects.requireNonNull(store, "store");
        this.handoff = Objects.requireNonNull(handoff, "handoff");
        this.session = session;
    }

    /** The seam above; returns this. */
    ConcurrentS3Server handoffBeforeCommit() {
        this.commitBeforeHandoff = false;
        return this;
    }

    // ---- the step interface (EoServer), each step under the lock --------------------------------

    @Override
    public Strategy strategy() {
        return core.strategy();
    }

    @Override
    public ServerStep createNote(java.util.Optional<NoteId> id, String body) {
        return locked(() -> core.createNote(id, body), null);
    }

    @Override
    public ServerStep receive(EoMessage m) {
        return locked(() -> core.receive(m), null);
    }

    /** {@link #sendNote(ClientChannel)} on the session's channel. */
    @Override
    public ServerStep deliverNext() {
        return sendNote(session("deliverNext"));
    }

    /** {@link #authorize(ClientChannel)} on the session's channel. */
    @Override
    public ServerStep authorize() {
        return authorize(session("authorize"));
    }

    @Override
    public ServerStep sync() {
        return startSync();
    }

    @Override
    public ServerStep endSession() {
        return locked(core::endSession, null);
    }

    @Override
    public ServerStep aDeliverOk(long sessionId, NoteId i) {
        return core.aDeliverOk(sessionId, i);
    }

    @Override
    public ServerStep aDeliverErr(long sessionId, NoteId i) {
        return core.aDeliverErr(sessionId, i);
    }

    @Override
    public void crash() {
        lock.lock();
        try {
            core.crash();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public java.util.Optional<NoteId> pending() {
        lock.lock();
        try {
            return core.pending();
        } finally {
            lock.unlock();
        }
    }

    private ClientChannel session(String step) {
        if (session == null) {
            throw new IllegalStateException(step + " of the step interface needs the session's channel: build this "
                    + "server with one, or call " + step + "(ClientChannel)");
        }
        return session;
    }

    // ---- the spec-named steps ----------------------------------------------------------------------

    @Override
    public ServerStep startSession() {
        return locked(core::startSession, null);
    }

    /** HandleClient's next Deliver: choose a note and hand it to the client in one critical section. */
    public ServerStep sendNote(ClientChannel client) {
        return locked(core::sendNote, client);
    }

    public ServerStep receiveAck(EoMessage.NoteAck ack) {
        return locked(() -> core.receiveAck(ack), null);
    }

    @Override
    public ServerStep timeout() {
        return locked(core::timeout, null);
    }

    /** ServerSynch's requests; the caller sends them to the peers (the record is already durable). */
    public ServerStep startSync() {
        return locked(core::startSync, null);
    }

    public ServerStep handleSync(EoMessage.SyncRequest request) {
        return locked(() -> core.handleSync(request), null);
    }

    public ServerStep receiveSyncReply(EoMessage.SyncReply reply) {
        return locked(() -> core.receiveSyncReply(reply), null);
    }

    /** Authorize the first purgeable note and hand "Please purge i" to the client, atomically. */
    public ServerStep authorize(ClientChannel client) {
        return locked(core::authorize, client);
    }

    public ServerStep receivePurgeAck(EoMessage.PurgeAck ack) {
        return locked(() -> core.receivePurgeAck(ack), null);
    }

    /** Runs one core step under the lock and carries out its record and client messages there. */
    private ServerStep locked(Supplier<ServerStep> step, ClientChannel client) {
        ServerStep done;
        ServerStore.Appended appended;
        lock.lock();
        try {
            done = step.get();
            appended = store.append(recordOf(done), core::durable);
            if (handoff == Handoff.UNDER_LOCK && client != null && forClient(done)) {
                // The one commit under the lock, for a protocol reason: choosing a note (or a purge)
                // and handing it to the client are one critical section (race R3, notes Z5), and
                // the message must not leave before the state it reflects (K, D, the round, which
                // earlier steps may have appended and not yet committed) is durable. Only the
                // session's Deliver and "Please purge" wait here; every other step commits below.
                if (commitBeforeHandoff) {
                    store.commit(appended.seq());
                }
                handToClient(done, client);
            }
        } finally {
            lock.unlock();
        }
        // Outside the lock: group commit (a later step's commit covers this one), then the
        // checkpoint if this step took one; the caller sends the peers' messages after we return.
        store.complete(appended);
        if (handoff == Handoff.AFTER_UNLOCK && client != null) {
            handToClient(done, client);
        }
        return done;
    }

    /** The step's record; an empty one for a step that changed nothing durable. */
    private static ServerEffect.Record recordOf(ServerStep step) {
        for (ServerEffect effect : step.effects()) {
            if (effect instanceof ServerEffect.Record r) {
                return r;
            }
        }
        return new ServerEffect.Record(java.util.List.of()); // not a shared constant: Lincheck cannot walk records
    }

    private static boolean forClient(ServerStep step) {
        for (ServerEffect effect : step.effects()) {
            if (effect instanceof ServerEffect.Send s
                    && (s.message() instanceof EoMessage.NoteDelivery || s.message() instanceof EoMessage.PurgeRequest)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public ServerDurableState durable() {
        lock.lock();
        try {
            return core.durable();
        } finally {
            lock.unlock();
        }
    }

    public SortedSet<NoteId> u() {
        lock.lock();
        try {
            return core.u();
        } finally {
            lock.unlock();
        }
    }

    private static void handToClient(ServerStep step, ClientChannel client) {
        for (ServerEffect effect : step.effects()) {
            if (effect instanceof ServerEffect.Send s
                    && (s.message() instanceof EoMessage.NoteDelivery || s.message() instanceof EoMessage.PurgeRequest)) {
                client.send(s.message());
            }
        }
    }
}
